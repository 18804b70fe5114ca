// An account's queue (the posting queue): its coming queued posts on their times and the free posting times
// of the coming weeks, by day, in the workspace zone. A post dragged onto another post's time swaps the two times (one
// server operation, both or neither: swapPostTimes), onto a free time moves there; Move earlier and Move later do the
// same one step at a time, for the keyboard and phones; Publish now sends a post at once. Each asks first.
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type DragEvent } from 'react';
import { Link, useParams } from 'react-router';
import { needsApproval } from '../../../domain/approvals.ts';
import { api, call, type Post } from '../api.ts';
import { clockText, dayHeading, dayTimeText } from '../format.ts';
import { reschedule } from '../posts/postActions.tsx';
import { useSignedIn } from '../session.tsx';
import { Button, ConfirmDialog, Empty, ErrorNote, Loading, PageHeader } from '../ui.tsx';
import { postHeading } from '../words/postWords.ts';
import { QUEUE_PAGE_WORDS as W } from '../words/scheduleWords.ts';
import { ASK_WORDS } from '../words/approvalWords.ts';
import { useAccounts } from '../queries/accounts.ts';
import { postKeys, queuedPostsQuery } from '../queries/posts.ts';
import { useRefresh } from '../queries/refresh.ts';
import { scheduleKeys, useSchedule } from '../queries/schedule.ts';
import { byLocalDay, localWhen, queueEntries, stepTarget, type QueueEntry } from './queue.ts';
import { canDrag } from '../pointer.ts';

const DAYS = 14;

/** What the confirm step is about to do. */
type Change =
  | { kind: 'swap'; post: Post; other: Post }
  | { kind: 'move'; post: Post; to: string }
  | { kind: 'publish'; post: Post };

export function QueuePage() {
  const accountId = useParams().accountId ?? '';
  const session = useSignedIn();
  const asks = needsApproval(session, 'dashboard');
  const zone = session.workspace.tz;
  const accounts = useAccounts();
  const schedule = useSchedule(accountId);
  const posts = useQuery(queuedPostsQuery(accountId, DAYS));
  const refresh = useRefresh();
  const [change, setChange] = useState<Change>();
  const dragged = useRef<Post>(undefined);
  const account = accounts.data?.find((a) => a.id === accountId);
  const name = account?.displayName ?? '';

  const error = accounts.error ?? schedule.error ?? posts.error;
  if (error)
    return (
      <section className="stack">
        <PageHeader title={W.link} />
        <ErrorNote error={error} />
      </section>
    );
  if (!accounts.data || !schedule.data || !posts.data) return <Loading />;
  const entries = queueEntries(posts.data, schedule.data.slots, zone, Date.now(), DAYS);

  /** The change a post makes onto an entry: swap with its post, or move to its free time. */
  const toward = (post: Post, target: QueueEntry | undefined) => {
    if (!target || target.post?.id === post.id) return;
    setChange(target.post ? { kind: 'swap', post, other: target.post } : { kind: 'move', post, to: target.at });
  };
  const run = async (c: Change) => {
    if (c.kind === 'swap')
      await call(api.POST('/posts/swap-times', { body: { postIds: [c.post.id, c.other.id], confirm: true } }));
    else await reschedule(c.post.id, c.kind === 'move' ? localWhen(c.to, zone) : 'now');
    setChange(undefined);
    await refresh(postKeys.all, scheduleKeys.of(accountId));
  };
  const drop = (target: QueueEntry) => ({
    onDragOver: (e: DragEvent) => e.preventDefault(),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      const post = dragged.current;
      dragged.current = undefined;
      if (post) toward(post, target);
    },
  });

  return (
    <section className="stack">
      <PageHeader title={W.title(name)}>
        <Link className="btn btn-secondary" to={`/accounts/${accountId}/schedule`}>
          {W.postingTimes}
        </Link>
      </PageHeader>
      <p className="muted">{W.intro(zone, DAYS, canDrag())}</p>
      {schedule.data.slots.length === 0 && (
        <Empty title={W.noSlots}>
          {W.noSlotsHint} <Link to={`/accounts/${accountId}/schedule`}>{W.postingTimes}</Link>
        </Empty>
      )}
      {entries.length === 0 && schedule.data.slots.length > 0 && <p className="muted">{W.nothing}</p>}
      {entries.length > 0 && (
        <div className="card queue">
          {byLocalDay(entries, zone).map(([day, list]) => (
            <section key={day} className="queue-day" aria-labelledby={`day-${day}`}>
              <h2 id={`day-${day}`}>{dayHeading(day, zone)}</h2>
              <ol className="rows">
                {list.map((entry) =>
                  entry.post ? (
                    <QueuedPost
                      key={entry.post.id}
                      entry={entry}
                      zone={zone}
                      first={entries[0] === entry}
                      last={entries.at(-1) === entry}
                      drop={drop(entry)}
                      onDragStart={(post) => {
                        dragged.current = post;
                      }}
                      onStep={(post, step) => toward(post, stepTarget(entries, post.id, step))}
                      onPublish={(post) => setChange({ kind: 'publish', post })}
                    />
                  ) : (
                    <li key={entry.at} className="row queue-free" {...drop(entry)}>
                      <time dateTime={entry.at} className="queue-time">
                        {clockText(entry.at, zone)}
                      </time>
                      <span className="muted">{W.free}</span>
                    </li>
                  ),
                )}
              </ol>
            </section>
          ))}
        </div>
      )}
      {change && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setChange(undefined)}
          title={confirmWords(change, zone, asks).title}
          action={confirmWords(change, zone, asks).action}
          description={
            <>
              <p>{confirmWords(change, zone, asks).body}</p>
              {asks && (
                <p>
                  {change.kind === 'swap'
                    ? ASK_WORDS.staysBoth
                    : ASK_WORDS.stays(dayTimeText(change.post.publishAt!, zone))}
                </p>
              )}
            </>
          }
          onConfirm={() => run(change)}
        />
      )}
    </section>
  );
}

