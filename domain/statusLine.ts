// The one sentence an agent reports for a post (the spec's reporting rule), in the workspace zone.
import { formatInZone } from './when.ts';

export type PostStatus = 'draft' | 'queued' | 'live' | 'failed';

export interface StatusLineFacts {
  status: PostStatus;
  network: string;
  accountName: string;
  /** ISO instant: the publish time (queued, failed) or when it went live. */
  at: string | null;
  errorMessage?: string | null;
  /** A queued post the worker tries again after a temporary failure: when. */
  nextAttemptAt?: string | null;
  /** A queued post the network took and is still reviewing (TikTok's moderation): since when. */
  reviewSince?: string | null;
  /** A live post the network shows otherwise than it chose (TikTok's private posts): the network's sentence. */
  liveNote?: string | null;
  /** A live post the network shows to its account only (an unaudited YouTube project's upload). */
  shownPrivately?: boolean;
  /** A draft's approval: pending (with the time wanted, null for as soon as approved) or rejected. */
  approval?: { state: 'pending' | 'rejected'; wantedAt: string | null; comment: string | null } | null;
  /** A queued post's change waiting for approval: the time it asks (null: now; absent: keeps), whether it edits. */
  pendingChange?: { publishAt?: string | null; edits: boolean } | null;
}

/** What a queued post's waiting change asks, and that the post stays as it is until it is approved. */
function changeWaiting(change: NonNullable<StatusLineFacts['pendingChange']>, when: string, zone: string): string {
  const asks = [
    change.publishAt === null ? 'publish it now' : undefined,
    change.publishAt ? `move it to ${formatInZone(Date.parse(change.publishAt), zone)}` : undefined,
    change.edits ? 'change its content' : undefined,
  ].filter(Boolean);
  const until = `until it is approved the post stays as it is, at ${when}`;
  return `A request to ${asks.join(' and ')} waits for approval; ${until}.`;
}

export function statusLine(post: StatusLineFacts, zone: string): string {
  const head = `${post.network} · ${post.accountName}`;
  const when = post.at ? formatInZone(Date.parse(post.at), zone) : null;
  switch (post.status) {
    case 'draft': {
      const approval = post.approval;
      if (approval?.state === 'pending') {
        const wanted = approval.wantedAt
          ? `wanted for ${formatInZone(Date.parse(approval.wantedAt), zone)}`
          : 'wanted as soon as it is approved';
        return `Draft, awaiting approval. ${head} · ${wanted}.`;
      }
      if (approval?.state === 'rejected')
        return `Draft, rejected. ${head} · no time set.${approval.comment ? ` Comment: ${approval.comment}` : ''}`;
      return `Draft. ${head} · no time set.`;
    }
    case 'queued': {
      if (post.reviewSince) {
        const since = formatInZone(Date.parse(post.reviewSince), zone);
        const network = post.network;
        const review = `In ${network}'s review since ${since}; it goes live once ${network} publishes it.`;
        return `Queued. ${head} · ${when}. ${review}`;
      }
      if (post.pendingChange) return `Queued. ${head} · ${when}. ${changeWaiting(post.pendingChange, when!, zone)}`;
      if (!post.nextAttemptAt) return `Queued. ${head} · ${when}.`;
      const next = formatInZone(Date.parse(post.nextAttemptAt), zone);
      return `Queued. ${head} · ${when}. Next attempt ${next}, after a temporary failure.`;
    }
    case 'live': {
      const privately = `${post.network} shows it privately: only the account sees it.`;
      const note = post.liveNote ?? (post.shownPrivately ? privately : '');
      return `Live. ${head} · ${when}.${note ? ` ${note}` : ''}`;
    }
    case 'failed':
      return `Failed. ${head} · ${when}: ${post.errorMessage ?? 'the network refused the post.'}`;
  }
}
