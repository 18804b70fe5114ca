// Posts: plan (no side effects), create (confirm: true), read, and a person's actions on a post, as
// the state table (domain/postStates.ts) allows them: cancel, edit and reschedule, retry, delete.
import { DateTime } from 'luxon';
import type { WorkspaceData } from '../db/workspaceData.ts';
import type { MediaRecord } from '../db/mediaData.ts';
import {
  approvalRequestedEvent,
  type ApprovalRecord,
  type ContentPatch,
  type DecideChange,
  type NewEvent,
  type NewPost,
  type PostRecord,
  type StoredApproval,
  type StoredChange,
} from '../db/postsData.ts';
import { needsApproval } from '../domain/approvals.ts';
import type { Credential } from '../domain/credential.ts';
import { readCursor, writeCursor } from '../domain/cursor.ts';
import { ApiError, confirmRequired, invalidRequest, notFound } from '../domain/errors.ts';
import {
  planRows,
  planTable,
  queueEmpty,
  settingFileIds,
  type PlannedRow,
  type PostBody,
  type TargetAccount,
} from '../domain/planPosts.ts';
import { PLANS } from '../domain/plans.ts';
import { PostStateRefused, refusal, type PersonAction } from '../domain/postStates.ts';
import { assertCanCreatePosts, assertMonthQuota } from '../domain/quotas.ts';
import { statusLine } from '../domain/statusLine.ts';
import { formatInZone, resolveWhen, timeIssues, type ResolvedWhen, type When } from '../domain/when.ts';
import { networkOf } from '../networks/index.ts';
import type { MediaFacts } from '../networks/rules.ts';
import { isoNow, type Clock } from '../runtime/clock.ts';
import type { Services } from '../runtime/services.ts';
import { mailApprovers } from './approvalMail.ts';
import { withAccountIssues } from './networkAccount.ts';
import type { Handler, RequestBody } from './types.ts';

interface Targets {
  accountIds?: string[];
  groupId?: string;
}

const invalidState = (message: string, hint: string) => new ApiError(409, 'invalid_state', message, hint);

function monthIn(zone: string, now: DateTime): string {
  return now.setZone(zone).toFormat('yyyy-MM');
}

async function targetAccounts(data: WorkspaceData, targets: Targets): Promise<TargetAccount[]> {
  let ids = targets.accountIds ?? [];
  if (targets.groupId !== undefined) {
    const group = await data.groups.get(targets.groupId);
    if (!group) throw notFound('group', targets.groupId);
    if (group.accountIds.length === 0)
      throw invalidRequest(
        `Group ${targets.groupId} has no accounts.`,
        'Add accounts to the group, or target accountIds.',
      );
    ids = group.accountIds;
  }
  const all = new Map((await data.accounts.list()).map((a) => [a.id, a]));
  return ids.map((id) => {
    const account = all.get(id);
    if (!account) throw notFound('account', id);
    return account;
  });
}

const toFacts = (m: MediaRecord): MediaFacts => ({
  id: m.id,
  status: m.status,
  kind: m.kind,
  mime: m.mime,
  size: m.size,
  width: m.width,
  height: m.height,
  durationSeconds: m.durationSeconds,
  bytesDeletedAt: m.bytesDeletedAt,
});

async function mediaFacts(data: WorkspaceData, ids: string[]): Promise<MediaFacts[]> {
  const found = new Map((await data.media.getMany(ids)).map((m) => [m.id, m]));
  return ids.map((id) => {
    const m = found.get(id);
    if (!m) throw notFound('media', id);
    return toFacts(m);
  });
}

/**
 * Each account's next free posting time now (a create or a move takes it again under the workspace lock); post
 * `except`, being moved, leaves its own time free for itself.
 */
async function queueTimes(data: WorkspaceData, zone: string, now: DateTime, accountIds: string[], except?: string) {
  const take = await data.schedules.picker(accountIds, zone, now.toISO()!, except);
  const at = new Map<string, DateTime>();
  for (const id of new Set(accountIds)) {
    const next = take(id);
    if (next !== undefined) at.set(id, DateTime.fromMillis(next, { zone: 'utc' }));
  }
  return { kind: 'queue' as const, at };
}

