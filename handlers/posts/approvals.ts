// Approval of posts: asking for it (a draft waits), approving (queued at the time wanted) and rejecting.
import { DateTime } from 'luxon';
import { approvalRequestedEvent, type NewEvent } from '../../db/postEvents.ts';
import type { ContentPatch, PostRecord, StoredApproval } from '../../db/postRecords.ts';
import type { DecideChange } from '../../db/postWrites.ts';
import type { WorkspaceData } from '../../db/workspaceData.ts';
import type { Credential } from '../../domain/credential.ts';
import { ApiError } from '../../domain/errors.ts';
import type { PersonAction } from '../../domain/postStates.ts';
import { assertMonthQuota } from '../../domain/quotas.ts';
import { formatInZone, timeIssues, type ResolvedWhen } from '../../domain/when.ts';
import { isoNow, type Clock } from '../../runtime/clock.ts';
import type { Services } from '../../runtime/services.ts';
import { editedEvent } from './contentEdits.ts';
import { checksFailed, replanned } from './planning.ts';
import { assertUnchanged, existingPost, invalidState, transition } from './transitions.ts';

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
 * for `wanted`; a queued or failed post becomes a draft and gives its place in the month back.
 */
export function approvalWait(
  cred: Credential,
  clock: Clock,
  current: PostRecord,
  content: ContentPatch,
  wanted: string | null,
): { action: PersonAction; decide: DecideChange } {
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
      events.push(approvalRequestedEvent(wanted));
      const approval = pendingApproval(cred.user.id, isoNow(clock), wanted);
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

/**
 * Approves a post awaiting approval (the dashboard's approvals page, a signed-in owner or administrator): it is
 * checked again and queued at the time wanted, or at `publishAt` when the approver picks one; a time wanted that has
 * passed asks for one. It counts toward the month now. `seen`, the post's `updatedAt` as the page showed it: a post
 * edited since (asking again) is not approved, for nothing an approver did not see may go out.
 */
export async function approvePost(
  cred: Credential,
  data: WorkspaceData,
  services: Services,
  postId: string,
  { publishAt, seen }: { publishAt?: DateTime; seen?: string },
): Promise<PostRecord> {
  const current = await existingPost(data, postId);
  if (current.status !== 'draft' || current.approval?.state !== 'pending') throw notAwaiting(current);
  if (seen !== undefined && seen !== current.updatedAt)
    throw invalidState(
      `Post ${postId} changed after it was read for approval; nothing was approved.`,
      'Read the approvals again, and decide on the post as it is now.',
      current.status,
    );
  const now = DateTime.fromMillis(services.clock.now(), { zone: 'utc' });
  const { wantedAt } = current.approval;
  const chosen = publishAt ?? (wantedAt ? DateTime.fromISO(wantedAt, { zone: 'utc' }) : undefined);
  let when: ResolvedWhen = { kind: 'now', at: now };
  if (chosen) {
    const at = chosen.toUTC();
    const issues = timeIssues(at, now, cred.workspace.tz, publishAt ? 'publishAt' : 'The time wanted');
    if (issues.length && !publishAt)
      throw new ApiError(
        409,
        'approval_time_passed',
        `The time wanted for post ${postId}, ${formatInZone(at, cred.workspace.tz)}, has passed.`,
        'Pick a new time (at least 2 minutes ahead) and approve the post at it.',
      );
    when = { kind: 'at', at, issues, notes: [] };
  }
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

/** Rejects a post awaiting approval: it stays a draft, with the approver's comment. */
export function rejectPost(
  cred: Credential,
  data: WorkspaceData,
  clock: Clock,
  postId: string,
  comment: string | null,
): Promise<PostRecord> {
  return transition(data, postId, 'edit', (p) => {
    if (p.status !== 'draft' || !p.approval || p.approval.state !== 'pending') throw notAwaiting(p);
    const decidedAt = isoNow(clock);
    return {
      patch: { approval: { ...p.approval, state: 'rejected', decidedBy: cred.user.id, decidedAt, comment } },
      events: [{ kind: 'rejected', message: `Rejected by ${cred.user.name}${comment ? `: ${comment}` : '.'}` }],
      audit: { userId: cred.user.id, action: 'post.rejected', detail: { ...approvalDetail(p, null), comment } },
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
