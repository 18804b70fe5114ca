// Posts of one workspace: creation (with the month quota and the hourly creation limit counted in
// the same transaction, so parallel requests cannot pass them), reading, and state transitions that
// each write their timeline event atomically.
import type { Knex } from 'knex';
import type { User, Workspace } from '../domain/credential.ts';
import type { ErrorBody } from '../domain/errors.ts';
import { newId } from '../domain/ids.ts';
import {
  deletionRefusal,
  nextState,
  PostStateRefused,
  refusal,
  storedStatus,
  systemMove,
  type PersonAction,
  type PostState,
} from '../domain/postStates.ts';
import type { PostStatus } from '../domain/statusLine.ts';
import type { Platform } from '../networks/rules.ts';
import { isoNow, type Clock } from '../runtime/clock.ts';
import { recordAudit } from './audit.ts';
import { isPostgres, SQLITE_LOWER, type Db } from './connect.ts';
import { recordEvents, workspaceEventRows, type EventType } from './events.ts';
import type { JobScheduler } from './jobs.ts';
import { lockWorkspace } from './locks.ts';
import { queuePicker } from './schedulesData.ts';
import { toBool, toCount } from './rows.ts';
import { usageCounter } from './usage.ts';

export type CreatedVia = 'api' | 'dashboard' | 'mcp';
export type EventKind =
  | 'created'
  | 'queued'
  | 'publishing'
  | 'live'
  | 'failed'
  | 'retried'
  | 'retriedByWorker'
  | 'cancelled'
  | 'rescheduled'
  | 'edited'
  | 'approvalRequested'
  | 'approved'
  | 'rejected';

/** A draft's approval as stored (issue 29): who asked (a user id), when, the time wanted; a rejection's decision. */
export interface StoredApproval {
  state: 'pending' | 'rejected';
  requestedBy: string;
  requestedAt: string;
  /** null: as soon as it is approved. */
  wantedAt: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  comment: string | null;
}

export type ApprovalRecord = StoredApproval & { requesterName: string };

/**
 * A queued post's change waiting for approval (its `approval` says who asked and when): the content fields it sets,
 * and `publishAt` when it moves the post (null: publish now; absent: the post keeps its time).
 */
export type StoredChange = ContentPatch & { publishAt?: string | null };

export interface PostRecord {
  id: string;
  accountId: string;
  accountName: string;
  platform: Platform;
  status: PostStatus;
  publishAt: string | null;
  text: string;
  title: string | null;
  tags: string[];
  mediaIds: string[];
  perPlatform: Record<string, unknown>;
  /** Shared by the posts of one creation request. */
  batchId: string;
  createdVia: CreatedVia;
  externalUrl: string | null;
  /** The post's id on its network, once live. */
  externalId: string | null;
  error: ErrorBody | null;
  quotaMonth: string | null;
  liveAt: string | null;
  /** When the worker tries again after a temporary failure; null unless a worker retry is scheduled. */
  nextAttemptAt: string | null;
  /** A queued post the network took and is still reviewing: since when (ISO instant). */
  reviewSince: string | null;
  /** A live post the network shows to fewer people than it chose: the sentence that says so. */
  liveNote: string | null;
  /** A live post the network shows to its account only, whatever was asked (an unaudited YouTube project's upload). */
  shownPrivately: boolean;
  /** A draft's pending or rejected approval, or who asked for a queued post's `pendingChange`; null otherwise. */
  approval: ApprovalRecord | null;
  /** A queued post's change waiting for approval beside it; null otherwise. */
  pendingChange: StoredChange | null;
  createdAt: string;
  updatedAt: string;
}

/** A post to create: its content and target, queued or draft. */
export type NewPost = Pick<
  PostRecord,
  'accountId' | 'platform' | 'publishAt' | 'text' | 'title' | 'tags' | 'mediaIds' | 'perPlatform'
> & { status: 'queued' | 'draft'; approval?: StoredApproval };

export interface NewEvent {
  kind: EventKind;
  message?: string;
  error?: ErrorBody;
  notes?: string[];
  publishAt?: string | null;
}

export interface PostEventRecord {
  id: string;
  kind: EventKind;
  at: string;
  message?: string;
  error?: ErrorBody;
  notes?: string[];
  publishAt?: string;
}

/** What the creation guards decide from, counted inside the creating transaction. */
export interface CreationCounts {
  /** Posts counted toward `month` so far. */
  monthUsed: number;
  /** Successful creation requests in the last hour, and when the oldest of them happened. */
  createdLastHour: number;
  oldestLastHour: string | null;
}