/** Everything a plan, a create or an edit needs, read once; bad references answer 404 here. */
async function prepare(
  cred: Credential,
  data: WorkspaceData,
  services: Services,
  body: PostBody & { targets: Targets; mediaIds: string[]; when: When | ResolvedWhen },
) {
  const now = DateTime.fromMillis(services.clock.now(), { zone: 'utc' });
  // Files named by settings are looked up in this workspace only: one missing or foreign is a row issue, not a 404.
  // Each lookup is its own async call: a throw while building the list would leave the others' rejections unhandled.
  const settingFiles = async () => (await data.media.getMany(settingFileIds(body))).map(toFacts);
  const [accounts, media, files] = await Promise.all([
    targetAccounts(data, body.targets),
    mediaFacts(data, body.mediaIds),
    settingFiles(),
  ]);
  const when =
    body.when === 'queue'
      ? await queueTimes(
          data,
          cred.workspace.tz,
          now,
          accounts.map((a) => a.id),
        )
      : typeof body.when === 'object' && 'kind' in body.when
        ? body.when
        : resolveWhen(body.when, now, cred.workspace.tz);
  const rows = await withAccountIssues(
    services,
    data,
    accounts,
    media,
    planRows({ accounts, media, files, body, when }),
  );
  return { now, accounts, rows, when, files, month: monthIn(cred.workspace.tz, now) };
}

/**
 * A write refuses a file named by a setting (YouTube's `thumbnailMediaId`) that is not this workspace's, as it
 * refuses one of `mediaIds`: a draft, saved unchecked, kept another workspace's id (issue 41). A plan reports it.
 */
function assertSettingFiles(body: PostBody, files: MediaFacts[]): void {
  const here = new Set(files.map((f) => f.id));
  const missing = settingFileIds(body).find((id) => !here.has(id));
  if (missing) throw notFound('media', missing);
}

function wireRow(row: PlannedRow) {
  return {
    accountId: row.accountId,
    platform: row.platform,
    publishAt: row.publishAt,
    ok: row.ok,
    issues: row.issues,
    settings: row.content.perPlatform,
  };
}

/** 422 with the plan rows; `change` is what was refused (a create, or an edit of one post). */
function checksFailed(rows: PlannedRow[], change: 'create' | 'edit' = 'create'): ApiError {
  const failing = rows.filter((r) => !r.ok);
  return new ApiError(
    422,
    'checks_failed',
    `${failing.length} of ${rows.length} posts do not pass the network checks; ` +
      `${change === 'create' ? 'nothing was created' : 'nothing was changed'}.`,
    change === 'create'
      ? "Fix what each row's issues name (or remove those accounts), plan again, then create."
      : "Fix what the row's issues name, then send the change again.",
    { rows: rows.map(wireRow) },
  );
}

const wireApproval = (a: ApprovalRecord) => ({
  state: a.state,
  requestedBy: a.requesterName,
  requestedAt: a.requestedAt,
  wantedAt: a.wantedAt,
  comment: a.comment,
  decidedAt: a.decidedAt,
});

/** A queued post's change waiting for approval, as the contract names it: who asked, when, and what it changes. */
const wirePendingChange = (post: PostRecord) =>
  post.pendingChange && post.approval
    ? { requestedBy: post.approval.requesterName, requestedAt: post.approval.requestedAt, ...post.pendingChange }
    : undefined;

/** The content fields a waiting change sets, without its time. */
const changedContent = ({ publishAt: _, ...content }: StoredChange): ContentPatch => content;

/** The statusLine's facts of a waiting change: the time it asks (absent: keeps), whether it edits the content. */
const changeFacts = (change: StoredChange | null) =>
  change && {
    ...('publishAt' in change ? { publishAt: change.publishAt } : {}),
    edits: Object.keys(changedContent(change)).length > 0,
  };

/** A request for approval by `userId` now, for `wantedAt` (null: as soon as approved). */
const pendingApproval = (userId: string, now: string, wantedAt: string | null): StoredApproval => ({
  state: 'pending',
  requestedBy: userId,
  requestedAt: now,
  wantedAt,
  decidedBy: null,
  decidedAt: null,
  comment: null,
});

/** The time a request wants: its instant, or null for `now` (as soon as approved). */
const wantedAt = (when: ResolvedWhen, row: PlannedRow) => (when.kind === 'now' ? null : row.publishAt);

const APPROVAL_LINE =
  'These posts need approval: they are saved as drafts awaiting an owner or administrator, and nothing is ' +
  'published until one approves them in the dashboard.';

