// A post as the API answers it, in answers and in events (handlers/events.ts).
import type { ApprovalRecord, PostRecord, StoredChange } from '../../db/postRecords.ts';
import { statusLine } from '../../domain/statusLine.ts';
import { networkOf } from '../../networks/index.ts';
import { changedContent } from './contentEdits.ts';

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

/** The statusLine's facts of a waiting change: the time it asks (absent: keeps), whether it edits the content. */
const changeFacts = (change: StoredChange | null) =>
  change && {
    ...('publishAt' in change ? { publishAt: change.publishAt } : {}),
    edits: Object.keys(changedContent(change)).length > 0,
  };

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