export interface PostFilter {
  status?: PostStatus;
  accountId?: string;
  from?: string;
  to?: string;
  /** Words the text or the title contains, ignoring case. */
  q?: string;
  cursor?: { publishAt: string | null; id: string };
  limit: number;
}

/** What a person may change in a post's content (an edit). */
export type ContentPatch = Partial<Pick<PostRecord, 'text' | 'title' | 'tags' | 'mediaIds' | 'perPlatform'>>;

/** Fields a person's action may change besides the state, which the state table sets. */
export type PostPatch = Partial<Pick<PostRecord, 'publishAt' | 'quotaMonth' | 'error'>> &
  ContentPatch & { approval?: StoredApproval | null; pendingChange?: StoredChange | null };

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

/** `text` as a LIKE pattern matching it literally: its wildcards and the escape character escaped. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The SQL function that lowers a column's case as JavaScript lowers the pattern's: PostgreSQL's own; on SQLite
 * (whose lower() knows only A to Z) the one connect.ts registers.
 */
const lowered = (db: Db) => (isPostgres(db) ? 'lower' : SQLITE_LOWER);

/** A change as decided; `audit` is recorded in its transaction (an approval's decision). */
export interface DecidedChange {
  patch: PostPatch;
  events: NewEvent[];
  audit?: { userId: string; action: 'post.approved' | 'post.rejected'; detail: Record<string, unknown> };
}

const COLUMNS = ['posts.*', 'accounts.display_name as account_name', 'requester.name as approval_requester_name'];

function toApproval(row: Record<string, any>): ApprovalRecord | null {
  if (!row.approval_state) return null;
  return {
    state: row.approval_state,
    requestedBy: row.approval_requested_by,
    requesterName: row.approval_requester_name ?? 'a removed person',
    requestedAt: row.approval_requested_at,
    wantedAt: row.approval_wanted_at ?? null,
    decidedBy: row.approval_decided_by ?? null,
    decidedAt: row.approval_decided_at ?? null,
    comment: row.approval_comment ?? null,
  };
}

function approvalColumns(approval: StoredApproval | null | undefined): Record<string, unknown> {
  return {
    approval_state: approval?.state ?? null,
    approval_requested_by: approval?.requestedBy ?? null,
    approval_requested_at: approval?.requestedAt ?? null,
    approval_wanted_at: approval?.wantedAt ?? null,
    approval_decided_by: approval?.decidedBy ?? null,
    approval_decided_at: approval?.decidedAt ?? null,
    approval_comment: approval?.comment ?? null,
  };
}

function toPost(row: Record<string, any>): PostRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    platform: row.platform,
    status: row.status,
    publishAt: row.publish_at ?? null,
    text: row.text,
    title: row.title ?? null,
    tags: JSON.parse(row.tags),
    mediaIds: JSON.parse(row.media_ids),
    perPlatform: JSON.parse(row.per_platform),
    batchId: row.batch_id,
    createdVia: row.created_via,
    externalUrl: row.external_url ?? null,
    externalId: row.external_id ?? null,
    error: row.error_code ? { code: row.error_code, message: row.error_message, hint: row.error_hint } : null,
    quotaMonth: row.quota_month ?? null,
    liveAt: row.live_at ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    nextAttemptAt: row.status === 'queued' && row.worker_retries > 0 && row.due_at ? row.due_at : null,
    reviewSince: row.status === 'queued' ? (row.review_since ?? null) : null,
    liveNote: row.status === 'live' ? (row.live_note ?? null) : null,
    shownPrivately: row.status === 'live' && toBool(row.shown_privately),
    approval: toApproval(row),
    pendingChange: row.pending_change ? JSON.parse(row.pending_change) : null,
  };
}

function toEvent(row: Record<string, any>): PostEventRecord {
  return {
    id: row.id,
    kind: row.kind,
    at: row.at,
    ...(row.message ? { message: row.message } : {}),
    ...(row.error ? { error: JSON.parse(row.error) } : {}),
    ...(row.notes ? { notes: JSON.parse(row.notes) } : {}),
    ...(row.publish_at ? { publishAt: row.publish_at } : {}),
  };
}

