// Writing one workspace's posts: creation under its limits, a person's changes through the state table, deletion.
import type { Knex } from 'knex';
import type { User } from '../domain/credential.ts';
import { newId } from '../domain/ids.ts';
import type { HourOfCreations } from '../domain/quotas.ts';
import {
  deletionRefusal,
  nextState,
  PostStateRefused,
  refusal,
  storedStatus,
  type PersonAction,
  type PostState,
} from '../domain/postStates.ts';
import type { Platform } from '../networks/rules.ts';
import { isoNow, type Clock } from '../runtime/clock.ts';
import { recordAudit } from './audit.ts';
import { hourOfCreations } from './creationHour.ts';
import type { Db } from './connect.ts';
import { recordEvents } from './events.ts';
import type { JobScheduler } from './jobs.ts';
import { lockWorkspace } from './locks.ts';
import { approvalRequestedEvent, insertPostEvents, type NewEvent } from './postEvents.ts';
import {
  approvalColumns,
  COLUMNS,
  patchColumns,
  toPost,
  workspacePosts,
  type CreatedVia,
  type NewPost,
  type PostPatch,
  type PostRecord,
} from './postRecords.ts';
import { queuePicker } from './schedulesData.ts';
import { usageCounter } from './usage.ts';

/** What the creation guards decide from, counted inside the creating transaction. */
export interface CreationCounts extends HourOfCreations {
  /** Posts counted toward `month` so far. */
  monthUsed: number;
}

const CONTENT_FIELDS = ['text', 'title', 'tags', 'mediaIds', 'perPlatform'] as const;
const changesContent = (patch: PostPatch) => CONTENT_FIELDS.some((field) => field in patch);

/**
 * An earlier attempt left progress on the network (a checkpoint: a file uploaded, a container made) and the
 * worker resumes from it; new content would not match what the network holds, and starting afresh could
 * publish twice. Only the time may change.
 */
const partlySent = (id: string, platform: Platform) =>
  new PostStateRefused(
    id,
    'queued',
    'edit',
    'Change only its time, or let it go out and then edit it on the network; or cancel it and create a new post.',
    `Post ${id} was partly sent to ${platform} by an earlier attempt that Herald is retrying; ` +
      'its content cannot change.',
  );

/** The network took the post and is reviewing it (TikTok's moderation): cancelling it here would not take it back. */
const inReview = (id: string, platform: Platform) =>
  new PostStateRefused(
    id,
    'queued',
    'cancel',
    'Let it go live, then delete it on the network if it should not stay.',
    `Post ${id} is on ${platform} already, in its review; cancelling it in Herald would not take it back.`,
  );

/** The rest of a person's change, decided on the post as locked; `counts` reads inside the same transaction. */
export type DecideChange = (
  post: PostRecord,
  counts: {
    monthUsed: (month: string) => Promise<number>;
    /** The post's account's next free posting time in `zone` (its own time counts as free), ISO; the queue picker. */
    queueTime: (zone: string) => Promise<string | undefined>;
  },
) => Promise<DecidedChange> | DecidedChange;

/** A post of a change made together is not here: the transaction rolls back and the caller answers not found. */
class PostMissing extends Error {}

/** A change as decided; `audit` is recorded in its transaction (an approval's decision). */
export interface DecidedChange {
  patch: PostPatch;
  events: NewEvent[];
  audit?: { userId: string; action: 'post.approved' | 'post.rejected'; detail: Record<string, unknown> };
}

const CHANGE_DROPPED: NewEvent = {
  kind: 'rejected',
  message: 'The change that waited for approval was dropped: the post left the queue.',
  reason: 'leftQueue',
  change: true,
};

