// Edit or reschedule a post (PATCH /posts/{postId}): new content, a new time, or both.
import { DateTime } from 'luxon';
import type { NewEvent } from '../../db/postEvents.ts';
import type { ContentPatch, PostRecord } from '../../db/postRecords.ts';
import type { DecideChange } from '../../db/postWrites.ts';
import type { Credential } from '../../domain/credential.ts';
import { needsApproval } from '../../domain/approvals.ts';
import { confirmRequired, invalidRequest } from '../../domain/errors.ts';
import { queueEmpty, type PlannedRow } from '../../domain/planPosts.ts';
import { type PersonAction, refusal } from '../../domain/postStates.ts';
import { assertMonthQuota } from '../../domain/quotas.ts';
import type { ResolvedWhen, When } from '../../domain/when.ts';
import type { Clock } from '../../runtime/clock.ts';
import { mailApprovers } from '../approvalMail.ts';
import type { Handler, RequestBody } from '../types.ts';
import { approvalWait } from './approvals.ts';
import { changedContent, contentChanges, editedEvent } from './contentEdits.ts';
import { assertSettingFiles, checksFailed, prepare, queueTimes } from './planning.ts';
import { assertUnchanged, existingPost, refusedByState, transition } from './transitions.ts';
import { wirePost } from './wire.ts';

/** What PATCH takes; a move of several posts at once (handlers/posts/moves.ts) gives its time already resolved. */
export type EditBody = Omit<RequestBody<'reschedulePost'>, 'when'> & {
  when?: RequestBody<'reschedulePost'>['when'] | ResolvedWhen;
};

/** The request fields that change a post's content. */
const EDIT_FIELDS = ['text', 'title', 'tags', 'mediaIds', 'perPlatform', 'overrides'] as const;

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
  if (body.when !== undefined) return body.when;
  if (post.status === 'queued' && post.publishAt)
    return { kind: 'at', at: DateTime.fromISO(post.publishAt, { zone: 'utc' }), issues: [], notes: [] };
  return post.status === 'failed' ? { kind: 'now', at: DateTime.fromMillis(now, { zone: 'utc' }) } : 'draft';
}

/**
 * Edit or reschedule (`PATCH /posts/{postId}`): new content, a new time, or both. Confirm is needed where the
 * post is or becomes queued; the post is planned again with what it will carry, and a draft is saved as it is.
 */
export const reschedulePost: Handler<'reschedulePost'> = async (ctx) => {
  const { cred, data, params, body, services, afterCommit } = ctx;
  const timed = body.when !== undefined;
  const editing = EDIT_FIELDS.some((field) => body[field] !== undefined);
  if (!timed && !editing)
    throw invalidRequest(
      'Give `when`, or at least one of `text`, `title`, `tags`, `mediaIds`, `perPlatform` and `overrides`.',
    );
  // A new time always queues the post: confirm is asked before anything is read, as it always was.
  if (timed && body.confirm !== true) throw confirmRequired('Rescheduling a post', 'reschedulePost');
  const current = await existingPost(data, params.postId);
  const change = await plannedEdit(ctx, current, body);
  if (!change) return { status: 200, body: wirePost(current, cred.workspace.tz) };
  const post = await transition(data, current.id, change.action, change.decide);
  if (change.waits) afterCommit(() => mailApprovers(services, cred, [post]));
  return { status: 200, body: wirePost(post, cred.workspace.tz) };
};

/** A change of one post as `transition` makes it, with its checked row; `waits` when the post waits for approval. */
export interface PlannedEdit {
  action: PersonAction;
  decide: DecideChange;
  row: PlannedRow;
  waits: boolean;
}

/**
 * The edit or move of `current` (as read) that `body` asks for, checked and planned, to be made by `transition`
 * (one post) or `transitionTogether` (several moved at once); undefined when the content stays as it is.
 */
export async function plannedEdit(
  { cred, data, via, services }: Pick<Parameters<Handler<'reschedulePost'>>[0], 'cred' | 'data' | 'via' | 'services'>,
  current: PostRecord,
  body: EditBody,
): Promise<PlannedEdit | undefined> {
  const timed = body.when !== undefined;
  const action = timed ? 'reschedule' : 'edit';
  // Refused before the content is checked: a live post (or a failed one given a time) is never planned again.
  const refused = refusal({ id: current.id, state: current.status }, action);
  if (refused) throw refusedByState(refused);
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
  if (!timed && Object.keys(content).length === 0) return undefined;
  // While it waits for approval, or changed by one whose posts need it, a draft waits (again): only an approval in the
  // dashboard queues it. A failed post too: a retry would send what no approver saw. A queued post keeps
  // its time and approved content, the change waiting beside it; changed by an approver, it changes at once.
  const { approval } = current;
  const waits =
    (approval?.state === 'pending' && current.status === 'draft') ||
    (asks && (timed || current.status !== 'draft' || approval?.state === 'rejected'));
  if (waits) return { ...askAgain(cred, services.clock, body, current, row, content), row, waits };
  const decide: DecideChange = async (p, counts) => {
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
    // Queued by one whose posts need no approval, a rejected draft is decided: no rejection stays on a queued post.
    const decided = timed && fromDraft && p.approval ? { approval: null } : {};
    return { patch: { ...content, ...time, ...decided }, events };
  };
  return { action, decide, row, waits };
}

/**
 * An edit that makes the post wait for approval: a draft with the edit, asking for the time given or wanted before;
 * beside a queued post, the change with the time given or its waiting change's (none: the post's own).
 */
function askAgain(
  cred: Credential,
  clock: Clock,
  body: EditBody,
  current: PostRecord,
  row: PlannedRow,
  content: ContentPatch,
) {
  // What waits must pass as a queued post would: the approver approves it as it is.
  if (!row.ok) throw checksFailed([row], 'edit');
  // A failed post asks to be sent as soon as approved, as a retry would send it now.
  const wanted =
    body.when === undefined
      ? current.status === 'failed'
        ? null
        : current.status === 'queued'
          ? current.pendingChange?.publishAt
          : (current.approval?.wantedAt ?? current.publishAt)
      : body.when === 'now'
        ? null
        : row.publishAt;
  return approvalWait(cred, clock, current, content, wanted);
}