function patchColumns(patch: PostPatch): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  if ('publishAt' in patch) cols.publish_at = patch.publishAt;
  if ('quotaMonth' in patch) cols.quota_month = patch.quotaMonth;
  if ('error' in patch) {
    cols.error_code = patch.error?.code ?? null;
    cols.error_message = patch.error?.message ?? null;
    cols.error_hint = patch.error?.hint ?? null;
  }
  if ('text' in patch) cols.text = patch.text;
  if ('title' in patch) cols.title = patch.title;
  if ('tags' in patch) cols.tags = JSON.stringify(patch.tags);
  if ('mediaIds' in patch) cols.media_ids = JSON.stringify(patch.mediaIds);
  if ('perPlatform' in patch) cols.per_platform = JSON.stringify(patch.perPlatform);
  if ('approval' in patch) Object.assign(cols, approvalColumns(patch.approval));
  if ('pendingChange' in patch) cols.pending_change = patch.pendingChange ? JSON.stringify(patch.pendingChange) : null;
  return cols;
}

/** The timeline row of a request for approval; `wantedAt` null for as soon as approved. */
export const approvalRequestedEvent = (wantedAt: string | null): NewEvent => ({
  kind: 'approvalRequested',
  message: 'Waiting for approval by an owner or administrator.',
  publishAt: wantedAt,
});

const CHANGE_DROPPED: NewEvent = {
  kind: 'rejected',
  message: 'The change that waited for approval was dropped: the post left the queue.',
};

/** Appends timeline rows; also used by the publishing worker, which acts on posts by id. */
export async function insertPostEvents(
  q: Knex,
  workspaceId: string,
  postId: string,
  events: NewEvent[],
  at: string,
): Promise<void> {
  if (!events.length) return;
  const rows = eventRows(
    events.map((event) => ({ workspaceId, postId, event })),
    at,
  );
  await q('post_events').insert(rows);
  await q('events').insert(eventsOfTimeline(rows));
}

/**
 * The spec's promise for token and permission failures, "the post retries once the token works": when
 * accounts are reconnected, their posts that failed for that reason (and that nobody retried, cancelled
 * or rescheduled since: those are not `failed` any more) are queued again, at their time or now if it
 * passed, each with a `retried` event. Answers how many.
 */
export async function requeueAfterReconnect(
  trx: Knex,
  workspaceId: string,
  platform: Platform,
  accountIds: string[],
  jobs: JobScheduler | undefined,
  now: string,
): Promise<number> {
  if (!accountIds.length) return 0;
  const { from, to } = systemMove('reconnect');
  const failed = await trx('posts')
    .where({ workspace_id: workspaceId })
    .whereIn('status', from)
    .whereIn('account_id', accountIds)
    .whereIn('error_code', [`${platform}_token_rejected`, `${platform}_permission_missing`])
    .select('id', 'status', 'publish_at', 'error_code');
  for (const post of failed) {
    const dueAt = post.publish_at && post.publish_at > now ? post.publish_at : now;
    await trx('posts')
      .where({ id: post.id, status: post.status })
      .update({
        status: storedStatus(to),
        publish_at: dueAt,
        due_at: dueAt,
        worker_retries: 0,
        error_code: null,
        error_message: null,
        error_hint: null,
        updated_at: now,
      });
    await insertPostEvents(
      trx,
      workspaceId,
      post.id,
      [
        {
          kind: 'retried',
          publishAt: dueAt,
          message: `Sent again by itself: the account was reconnected after the post failed with ${post.error_code}.`,
        },
      ],
      now,
    );
    await jobs?.schedule(trx, post.id, dueAt);
  }
  return failed.length;
}

/** The workspace event a timeline row reports (a person's retry queues the post again). */
const EVENT_OF_KIND: Record<EventKind, EventType> = {
  created: 'post.created',
  queued: 'post.queued',
  publishing: 'post.publishing',
  live: 'post.live',
  failed: 'post.failed',
  retried: 'post.queued',
  retriedByWorker: 'post.retried_by_worker',
  cancelled: 'post.cancelled',
  rescheduled: 'post.rescheduled',
  edited: 'post.updated',
  approvalRequested: 'post.approval_requested',
  approved: 'post.approved',
  rejected: 'post.rejected',
};

/** Events table rows for timeline rows, one each: written beside them, in the same transaction. */
export function eventsOfTimeline(rows: ReturnType<typeof eventRows>) {
  return rows.flatMap((r) =>
    workspaceEventRows([{ workspaceId: r.workspace_id, type: EVENT_OF_KIND[r.kind], objectId: r.post_id }], r.at),
  );
}