/** Writes to one workspace's posts; every stamp (created, updated, events) is the clock's time. */
export function postWrites(db: Db, wsId: string, clock: Clock, jobs?: JobScheduler) {
  const posts = (q: Knex) => workspacePosts(q, wsId);

  const monthUsed = (q: Knex, month: string) => usageCounter(q, wsId, 'posts', month);

  /** Keeps the post's job in step with its state, inside the writing transaction. */
  async function syncJob(trx: Knex, postId: string, status: string, dueAt: string | null): Promise<void> {
    if (!jobs) return;
    if (status === 'queued' && dueAt) await jobs.schedule(trx, postId, dueAt);
    else await jobs.unschedule(trx, postId);
  }

  const insertEvents = (q: Knex, postId: string, events: NewEvent[], at: string) =>
    insertPostEvents(q, wsId, postId, events, at);

  /** The post's files as link rows, which the media delete refusal and retention read. */
  async function linkMedia(trx: Knex, postId: string, mediaIds: string[]): Promise<void> {
    if (mediaIds.length)
      await trx('post_media').insert(
        mediaIds.map((mediaId, position) => ({ post_id: postId, media_id: mediaId, workspace_id: wsId, position })),
      );
  }

  /** Sets each queued post's time to its account's next free posting time (the caller holds the workspace lock). */
  async function placeInQueue(
    trx: Knex,
    list: NewPost[],
    queue: { zone: string; full: (id: string) => Error },
    now: string,
  ) {
    const ids = [...new Set(list.map((p) => p.accountId))];
    const take = await queuePicker(trx, wsId, ids, queue.zone, now);
    for (const post of list) {
      if (post.status !== 'queued') continue;
      const next = take(post.accountId);
      if (next === undefined) throw queue.full(post.accountId);
      post.publishAt = new Date(next).toISOString();
    }
  }

  /** One post's change inside `trx`, the workspace lock held: see `transition`. */
  async function changeOne(trx: Knex.Transaction, id: string, action: PersonAction, decide: DecideChange) {
    const row = await posts(trx)
      .where('posts.id', id)
      .first([...COLUMNS, 'posts.attempt_started_at', 'posts.checkpoint', 'posts.due_at', 'posts.worker_retries']);
    if (!row) return undefined;
    const post = toPost(row);
    const state: PostState = row.attempt_started_at ? 'publishing' : post.status;
    const status = storedStatus(nextState({ id, state }, action));
    const { patch, events, audit } = await decide(post, {
      monthUsed: (month) => monthUsed(trx, month),
      queueTime: async (zone) => {
        const take = await queuePicker(trx, wsId, [post.accountId], zone, isoNow(clock), id);
        const next = take(post.accountId);
        return next === undefined ? undefined : new Date(next).toISOString();
      },
    });
    // A change waits for approval only beside a queued post: one that leaves the queue drops it.
    if (post.pendingChange && status !== 'queued') {
      Object.assign(patch, { approval: null, pendingChange: null });
      events.push(CHANGE_DROPPED);
    }
    const content = changesContent(patch);
    // New content waiting for approval beside a partly sent post could never be applied: refused as an edit is.
    const waitingContent = !!patch.pendingChange && changesContent(patch.pendingChange);
    if ((content || waitingContent) && row.checkpoint) throw partlySent(id, post.platform);
    // Taking a post in review out of the queue (a cancel, or a wait for approval) would not take it back.
    if (status === 'draft' && row.review_since) throw inReview(id, post.platform);
    const now = isoNow(clock);
    const timed = 'publishAt' in patch;
    const publishAt = timed ? (patch.publishAt ?? null) : post.publishAt;
    // A change of time starts the attempt count afresh and the due time follows it; a change of content
    // alone keeps both (a worker's retry after a temporary failure stays when it was). Either way a
    // worker's reservation of the post (made ahead of its time, with the content as it was) is taken
    // back. An attempt that started after the post was read (the worker does not take the workspace
    // lock) cannot be taken back: the change is refused as the table refuses a post being published;
    // nor can progress an attempt left meanwhile, which new content must not meet.
    const dueAt = status !== 'queued' ? null : timed ? publishAt : (row.due_at ?? publishAt);
    const update = trx('posts').where({ id, workspace_id: wsId, status: post.status }).whereNull('attempt_started_at');
    if (content) update.whereNull('checkpoint');
    const changed = await update.update({
      ...patchColumns(patch),
      status,
      due_at: dueAt,
      worker_retries: timed ? 0 : row.worker_retries,
      attempt_id: null,
      attempt_worker: null,
      updated_at: now,
    });
    if (!changed) throw refusal({ id, state: 'publishing' }, action)!;
    if (patch.mediaIds) {
      await trx('post_media').where({ post_id: id, workspace_id: wsId }).delete();
      await linkMedia(trx, id, patch.mediaIds);
    }
    await syncJob(trx, id, status, dueAt);
    await insertEvents(trx, id, events, now);
    if (audit) await recordAudit(trx, wsId, audit.userId, audit.action, { postId: id, ...audit.detail });
    return toPost(await posts(trx).where('posts.id', id).first(COLUMNS));
  }

  return {
    /**
     * Creates the posts of one request, all or none. `guard` sees the counts taken under the
     * workspace lock and throws to refuse; nothing is written then.
     */
    create: (input: {
      posts: NewPost[];
      createdVia: CreatedVia;
      month: string;
      guard: (counts: CreationCounts) => void;
      /**
       * `when: "queue"`: each queued post takes its account's next free posting time in this zone, chosen under the
       * workspace lock so that posts created at once get different times; `full` throws for an account with none.
       */
      queue?: { zone: string; full: (accountId: string) => Error };
    }) =>
      db.transaction(async (trx) => {
        await lockWorkspace(trx, wsId);
        const now = isoNow(clock);
        input.guard({ monthUsed: await monthUsed(trx, input.month), ...(await hourOfCreations(trx, wsId, now)) });
        if (input.queue) await placeInQueue(trx, input.posts, input.queue, now);
        const ids: string[] = [];
        const batchId = newId('bat');
        for (const post of input.posts) {
          const id = newId('pst');
          ids.push(id);
          await trx('posts').insert({
            id,
            workspace_id: wsId,
            account_id: post.accountId,
            platform: post.platform,
            status: post.status,
            publish_at: post.publishAt,
            text: post.text,
            title: post.title,
            tags: JSON.stringify(post.tags),
            media_ids: JSON.stringify(post.mediaIds),
            per_platform: JSON.stringify(post.perPlatform),
            batch_id: batchId,
            created_via: input.createdVia,
            quota_month: post.status === 'queued' ? input.month : null,
            due_at: post.status === 'queued' ? post.publishAt : null,
            ...approvalColumns(post.approval),
            created_at: now,
            updated_at: now,
          });
          await syncJob(trx, id, post.status, post.publishAt);
          await linkMedia(trx, id, post.mediaIds);
          const via = input.createdVia === 'api' ? 'API' : input.createdVia === 'mcp' ? 'MCP server' : 'dashboard';
          const events: NewEvent[] = [{ kind: 'created', message: `Created through the ${via}.` }];
          if (post.status === 'queued') events.push({ kind: 'queued', publishAt: post.publishAt });
          if (post.approval) events.push(approvalRequestedEvent(post.approval.wantedAt));
          await insertEvents(trx, id, events, now);
        }
        await trx('post_creations').insert({ workspace_id: wsId, at: now });
        return (await posts(trx).whereIn('posts.id', ids).select(COLUMNS))
          .map(toPost)
          .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
      }),

    /**
     * A person's action on one post, atomically: the state table decides whether the post, as locked,
     * may take it (PostStateRefused if not); then `decide` returns the rest of the change and its
     * events, or throws to refuse. Nothing is written on a refusal. Undefined when no such post exists here.
     */
    transition: (id: string, action: PersonAction, decide: DecideChange) =>
      db.transaction(async (trx) => {
        await lockWorkspace(trx, wsId);
        return changeOne(trx, id, action, decide);
      }),

    /**
     * Several posts' changes as one: each as `transition` makes it, in order, in one transaction, so that a
     * refusal of any leaves all as they were (two queued posts swapping their times). Undefined when a post is
     * not here; nothing is written then either.
     */
    transitionTogether: (changes: { id: string; action: PersonAction; decide: DecideChange }[]) =>
      db
        .transaction(async (trx) => {
          await lockWorkspace(trx, wsId);
          const done: PostRecord[] = [];
          for (const c of changes) {
            const post = await changeOne(trx, c.id, c.action, c.decide);
            if (!post) throw new PostMissing();
            done.push(post);
          }
          return done;
        })
        .catch((err) => {
          if (err instanceof PostMissing) return undefined;
          throw err;
        }),

    /**
     * Deletes a draft or failed post with its timeline and file links, and records it in the audit trail,
     * atomically; throws the state table's refusal for the others. The month's count stays as it was: the
     * counter trigger takes a counted post out of its month, and a post counts in the month it was queued
     * in whatever became of it (as a failed one does), so its place is put back. Undefined when no such
     * post exists here. Its `post.deleted` event carries the post as `answered` words it, since the feed can no
     * longer read it.
     */
    remove: (id: string, by: User, answered: (post: PostRecord) => unknown) =>
      db.transaction(async (trx) => {
        await lockWorkspace(trx, wsId);
        const row = await posts(trx)
          .where('posts.id', id)
          .first([...COLUMNS, 'posts.attempt_started_at']);
        if (!row) return undefined;
        const post = toPost(row);
        const refused = deletionRefusal({ id, state: row.attempt_started_at ? 'publishing' : post.status });
        if (refused) throw refused;
        await trx('post_media').where({ post_id: id, workspace_id: wsId }).delete();
        await trx('post_events').where({ post_id: id, workspace_id: wsId }).delete();
        // The worker does not take the workspace lock: the row goes only if it is still what was read.
        const deleted = await trx('posts')
          .where({ id, workspace_id: wsId, status: post.status })
          .whereNull('attempt_id')
          .delete();
        if (!deleted) throw deletionRefusal({ id, state: 'publishing' })!;
        if (post.quotaMonth)
          await trx('usage_counters')
            .where({ workspace_id: wsId, counter: 'posts', period: post.quotaMonth })
            .increment('value', 1);
        await jobs?.unschedule(trx, id);
        await recordAudit(trx, wsId, by.id, 'post.deleted', {
          postId: id,
          status: post.status,
          platform: post.platform,
          account: post.accountName,
          text: post.text.slice(0, 80),
        });
        const deletion = { workspaceId: wsId, type: 'post.deleted' as const, objectId: id, payload: answered(post) };
        await recordEvents(trx, [deletion], isoNow(clock));
        return post;
      }),
  };
}
