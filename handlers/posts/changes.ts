// A person's other changes to a post: cancel, retry, swap the times of two queued posts, delete.
import { DateTime } from 'luxon';
import type { PostRecord } from '../../db/postRecords.ts';
import { needsApproval } from '../../domain/approvals.ts';
import { ApiError, confirmRequired, notFound } from '../../domain/errors.ts';
import { refusal } from '../../domain/postStates.ts';
import { timeIssues } from '../../domain/when.ts';
import { isoNow } from '../../runtime/clock.ts';
import { mailApprovers } from '../approvalMail.ts';
import type { Handler } from '../types.ts';
import { approvalWait } from './approvals.ts';
import { changedContent } from './contentEdits.ts';
import { checksFailed, replanned } from './planning.ts';
import {
  assertUnchanged,
  existingPost,
  inStateTable,
  invalidState,
  refusedByState,
  transition,
} from './transitions.ts';
import { wirePost } from './wire.ts';

/** Cancel: a queued post becomes a draft again (also used when its account is disconnected). */
export function cancelToDraft(reason: 'asked' | 'accountDisconnected' = 'asked') {
  const why = reason === 'asked' ? 'Cancelled' : 'Cancelled because its account was disconnected';
  const message = `${why}: the post is a draft again and its place in the month was given back.`;
  return { patch: { publishAt: null, quotaMonth: null }, events: [{ kind: 'cancelled' as const, message, reason }] };
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

/** A queued post as its waiting change would leave it (its content; the time is the swap's). */
const withWaiting = (post: PostRecord): PostRecord =>
  post.pendingChange ? { ...post, ...changedContent(post.pendingChange) } : post;

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
    if (refused) throw refusedByState(refused);
    if (post.status !== 'queued')
      throw invalidState(
        `Post ${post.id} is ${post.status}; only queued posts swap times.`,
        'Give it a time first.',
        post.status,
      );
  }
  const now = DateTime.fromMillis(services.clock.now(), { zone: 'utc' });
  const times = pair.map((p) => p.publishAt!).reverse();
  const waits = needsApproval(cred, via);
  const rows = await Promise.all(
    pair.map(async (post, i) => {
      const at = DateTime.fromISO(times[i]!, { zone: 'utc' });
      const when = {
        kind: 'at' as const,
        at,
        issues: timeIssues(at, now, cred.workspace.tz, 'The new time'),
        notes: [],
      };
      return (await replanned(cred, data, services, waits ? withWaiting(post) : post, when)).row;
    }),
  );
  if (rows.some((r) => !r.ok)) throw checksFailed(rows, 'edit');
  const changes = pair.map((current, i) => {
    const publishAt = times[i]!;
    // A waiting change grows: the content it already asks stays in it, beside the new time.
    const waiting = current.pendingChange ? changedContent(current.pendingChange) : {};
    if (waits) return { id: current.id, ...approvalWait(cred, services.clock, current, waiting, publishAt) };
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

export const deletePost: Handler<'deletePost'> = async ({ cred, data, params, query }) => {
  await existingPost(data, params.postId);
  if (query.confirm !== true) throw confirmRequired(`Deleting post ${params.postId}`, 'deletePost');
  const removed = await inStateTable(() =>
    data.posts.remove(params.postId, cred.user, (post) => wirePost(post, cred.workspace.tz)),
  );
  if (!removed) throw notFound('post', params.postId);
  return { status: 200, body: { id: params.postId, deleted: true } };
};