/** Timeline rows of several posts, as the post_events table stores them (the worker records a batch at once). */
export function eventRows(rows: { workspaceId: string; postId: string; event: NewEvent }[], at: string) {
  return rows.map(({ workspaceId, postId, event: e }) => ({
    id: newId('evt'),
    post_id: postId,
    workspace_id: workspaceId,
    kind: e.kind,
    at,
    message: e.message ?? null,
    error: e.error ? JSON.stringify(e.error) : null,
    notes: e.notes ? JSON.stringify(e.notes) : null,
    publish_at: e.publishAt ?? null,
  }));
}

/** One workspace's posts; every stamp (created, updated, events) is the clock's time. */
export function postsData(db: Db, workspace: Workspace, clock: Clock, jobs?: JobScheduler) {
  const wsId = workspace.id;
  const posts = (q: Knex = db) =>
    q('posts')
      .join('accounts', 'accounts.id', 'posts.account_id')
      .leftJoin('users as requester', 'requester.id', 'posts.approval_requested_by')
      .where('posts.workspace_id', wsId);

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
    if (content && row.checkpoint) throw partlySent(id, post.platform);
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
    monthUsed: (month: string) => monthUsed(db, month),

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
        const hourAgo = new Date(Date.parse(now) - 3600_000).toISOString();
        const recent = await trx('post_creations')
          .where('workspace_id', wsId)
          .where('at', '>', hourAgo)
          .count({ n: '*' })
          .min({ oldest: 'at' })
          .first();
        input.guard({
          monthUsed: await monthUsed(trx, input.month),
          createdLastHour: toCount(recent?.n),
          oldestLastHour: recent?.oldest ?? null,
        });
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

    get: async (id: string): Promise<PostRecord | undefined> => {
      const row = await posts().where('posts.id', id).first(COLUMNS);
      return row ? toPost(row) : undefined;
    },

    /** Stable order: by publish time (drafts last), then id; the cursor is the last row of the previous page. */
    list: async (filter: PostFilter): Promise<PostRecord[]> => {
      const q = posts().select(COLUMNS);
      if (filter.status) q.where('posts.status', filter.status);
      if (filter.accountId) q.where('posts.account_id', filter.accountId);
      if (filter.q) {
        const pattern = `%${likeEscaped(filter.q.toLowerCase())}%`;
        q.where((w) =>
          w
            .whereRaw(`${lowered(db)}(posts.text) like ? escape '\\'`, [pattern])
            .orWhereRaw(`${lowered(db)}(posts.title) like ? escape '\\'`, [pattern]),
        );
      }
      // Each bound and the cursor in the list indexes' own terms (migrations 0013 and 0018), so that a range
      // is one stretch of them and a page deep behind a cursor seeks to its first row. Drafts sort last.
      const at = isPostgres(db) ? "coalesce(posts.publish_at, '')" : 'posts.publish_at';
      if (filter.from)
        q.where('posts.publish_at', '>=', filter.from).whereRaw(`((posts.publish_at is null), ${at}) >= (false, ?)`, [
          filter.from,
        ]);
      if (filter.to)
        q.where('posts.publish_at', '<', filter.to).whereRaw(`((posts.publish_at is null), ${at}) < (false, ?)`, [
          filter.to,
        ]);
      const c = filter.cursor;
      if (c && c.publishAt === null && !isPostgres(db)) {
        // Among SQLite's drafts: the publish time is stated null, so the index seeks by id, and in id order.
        q.whereRaw('(posts.publish_at is null) = true and posts.publish_at is null and posts.id > ?', [c.id]);
        return (await q.orderBy('posts.id').limit(filter.limit)).map(toPost);
      }
      if (c) {
        const after = c.publishAt === null ? `(true, '', ?)` : '(false, ?, ?)';
        q.whereRaw(
          `((posts.publish_at is null), ${at}, posts.id) > ${after}`,
          c.publishAt === null ? [c.id] : [c.publishAt, c.id],
        );
      }
      q.orderByRaw(`(posts.publish_at is null), ${at}, posts.id`).limit(filter.limit);
      return (await q).map(toPost);
    },

    /** Drafts awaiting approval, oldest request first (the approvals page). */
    pendingApprovals: async (limit: number): Promise<PostRecord[]> =>
      (
        await posts()
          .where('posts.approval_state', 'pending')
          .orderBy([{ column: 'posts.approval_requested_at' }, { column: 'posts.id' }])
          .limit(limit)
          .select(COLUMNS)
      ).map(toPost),

    events: async (postId: string): Promise<PostEventRecord[]> =>
      (await db('post_events').where({ post_id: postId, workspace_id: wsId }).orderBy('seq')).map(toEvent),

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

export type PostsData = ReturnType<typeof postsData>;