/** The confirm step's words; `asks`: the person's changes need approval, so a move or a publish now is asked for. */
function confirmWords(c: Change, zone: string, asks: boolean) {
  const at = (iso: string) => dayTimeText(iso, zone);
  if (c.kind === 'swap')
    return {
      title: W.swapTitle,
      action: W.swapAction,
      body: W.swapBody(postHeading(c.post), at(c.post.publishAt!), postHeading(c.other), at(c.other.publishAt!)),
    };
  if (c.kind === 'move')
    return {
      title: asks ? ASK_WORDS.moveTitle : W.moveTitle,
      action: (asks ? ASK_WORDS.moveAction : W.moveAction)(at(c.to)),
      body: W.moveBody(postHeading(c.post), at(c.post.publishAt!), at(c.to)),
    };
  if (asks) return { title: ASK_WORDS.publishTitle, action: ASK_WORDS.publishAction, body: postHeading(c.post) };
  return { title: W.publishTitle, action: W.publishAction, body: W.publishBody(postHeading(c.post)) };
}

function QueuedPost({
  entry,
  zone,
  first,
  last,
  drop,
  onDragStart,
  onStep,
  onPublish,
}: {
  entry: QueueEntry;
  zone: string;
  first: boolean;
  last: boolean;
  drop: { onDragOver: (e: DragEvent) => void; onDrop: (e: DragEvent) => void };
  onDragStart: (post: Post) => void;
  onStep: (post: Post, step: -1 | 1) => void;
  onPublish: (post: Post) => void;
}) {
  const post = entry.post!;
  const time = clockText(entry.at, zone);
  const which = <span className="sr-only">{W.which(time)}</span>;
  // A drag is the mouse's shortcut; the keyboard's (and a phone's) are the buttons.
  return (
    <li
      className="row queue-post"
      draggable
      onDragStart={(e) => {
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', post.id);
        onDragStart(post);
      }}
      {...drop}
    >
      <time dateTime={entry.at} className="queue-time">
        {time}
      </time>
      <div className="row-main">
        <p className="row-title">
          <Link to={`/posts/${post.id}`} draggable={false}>
            {postHeading(post)}
          </Link>
        </p>
      </div>
      <div className="row-actions">
        <Button tone="ghost" disabled={first} onClick={() => onStep(post, -1)}>
          {W.earlier}
          {which}
        </Button>
        <Button tone="ghost" disabled={last} onClick={() => onStep(post, 1)}>
          {W.later}
          {which}
        </Button>
        <Button tone="ghost" onClick={() => onPublish(post)}>
          {W.publishNow}
          {which}
        </Button>
      </div>
    </li>
  );
}