/** A post as the API answers it (also in events, handlers/events.ts). */
export function wirePost(post: PostRecord, zone: string) {
  const at = post.status === 'live' ? (post.liveAt ?? post.publishAt) : post.publishAt;
  const pendingChange = wirePendingChange(post);
  return {
    id: post.id,
    accountId: post.accountId,
    platform: post.platform,
    status: post.status,
    statusLine: statusLine(
      {
        status: post.status,
        network: networkOf(post.platform).label,
        accountName: post.accountName,
        at,
        errorMessage: post.error?.message,
        nextAttemptAt: post.nextAttemptAt,
        reviewSince: post.reviewSince,
        liveNote: post.liveNote,
        shownPrivately: post.shownPrivately,
        approval: pendingChange ? null : post.approval,
        pendingChange: changeFacts(post.pendingChange),
      },
      zone,
    ),
    publishAt: post.publishAt,
    text: post.text,
    title: post.title,
    tags: post.tags,
    mediaIds: post.mediaIds,
    perPlatform: post.perPlatform,
    batchId: post.batchId,
    ...(post.nextAttemptAt ? { nextAttemptAt: post.nextAttemptAt } : {}),
    ...(post.status === 'live' && post.externalUrl ? { externalUrl: post.externalUrl } : {}),
    ...(post.shownPrivately ? { shownPrivately: true } : {}),
    ...(post.status === 'failed' && post.error ? { error: post.error } : {}),
    ...(post.approval && !pendingChange ? { approval: wireApproval(post.approval) } : {}),
    ...(pendingChange ? { pendingChange } : {}),
    createdVia: post.createdVia,
    createdAt: post.createdAt,
    updatedAt: post.updatedAt,
  };
}

export const planPost: Handler<'planPost'> = async ({ cred, data, body, via, services }) => {
  const { accounts, rows, when, month } = await prepare(cred, data, services, body as never);
  const awaitingApproval = when.kind !== 'draft' && needsApproval(cred, via);
  const status = when.kind === 'draft' || awaitingApproval ? 'draft' : 'queued';
  const quota = {
    used: await data.posts.monthUsed(month),
    limit: PLANS[cred.workspace.plan].postsPerMonth,
    requested: status === 'queued' ? rows.length : 0,
  };
  return {
    status: 200,
    body: {
      ok: rows.every((r) => r.ok),
      status,
      awaitingApproval,
      rows: rows.map(wireRow),
      quota,
      table: planTable(rows, accounts, when, cred.workspace.tz, quota) + (awaitingApproval ? `\n${APPROVAL_LINE}` : ''),
    },
  };
};

export const createPosts: Handler<'createPosts'> = async ({ cred, data, body, via, services, afterCommit }) => {
  if (body.confirm !== true) throw confirmRequired('Creating posts', 'createPosts');
  const { now, accounts, rows, when, files, month } = await prepare(cred, data, services, body as never);
  assertSettingFiles(body as PostBody, files);
  // A post awaiting approval is a draft that asked for a time: it must pass as a queued one would.
  const awaitingApproval = when.kind !== 'draft' && needsApproval(cred, via);
  const status = when.kind === 'draft' || awaitingApproval ? 'draft' : 'queued';
  // A draft is saved as it is; its checks run again when it gets a time.
  if (when.kind !== 'draft' && rows.some((r) => !r.ok)) throw checksFailed(rows);
  const asked = isoNow(services.clock);
  const posts: NewPost[] = rows.map((row) => ({
    accountId: row.accountId,
    platform: row.platform,
    status,
    publishAt: awaitingApproval ? null : row.publishAt,
    ...(awaitingApproval ? { approval: pendingApproval(cred.user.id, asked, wantedAt(when, row)) } : {}),
    text: row.content.text,
    title: row.content.title,
    tags: row.content.tags,
    mediaIds: body.mediaIds,
    perPlatform: row.content.perPlatform,
  }));
  const created = await data.posts.create({
    posts,
    createdVia: via,
    month,
    guard: (counts) =>
      assertCanCreatePosts(cred.workspace.plan, counts, status === 'queued' ? posts.length : 0, now.toMillis()),
    // The plan's queue times were free when read; the create takes them again under the workspace lock.
    ...(when.kind === 'queue' && status === 'queued'
      ? {
          queue: {
            zone: cred.workspace.tz,
            full: (accountId: string) =>
              checksFailed(
                rows.map((r) =>
                  r.accountId === accountId
                    ? { ...r, ok: false, issues: [queueEmpty(accounts.find((a) => a.id === accountId)!)] }
                    : r,
                ),
              ),
          },
        }
      : {}),
  });
  if (awaitingApproval) afterCommit(() => mailApprovers(services, cred, created));
  return {
    status: 201,
    body: {
      posts: created.map((p) => {
        const w = wirePost(p, cred.workspace.tz);
        return {
          id: w.id,
          status: w.status,
          statusLine: w.statusLine,
          ...(w.approval ? { approval: w.approval } : {}),
        };
      }),
    },
  };
};

/** A posts cursor: [publishAt or null, id]. */
const postsPosition = (position: unknown) => {
  const [publishAt, id] = Array.isArray(position) ? (position as unknown[]) : [];
  return (publishAt === null || typeof publishAt === 'string') && typeof id === 'string'
    ? { publishAt, id }
    : undefined;
};

const utcIso = (value: string) => new Date(value).toISOString();

