// Approval of posts: asking for it (a draft waits; a queued post's change waits beside it), and the session-only
// operations of auth.yaml that decide it (listApprovals, approvePost, rejectPost): approving queues a draft at the
// time wanted or applies a waiting change; rejecting keeps a draft one or drops a waiting change. Only an owner or
// administrator signed in to the dashboard decides, so an approval is a person's confirmation; no API key, OAuth
// token or MCP tool reaches them.
import { DateTime } from 'luxon';
import { approvalRequestedEvent, type NewEvent } from '../../db/postEvents.ts';
import type { ContentPatch, PostRecord, StoredApproval, StoredChange } from '../../db/postRecords.ts';
import type { DecideChange } from '../../db/postWrites.ts';
import { workspaceData, type WorkspaceData } from '../../db/workspaceData.ts';
import type { Credential } from '../../domain/credential.ts';
import { ApiError, invalidRequest } from '../../domain/errors.ts';
import type { PersonAction } from '../../domain/postStates.ts';
import { assertMonthQuota } from '../../domain/quotas.ts';
import { formatInZone, parseInstant, timeIssues, type ResolvedWhen } from '../../domain/when.ts';
import { isoNow, type Clock } from '../../runtime/clock.ts';
import type { Services } from '../../runtime/services.ts';
import { mailRequester } from '../approvalMail.ts';
import type { AuthContext, AuthHandler } from '../authTypes.ts';
import { changedContent, editedEvent } from './contentEdits.ts';
import { checksFailed, replanned } from './planning.ts';
import { assertUnchanged, existingPost, invalidState, transition } from './transitions.ts';
import { wirePost } from './wire.ts';

/** A request for approval by `userId` now, for `wantedAt` (null: as soon as approved). */
export const pendingApproval = (userId: string, now: string, wantedAt: string | null): StoredApproval => ({
  state: 'pending',
  requestedBy: userId,
  requestedAt: now,
  wantedAt,
  decidedBy: null,
  decidedAt: null,
  comment: null,
});

/**
 * The change that makes `current` wait for approval (again), as the post was read: a draft with `content`, asking
 * for `wanted` (null: as soon as approved); a failed post becomes such a draft and gives its place in the month back.
 * A queued post stays as it is, at its time, with `content` and `wanted` (undefined: its own time) waiting beside it.
 */
export function approvalWait(
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
          reason: 'needsApproval',
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

const notAwaiting = (post: PostRecord) =>
  invalidState(
    `Post ${post.id} is not awaiting approval.`,
    'Read the approvals again: someone may have decided it already, or it was edited meanwhile.',
    post.status,
  );

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
 * Approves a post awaiting approval: it is
 * checked again and queued at the time wanted, or at `publishAt` when the approver picks one; a time wanted that has
 * passed asks for one. It counts toward the month now. A queued post's waiting change is applied instead. `seen`,
 * the post's `updatedAt` as the page showed it: a post edited since (asking again) is not approved, for nothing an
 * approver did not see may go out.
 */
async function approve(
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
      current.status,
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
        { kind: 'approved', message: `Approved by ${cred.user.name}.`, by: cred.user.name },
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
    const events: NewEvent[] = [
      {
        kind: 'approved',
        message: `Approved by ${cred.user.name}: the change is applied.`,
        by: cred.user.name,
        change: true,
      },
    ];
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
function reject(
  cred: Credential,
  data: WorkspaceData,
  clock: Clock,
  postId: string,
  comment: string | null,
): Promise<PostRecord> {
  return transition(data, postId, 'edit', (p) => {
    if (!awaitsDecision(p)) throw notAwaiting(p);
    const audit = { userId: cred.user.id, action: 'post.rejected' as const };
    const decided = { kind: 'rejected' as const, by: cred.user.name, ...(comment ? { comment } : {}) };
    if (p.pendingChange) {
      const dropped = `Rejected by ${cred.user.name}: the change was dropped and the post stays as it was`;
      return {
        patch: { approval: null, pendingChange: null },
        events: [{ ...decided, message: `${dropped}${comment ? `. Comment: ${comment}` : '.'}`, change: true }],
        audit: { ...audit, detail: { ...approvalDetail(p, p.publishAt), comment, change: true } },
      };
    }
    const decidedAt = isoNow(clock);
    return {
      patch: { approval: { ...p.approval!, state: 'rejected', decidedBy: cred.user.id, decidedAt, comment } },
      events: [{ ...decided, message: `Rejected by ${cred.user.name}${comment ? `: ${comment}` : '.'}` }],
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

const dataOf = ({ cred, services }: Pick<AuthContext<'listApprovals'>, 'cred' | 'services'>) =>
  workspaceData(services.db, cred.workspace, services.clock, services.jobs);

/** The drafts awaiting approval and the queued posts whose change waits, oldest request first. */
export const listApprovals: AuthHandler<'listApprovals'> = async (ctx) => {
  const posts = await dataOf(ctx).posts.pendingApprovals(200);
  return { status: 200, body: { posts: posts.map((p) => wirePost(p, ctx.cred.workspace.tz)) } };
};

/** The post's requester and whether a change of a queued post waits, read before the decision changes either. */
const requestOf = async (data: WorkspaceData, postId: string) => {
  const post = await data.posts.get(postId);
  return { requester: post?.approval?.requestedBy, change: !!post?.pendingChange };
};

/**
 * Queued at the time wanted, or at `publishAt` (a waiting change applied); only as the approver read it
 * (`updatedAt`), if they say.
 */
export const approvePost: AuthHandler<'approvePost'> = async (ctx) => {
  const { cred, params, body, services } = ctx;
  const publishAt = body.publishAt === undefined ? undefined : parseInstant(body.publishAt);
  if (body.publishAt !== undefined && !publishAt)
    throw invalidRequest(
      'publishAt must be an ISO 8601 instant with a four-digit year and its offset, such as 2026-11-24T13:30:00Z.',
      'Pick the time again and approve the post at it.',
    );
  const data = dataOf(ctx);
  const { requester, change } = await requestOf(data, params.postId);
  const post = await approve(cred, data, services, params.postId, { publishAt, seen: body.updatedAt });
  const answer = wirePost(post, cred.workspace.tz);
  if (requester)
    await mailRequester(services, cred, requester, post, { approved: true, change, statusLine: answer.statusLine });
  return { status: 200, body: answer };
};

/** It stays a draft with the comment (a waiting change is dropped, the post stays as it was). */
export const rejectPost: AuthHandler<'rejectPost'> = async (ctx) => {
  const { cred, params, body, services } = ctx;
  const data = dataOf(ctx);
  const { requester, change } = await requestOf(data, params.postId);
  const said = body.comment?.trim() || null;
  const post = await reject(cred, data, services.clock, params.postId, said);
  const answer = wirePost(post, cred.workspace.tz);
  if (requester)
    await mailRequester(services, cred, requester, post, {
      approved: false,
      change,
      statusLine: answer.statusLine,
      comment: said,
    });
  return { status: 200, body: answer };
};
