// The spec's retry guidance, per kind of network failure: what the person should do, and whether
// the worker retries by itself (worker/publishPost.ts decides when).
import type { FailureKind } from './connector.ts';

/** Temporary failures are retried by the worker itself; the others need a person. */
export function isTemporary(kind: FailureKind): boolean {
  return kind === 'unavailable' || kind === 'rate_limited' || kind === 'quota_exceeded';
}

export function hintFor(kind: FailureKind, network: string): string {
  switch (kind) {
    case 'token_rejected':
      return (
        `Reconnect the ${network} account in the dashboard; posts that failed on its token are then sent again by ` +
        'themselves.'
      );
    case 'permission_missing':
      return (
        `Reconnect the ${network} account and grant every permission it asks for; posts that failed on them ` +
        'are then sent again by themselves.'
      );
    case 'quota_exceeded':
      return (
        `${network}'s daily quota was still spent after Herald's retries (each waits for the quota to reset). ` +
        `Retry the post after the next reset.`
      );
    case 'rate_limited':
      return (
        `${network}'s own limit was still reached after Herald's retries (each waits for the window ${network} ` +
        `names, or 1, 5 and 15 minutes); retry the post the next day.`
      );
    case 'unverified':
      return `Verify the ${network} channel by phone, then retry the post.`;
    case 'unavailable':
      return `${network} had a server error; Herald retried after 1, 5 and 15 minutes. Retry the post later.`;
    case 'rejected':
      return `Change the file or field ${network} names, then retry; sending the same post again fails again.`;
  }
}

/** What an expired or revoked token does to the account: a person must reconnect it. */
export function accountStatusAfter(kind: FailureKind): 'expired' | 'revoked' | undefined {
  if (kind === 'token_rejected') return 'expired';
  if (kind === 'permission_missing') return 'revoked';
  return undefined;
}