export const listPosts: Handler<'listPosts'> = async ({ cred, data, query }) => {
  if (query.accountId && !(await data.accounts.get(query.accountId))) throw notFound('account', query.accountId);
  const limit = query.limit ?? 50;
  const page = await data.posts.list({
    status: query.status,
    accountId: query.accountId,
    limit: limit + 1,
    from: query.from ? utcIso(query.from) : undefined,
    to: query.to ? utcIso(query.to) : undefined,
    q: query.q,
    cursor: query.cursor ? readCursor(query.cursor, postsPosition) : undefined,
  });
  const last = page.length > limit ? page[limit - 1]! : undefined;
  return {
    status: 200,
    body: {
      posts: page.slice(0, limit).map((p) => wirePost(p, cred.workspace.tz)),
      nextCursor: last ? writeCursor([last.publishAt, last.id]) : null,
    },
  };
};

async function existingPost(data: WorkspaceData, postId: string): Promise<PostRecord> {
  const post = await data.posts.get(postId);
  if (!post) throw notFound('post', postId);
  return post;
}

export const getPost: Handler<'getPost'> = async ({ cred, data, params }) => ({
  status: 200,
  body: wirePost(await existingPost(data, params.postId), cred.workspace.tz),
});

export const listPostEvents: Handler<'listPostEvents'> = async ({ data, params }) => {
  await existingPost(data, params.postId);
  return { status: 200, body: { events: await data.posts.events(params.postId) } };
};

/** The state table's refusals, as 409 invalid_state in the table's words. */
async function inStateTable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof PostStateRefused) throw invalidState(err.message, err.hint);
    throw err;
  }
}

/** A person's action through the state table. */
async function transition(
  data: WorkspaceData,
  postId: string,
  action: PersonAction,
  decide: DecideChange,
): Promise<PostRecord> {
  const post = await inStateTable(() => data.posts.transition(postId, action, decide));
  if (!post) throw notFound('post', postId);
  return post;
}

/** Cancel: a queued post becomes a draft again (also used when its account is disconnected). */
export function cancelToDraft(why = 'Cancelled') {
  const message = `${why}: the post is a draft again and its place in the month was given back.`;
  return { patch: { publishAt: null, quotaMonth: null }, events: [{ kind: 'cancelled' as const, message }] };
}

export const cancelPost: Handler<'cancelPost'> = async ({ cred, data, params, body }) => {
  if (body?.confirm !== true) throw confirmRequired('Cancelling a post', 'cancelPost');
  const post = await transition(data, params.postId, 'cancel', () => cancelToDraft());
  return { status: 200, body: wirePost(post, cred.workspace.tz) };
};

export const retryPost: Handler<'retryPost'> = async ({ cred, data, params, body, services }) => {
  if (body?.confirm !== true) throw confirmRequired('Retrying a post', 'retryPost');
  const current = await existingPost(data, params.postId);
  const account = await data.accounts.get(current.accountId);
  const post = await transition(data, params.postId, 'retry', (p) => {
    if (account?.status !== 'ok') {
      throw new ApiError(
        409,
        'account_not_ok',
        `Account ${account?.displayName ?? p.accountId} is ${account?.status}; retrying would fail again.`,
        'A person must reconnect the account in the dashboard, then retry.',
      );
    }
    const now = isoNow(services.clock);
    return {
      patch: { publishAt: now, error: null },
      events: [{ kind: 'retried', message: 'Retried by a person: sent again now.', publishAt: now }],
    };
  });
  return { status: 200, body: wirePost(post, cred.workspace.tz) };
};

type EditBody = RequestBody<'reschedulePost'>;

/** The request fields that change a post's content, and how a timeline sentence names each stored field. */
const EDIT_FIELDS = ['text', 'title', 'tags', 'mediaIds', 'perPlatform', 'overrides'] as const;
const CONTENT_NAMES: Record<keyof ContentPatch, string> = {
  text: 'the text',
  title: 'the title',
  tags: 'the tags',
  mediaIds: 'the files',
  perPlatform: 'the settings',
};

/** A post is one account's: settings or overrides for another network would be silently lost. */
function assertOwnNetwork(post: PostRecord, body: EditBody): void {
  for (const field of ['perPlatform', 'overrides'] as const) {
    const other = Object.keys(body[field] ?? {}).find((network) => network !== post.platform);
    if (other)
      throw invalidRequest(
        `\`${field}.${other}\`: post ${post.id} goes to ${post.platform}; only \`${field}.${post.platform}\` applies.`,
      );
  }
}

/** The time the post is checked at: the new one; else a queued post's own (not checked again), now for a failed one. */
function checkedWhen(post: PostRecord, body: EditBody, now: number): When | ResolvedWhen {
  if (body.when !== undefined) return body.when as When;
  if (post.status === 'queued' && post.publishAt)
    return { kind: 'at', at: DateTime.fromISO(post.publishAt, { zone: 'utc' }), issues: [], notes: [] };
  return post.status === 'failed' ? { kind: 'now', at: DateTime.fromMillis(now, { zone: 'utc' }) } : 'draft';
}

