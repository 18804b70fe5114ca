// Live updates: one EventSource per tab on the server's stream of workspace events (GET /auth/events), so pages
// refetch what changed instead of polling. Nothing is sent while the tab is hidden: the stream closes then, and on
// return it opens again and the page's queries are fetched once (the events missed meanwhile are not replayed).
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { accountKeys } from './queries/accounts.ts';
import { approvalKeys, approvalListQuery } from './queries/approvals.ts';
import { mediaKeys } from './queries/media.ts';
import { planKeys } from './queries/plan.ts';
import { postKeys } from './queries/posts.ts';

export interface LiveEvent {
  type: string;
  objectId: string;
  /** A post's state when the server sent the event. */
  post?: { status: string; publishAt: string | null };
}

/** Lists and the calendar refetch at most this often while events keep coming (the first change shows at once). */
export const LIST_REFRESH_MS = 30_000;

/**
 * Events that change what waits for approval: the approvals page's short list (and the menu's count) is fetched again
 * at once.
 */
const APPROVAL_CHANGES = ['post.approval_requested', 'post.approved', 'post.rejected', 'post.deleted'];

/**
 * A post's publishing starting drops a change waiting beside it: the approvals list is fetched again only when it
 * shows that post, so a busy calendar's posts going live ask for nothing more.
 */
function dropsWaitingChange(client: QueryClient, event: LiveEvent): boolean {
  if (event.type !== 'post.publishing') return false;
  return client.getQueryData(approvalListQuery().queryKey)?.posts.some((p) => p.id === event.objectId) ?? false;
}

/** The queries an event makes stale: the object's own, at once, and the lists it appears in, throttled. */
export function affected(event: LiveEvent): { own: QueryKey[]; lists: QueryKey[] } {
  const id = event.objectId;
  if (event.type.startsWith('post.'))
    return {
      own: [postKeys.one(id), ...(APPROVAL_CHANGES.includes(event.type) ? [approvalKeys.all] : [])],
      lists: [postKeys.lists],
    };
  // A file that became ready or failed changes the plan's rows of a post being composed.
  if (event.type.startsWith('media.')) return { own: [mediaKeys.one(id), planKeys.all], lists: [mediaKeys.lists] };
  return { own: [], lists: [accountKeys.list] };
}

type CalendarPost = { id: string; status: string; publishAt: string | null };

/**
 * Puts a post's new state into the calendar ranges that show it, without a request; answers whether any did. A post
 * no range shows yet (just created, moved in) needs the ranges fetched again.
 */
export function patchCalendars(client: QueryClient, event: LiveEvent): boolean {
  const state = event.post;
  // A new, deleted or moved post changes which range shows it: those ranges are fetched again.
  if (!state || ['post.created', 'post.deleted', 'post.rescheduled'].includes(event.type)) return false;
  let found = false;
  client.setQueriesData<CalendarPost[]>({ queryKey: postKeys.calendars }, (posts) =>
    posts?.map((p) => {
      if (p.id !== event.objectId) return p;
      found = true;
      return { ...p, status: state.status, publishAt: state.publishAt };
    }),
  );
  return found;
}

/**
 * What the tab does with each event: the object's own queries go stale at once; a post the calendar shows changes in
 * place; lists are fetched again at most once per LIST_REFRESH_MS each, the first at once and the last never lost.
 */
export function liveEventHandler(client: QueryClient, now: () => number) {
  const last = new Map<string, number>();
  const due = new Map<string, ReturnType<typeof setTimeout>>();
  const lists = {
    touch(key: QueryKey) {
      const name = JSON.stringify(key);
      if (due.has(name)) return;
      const wait = (last.get(name) ?? Number.NEGATIVE_INFINITY) + LIST_REFRESH_MS - now();
      const run = () => {
        due.delete(name);
        last.set(name, now());
        void client.invalidateQueries({ queryKey: key });
      };
      if (wait <= 0) run();
      else due.set(name, setTimeout(run, wait));
    },
  };
  return {
    handle(event: LiveEvent) {
      const { own, lists: theirs } = affected(event);
      for (const queryKey of own) void client.invalidateQueries({ queryKey });
      if (dropsWaitingChange(client, event)) void client.invalidateQueries({ queryKey: approvalKeys.all });
      // The calendars changed in place; the searched lists and the accounts' queues are fetched again.
      if (patchCalendars(client, event)) for (const key of [postKeys.searches, postKeys.queues]) lists.touch(key);
      else for (const key of theirs) lists.touch(key);
    },
    stop() {
      for (const timer of due.values()) clearTimeout(timer);
      due.clear();
    },
  };
}

/**
 * Keeps the signed-in tab's queries current from the event stream while the tab is visible; no stream without a
 * workspace (one being switched to).
 */
export function useLiveUpdates(workspaceId: string | undefined) {
  const client = useQueryClient();
  // A switch to another workspace opens a stream of its own.
  useEffect(() => {
    if (!workspaceId) return;
    const lists = liveEventHandler(client, () => Date.now());
    let source: EventSource | undefined;
    const open = () => {
      source ??= new EventSource('/auth/events');
      source.onmessage = (message) => lists.handle(JSON.parse(message.data) as LiveEvent);
      // The server could not replay what the tab missed: everything shown may be old.
      source.addEventListener('reset', () => void client.invalidateQueries());
    };
    const close = () => {
      source?.close();
      source = undefined;
      lists.stop();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') return close();
      open();
      void client.invalidateQueries();
    };
    if (document.visibilityState === 'visible') open();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      close();
    };
  }, [client, workspaceId]);
}