/** The stored fields an edit changes, from the planned row (overrides applied, the network's defaults added). */
function contentChanges(post: PostRecord, row: PlannedRow, mediaIds: string[]): ContentPatch {
  const next: Required<ContentPatch> = { ...row.content, mediaIds };
  const changed = (Object.keys(CONTENT_NAMES) as (keyof ContentPatch)[]).filter(
    (field) => JSON.stringify(next[field]) !== JSON.stringify(post[field]),
  );
  return Object.fromEntries(changed.map((field) => [field, next[field]]));
}

const editedEvent = (patch: ContentPatch): NewEvent => {
  const names = (Object.keys(patch) as (keyof ContentPatch)[]).map((field) => CONTENT_NAMES[field]);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  return { kind: 'edited', message: `Changed ${list}.` };
};

/**
 * Edit or reschedule (`PATCH /posts/{postId}`): new content, a new time, or both. Confirm is needed where the
 * post is or becomes queued; the post is planned again with what it will carry, and a draft is saved as it is.
 */
export const reschedulePost: Handler<'reschedulePost'> = async (ctx) => {
  const { cred, data, params, body, via, services } = ctx;
  const timed = body.when !== undefined;
  const editing = EDIT_FIELDS.some((field) => body[field] !== undefined);
  if (!timed && !editing)
    throw invalidRequest(
      'Give `when`, or at least one of `text`, `title`, `tags`, `mediaIds`, `perPlatform` and `overrides`.',
    );
  // A new time always queues the post: confirm is asked before anything is read, as it always was.
  if (timed && body.confirm !== true) throw confirmRequired('Rescheduling a post', 'reschedulePost');
  const current = await existingPost(data, params.postId);
  const action = timed ? 'reschedule' : 'edit';
  // Refused before the content is checked: a live post (or a failed one given a time) is never planned again.
  const refused = refusal({ id: current.id, state: current.status }, action);
  if (refused) throw invalidState(refused.message, refused.hint);
  if (current.status === 'queued' && body.confirm !== true)
    throw confirmRequired('Changing a queued post', 'reschedulePost');
  assertOwnNetwork(current, body);
  const { platform } = current;
  const asks = needsApproval(cred, via);
  // Asked again by one whose changes need approval, a queued post's waiting change grows: its fields are the start.
  const base = asks && current.pendingChange ? { ...current, ...changedContent(current.pendingChange) } : current;
  const mediaIds = body.mediaIds ?? base.mediaIds;
  // `queue`: the account's next free posting time, its own time free for it; taken again under the lock below.
  const queue = body.when === 'queue';
  const now = DateTime.fromMillis(services.clock.now(), { zone: 'utc' });
  const edited = {
    targets: { accountIds: [current.accountId] },
    mediaIds,
    text: body.text ?? base.text,
    title: body.title ?? base.title ?? undefined,
    tags: body.tags ?? base.tags,
    perPlatform: { [platform]: body.perPlatform?.[platform] ?? base.perPlatform },
    overrides: body.overrides,
    when: queue
      ? await queueTimes(data, cred.workspace.tz, now, [current.accountId], current.id)
      : checkedWhen(current, body, now.toMillis()),
  };
  const { rows, month, accounts, files } = await prepare(cred, data, services, edited);
  assertSettingFiles(edited, files);
  const row = rows[0]!;
  // A draft staying a draft is saved as it is (its checks run when it gets a time); what is sent must pass.
  if (!row.ok && (timed || current.status !== 'draft')) throw checksFailed(rows, 'edit');
  const content = contentChanges(current, row, mediaIds);
  if (!timed && Object.keys(content).length === 0) return { status: 200, body: wirePost(current, cred.workspace.tz) };
  // While it waits for approval, or changed by one whose posts need it, a draft waits (again): only an approval in the
  // dashboard queues it. A failed post too: a retry would send what no approver saw (issue 41). A queued post keeps
  // its time and approved content, the change waiting beside it; changed by an approver, it changes at once.
  const { approval } = current;
  const waits =
    (approval?.state === 'pending' && current.status === 'draft') ||
    (asks && (timed || current.status !== 'draft' || approval?.state === 'rejected'));
  if (waits) return askAgain(ctx, current, row, content);
  const post = await transition(data, params.postId, action, async (p, counts) => {
    assertUnchanged(p, current);
    const fromDraft = p.status === 'draft';
    if (timed && fromDraft) assertMonthQuota(cred.workspace.plan, await counts.monthUsed(month), 1);
    const publishAt = queue ? await counts.queueTime(cred.workspace.tz) : row.publishAt;
    if (timed && !publishAt) throw checksFailed([{ ...row, ok: false, issues: [queueEmpty(accounts[0]!)] }], 'edit');
    const events: NewEvent[] = Object.keys(content).length ? [editedEvent(content)] : [];
    if (timed) {
      events.push({ kind: 'rescheduled', publishAt });
      if (fromDraft) events.push({ kind: 'queued', publishAt });
    }
    const time = timed ? { publishAt, ...(fromDraft ? { quotaMonth: month } : {}) } : {};
    return { patch: { ...content, ...time }, events };
  });
  return { status: 200, body: wirePost(post, cred.workspace.tz) };
};

/** Planned on the post as read: a change meanwhile (another edit, an attempt, a decision) voids that plan. */
function assertUnchanged(p: PostRecord, read: PostRecord): void {
  if (p.status !== read.status || p.updatedAt !== read.updatedAt)
    throw invalidState(`Post ${p.id} changed to ${p.status} meanwhile.`, 'Read the post and decide again.');
}

/**
 * The change that makes `current` wait for approval (again), as the post was read: a draft with `content`, asking
 * for `wanted` (null: as soon as approved); a failed post becomes such a draft and gives its place in the month back.
 * A queued post stays as it is, at its time, with `content` and `wanted` (undefined: its own time) waiting beside it.
 */
function approvalWait(
  cred: Credential,
  clock: Clock,
  current: PostRecord,
  content: ContentPatch,
  wanted: string | null | undefined,
): { action: PersonAction; decide: DecideChange } {
  if (current.status === 'queued')
    return {
      action: 'awaitApproval',
      decide: (p) => {
        assertUnchanged(p, current);
        const pendingChange: StoredChange = { ...content, ...(wanted !== undefined ? { publishAt: wanted } : {}) };
        const time = wanted === undefined ? p.publishAt : wanted;
        return {
          patch: { approval: pendingApproval(cred.user.id, isoNow(clock), time), pendingChange },
          events: [approvalRequestedEvent(time)],
        };
      },
    };
  const wasCounted = current.status !== 'draft';
  return {
    action: 'awaitApproval',
    decide: (p) => {
      assertUnchanged(p, current);
      const events: NewEvent[] = Object.keys(content).length ? [editedEvent(content)] : [];
      if (wasCounted)
        events.push({
          kind: 'cancelled',
          message:
            'Changed by someone whose posts need approval: the post is a draft again until it is approved, ' +
            'and its place in the month was given back.',
        });
      events.push(approvalRequestedEvent(wanted ?? null));
      const approval = pendingApproval(cred.user.id, isoNow(clock), wanted ?? null);
      const leaves = wasCounted ? { publishAt: null, quotaMonth: null, error: null } : {};
      return { patch: { ...content, ...leaves, approval }, events };
    },
  };
}

/** An edit that makes the post wait for approval: a draft with the edit, asking for the time given or wanted before. */
async function askAgain(
  { cred, data, params, body, services, afterCommit }: Parameters<Handler<'reschedulePost'>>[0],
  current: PostRecord,
  row: PlannedRow,
  content: ContentPatch,
) {
  // What waits must pass as a queued post would: the approver approves it as it is.
  if (!row.ok) throw checksFailed([row], 'edit');
  // A failed post asks to be sent as soon as approved, as a retry would send it now; a queued one keeps the time its
  // waiting change asks, or its own.
  const waiting = current.pendingChange;
  const wanted =
    body.when === undefined
      ? current.status === 'failed'
        ? null
        : current.status === 'queued'
          ? waiting?.publishAt
          : (current.approval?.wantedAt ?? current.publishAt)
      : body.when === 'now'
        ? null
        : row.publishAt;
  const { action, decide } = approvalWait(cred, services.clock, current, content, wanted);
  const post = await transition(data, params.postId, action, decide);
  afterCommit(() => mailApprovers(services, cred, [post]));
  return { status: 200 as const, body: wirePost(post, cred.workspace.tz) };
}

/**
 * Swaps the times of two queued posts, both or neither (`POST /posts/swap-times`, the dashboard's queue reordered):
 * each is checked at the other's time, then both change in one transaction; a caller whose changes need approval
 * makes both wait for it, each wanting the other's time.
 */
export const swapPostTimes: Handler<'swapPostTimes'> = async ({ cred, data, body, via, services, afterCommit }) => {
  if (body.confirm !== true) throw confirmRequired('Swapping the times of two posts', 'swapPostTimes');
  const pair = await Promise.all(body.postIds.map((id) => existingPost(data, id)));
  for (const post of pair) {
    const refused = refusal({ id: post.id, state: post.status }, 'reschedule');
    if (refused) throw invalidState(refused.message, refused.hint);
    if (post.status !== 'queued')
      throw invalidState(`Post ${post.id} is ${post.status}; only queued posts swap times.`, 'Give it a time first.');
  }
  const now = DateTime.fromMillis(services.clock.now(), { zone: 'utc' });
  const times = pair.map((p) => p.publishAt!).reverse();
  const rows = await Promise.all(
    pair.map(async (post, i) => {
      const at = DateTime.fromISO(times[i]!, { zone: 'utc' });
      const when = {
        kind: 'at' as const,
        at,
        issues: timeIssues(at, now, cred.workspace.tz, 'The new time'),
        notes: [],
      };
      return (await replanned(cred, data, services, post, when)).row;
    }),
  );
  if (rows.some((r) => !r.ok)) throw checksFailed(rows, 'edit');
  const waits = needsApproval(cred, via);
  const changes = pair.map((current, i) => {
    const publishAt = times[i]!;
    if (waits) return { id: current.id, ...approvalWait(cred, services.clock, current, {}, publishAt) };
    return {
      id: current.id,
      action: 'reschedule' as const,
      decide: (p: PostRecord) => {
        assertUnchanged(p, current);
        return { patch: { publishAt }, events: [{ kind: 'rescheduled' as const, publishAt }] };
      },
    };
  });
  const swapped = await inStateTable(() => data.posts.transitionTogether(changes));
  if (!swapped) throw notFound('post', body.postIds.join(' or '));
  if (waits) afterCommit(() => mailApprovers(services, cred, swapped));
  return { status: 200, body: { posts: swapped.map((p) => wirePost(p, cred.workspace.tz)) } };
};

const notAwaiting = (post: PostRecord) =>
  invalidState(
    `Post ${post.id} is not awaiting approval.`,
    'Read the approvals again: someone may have decided it already, or it was edited meanwhile.',
  );

/** A stored post planned again as it is, at `when`: its row and the month it would count in. */
async function replanned(
  cred: Credential,
  data: WorkspaceData,
  services: Services,
  post: PostRecord,
  when: ResolvedWhen,
) {
  const { rows, month } = await prepare(cred, data, services, {
    targets: { accountIds: [post.accountId] },
    mediaIds: post.mediaIds,
    text: post.text,
    title: post.title ?? undefined,
    tags: post.tags,
    perPlatform: { [post.platform]: post.perPlatform },
    when,
  });
  return { row: rows[0]!, month };
}

/** Whether `post` waits for a decision: a draft awaiting approval, or a queued post's change. */
const awaitsDecision = (post: PostRecord) =>
  post.approval?.state === 'pending' && (post.status === 'draft' || (post.status === 'queued' && !!post.pendingChange));

/**
 * The time an approval queues a post at: `picked` by the approver, else `wanted` (null: now). A time wanted that has
 * passed asks the approver for one.
 */
function approvedWhen(cred: Credential, postId: string, now: DateTime, picked?: DateTime, wanted?: string | null) {
  const chosen = picked ?? (wanted ? DateTime.fromISO(wanted, { zone: 'utc' }) : undefined);
  if (!chosen) return { kind: 'now' as const, at: now };
  const at = chosen.toUTC();
  const issues = timeIssues(at, now, cred.workspace.tz, picked ? 'publishAt' : 'The time wanted');
  if (issues.length && !picked)
    throw new ApiError(
      409,
      'approval_time_passed',
      `The time wanted for post ${postId}, ${formatInZone(at, cred.workspace.tz)}, has passed.`,
      'Pick a new time (at least 2 minutes ahead) and approve the post at it.',
    );
  return { kind: 'at' as const, at, issues, notes: [] };
}

/**
 * Approves a post awaiting approval (the dashboard's approvals page, a signed-in owner or administrator): it is
 * checked again and queued at the time wanted, or at `publishAt` when the approver picks one; a time wanted that has
 * passed asks for one. It counts toward the month now. A queued post's waiting change is applied instead. `seen`,
 * the post's `updatedAt` as the page showed it: a post edited since (asking again) is not approved, for nothing an
 * approver did not see may go out (issue 41).
 */
export async function approvePost(
  cred: Credential,
  data: WorkspaceData,
  services: Services,
  postId: string,
  { publishAt, seen }: { publishAt?: DateTime; seen?: string },
): Promise<PostRecord> {
  const current = await existingPost(data, postId);
  if (!awaitsDecision(current)) throw notAwaiting(current);
  if (seen !== undefined && seen !== current.updatedAt)
    throw invalidState(
      `Post ${postId} changed after it was read for approval; nothing was approved.`,
      'Read the approvals again, and decide on the post as it is now.',
    );
  const now = DateTime.fromMillis(services.clock.now(), { zone: 'utc' });
  if (current.pendingChange) return approveChange(cred, data, services, current, now, publishAt);
  const when = approvedWhen(cred, postId, now, publishAt, current.approval!.wantedAt);
  const { row, month } = await replanned(cred, data, services, current, when);
  if (!row.ok) throw checksFailed([row], 'edit');
  return transition(data, postId, 'reschedule', async (p, counts) => {
    assertUnchanged(p, current);
    assertMonthQuota(cred.workspace.plan, await counts.monthUsed(month), 1);
    return {
      patch: { publishAt: row.publishAt, quotaMonth: month, approval: null },
      events: [
        { kind: 'approved', message: `Approved by ${cred.user.name}.` },
        { kind: 'queued', publishAt: row.publishAt },
      ],
      audit: { userId: cred.user.id, action: 'post.approved', detail: approvalDetail(p, row.publishAt) },
    };
  });
}

/**
 * Applies a queued post's waiting change, checked again as the post will be: its content, and its time (now, the
 * time it asks or the approver picks; else the post keeps its own, not checked again). The post stays counted.
 */
async function approveChange(
  cred: Credential,
  data: WorkspaceData,
  services: Services,
  current: PostRecord,
  now: DateTime,
  picked?: DateTime,
) {
  const change = current.pendingChange!;
  const content = changedContent(change);
  const moves = picked !== undefined || 'publishAt' in change;
  const when: ResolvedWhen = moves
    ? approvedWhen(cred, current.id, now, picked, change.publishAt)
    : { kind: 'at', at: DateTime.fromISO(current.publishAt!, { zone: 'utc' }), issues: [], notes: [] };
  const { row } = await replanned(cred, data, services, { ...current, ...content }, when);
  if (!row.ok) throw checksFailed([row], 'edit');
  return transition(data, current.id, moves ? 'reschedule' : 'edit', (p) => {
    assertUnchanged(p, current);
    const events: NewEvent[] = [{ kind: 'approved', message: `Approved by ${cred.user.name}: the change is applied.` }];
    if (Object.keys(content).length) events.push(editedEvent(content));
    if (moves) events.push({ kind: 'rescheduled', publishAt: row.publishAt });
    return {
      patch: { ...content, ...(moves ? { publishAt: row.publishAt } : {}), approval: null, pendingChange: null },
      events,
      audit: {
        userId: cred.user.id,
        action: 'post.approved',
        detail: { ...approvalDetail(p, row.publishAt), change: true },
      },
    };
  });
}

/**
 * Rejects a post awaiting approval: it stays a draft, with the approver's comment. A queued post's waiting change
 * is dropped: the post stays as it was, at its time.
 */
export function rejectPost(
  cred: Credential,
  data: WorkspaceData,
  clock: Clock,
  postId: string,
  comment: string | null,
): Promise<PostRecord> {
  return transition(data, postId, 'edit', (p) => {
    if (!awaitsDecision(p)) throw notAwaiting(p);
    const audit = { userId: cred.user.id, action: 'post.rejected' as const };
    if (p.pendingChange) {
      const dropped = `Rejected by ${cred.user.name}: the change was dropped and the post stays as it was`;
      return {
        patch: { approval: null, pendingChange: null },
        events: [{ kind: 'rejected', message: `${dropped}${comment ? `. Comment: ${comment}` : '.'}` }],
        audit: { ...audit, detail: { ...approvalDetail(p, p.publishAt), comment, change: true } },
      };
    }
    const decidedAt = isoNow(clock);
    return {
      patch: { approval: { ...p.approval!, state: 'rejected', decidedBy: cred.user.id, decidedAt, comment } },
      events: [{ kind: 'rejected', message: `Rejected by ${cred.user.name}${comment ? `: ${comment}` : '.'}` }],
      audit: { ...audit, detail: { ...approvalDetail(p, null), comment } },
    };
  });
}

const approvalDetail = (p: PostRecord, publishAt: string | null) => ({
  platform: p.platform,
  account: p.accountName,
  text: p.text.slice(0, 80),
  requestedBy: p.approval?.requesterName,
  ...(publishAt ? { publishAt } : {}),
});

export const deletePost: Handler<'deletePost'> = async ({ cred, data, params, query }) => {
  await existingPost(data, params.postId);
  if (query.confirm !== true) throw confirmRequired(`Deleting post ${params.postId}`, 'deletePost');
  const removed = await inStateTable(() =>
    data.posts.remove(params.postId, cred.user, (post) => wirePost(post, cred.workspace.tz)),
  );
  if (!removed) throw notFound('post', params.postId);
  return { status: 200, body: { id: params.postId, deleted: true } };
};
