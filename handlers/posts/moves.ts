// Several posts moved to new times at once (POST /posts/reschedule, the calendar's drag of one compose's posts):
// each as PATCH moves it, all in one transaction or none.
import { DateTime } from 'luxon';
import { ApiError, confirmRequired, invalidRequest, notFound } from '../../domain/errors.ts';
import { timeIssues } from '../../domain/when.ts';
import { mailApprovers } from '../approvalMail.ts';
import type { Handler } from '../types.ts';
import { checksFailedRows, wireRow } from './planning.ts';
import { type PlannedEdit, plannedEdit } from './reschedule.ts';
import { existingPost, inStateTable, invalidState } from './transitions.ts';
import { wirePost } from './wire.ts';

type Row = ReturnType<typeof wireRow>;

/**
 * Moves each post to its own new time, all or none: each post as read must still be as the caller read it
 * (`updatedAt`), each is checked and changed exactly as `PATCH /posts/{postId}` with that time would change it
 * (the wait for approval included), and the changes are written together in one transaction.
 */
export const reschedulePosts: Handler<'reschedulePosts'> = async (ctx) => {
  const { cred, data, body, services, afterCommit } = ctx;
  if (body.confirm !== true) throw confirmRequired('Moving posts', 'reschedulePosts');
  const ids = body.moves.map((m) => m.postId);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice)
    throw invalidRequest(`\`moves\` names post ${twice} twice.`, 'Give each post one move.', { field: 'moves' });
  const now = DateTime.fromMillis(services.clock.now(), { zone: 'utc' });
  const times = body.moves.map((m, i) => {
    const at = DateTime.fromISO(m.publishAt, { zone: 'utc' });
    if (!at.isValid || !/(Z|[+-]\d\d:\d\d)$/i.test(m.publishAt))
      throw invalidRequest(
        `\`moves[${i}].publishAt\` must be an instant with its offset, like 2026-12-08T13:00:00Z.`,
        undefined,
        { field: `moves[${i}].publishAt` },
      );
    return at;
  });
  const read = await Promise.all(ids.map((id) => existingPost(data, id)));
  read.forEach((post, i) => {
    if (Date.parse(post.updatedAt) !== Date.parse(body.moves[i]!.updatedAt))
      throw invalidState(
        `Post ${post.id} changed since it was read; nothing was moved.`,
        'Read the posts again and move them as they are now.',
        post.status,
      );
  });
  // One after another: the first refusal of a state answers; failed checks are gathered into one row per move.
  const planned: PlannedEdit[] = [];
  const rows: Row[] = [];
  for (const [i, post] of read.entries()) {
    const when = {
      kind: 'at' as const,
      at: times[i]!,
      issues: timeIssues(times[i]!, now, cred.workspace.tz, 'The new time'),
      notes: [],
    };
    try {
      // A move always changes the post: never undefined.
      const change = (await plannedEdit(ctx, post, { when, confirm: true }))!;
      planned.push(change);
      rows.push(wireRow(change.row));
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'checks_failed')) throw err;
      rows.push(...(err.extra.rows as Row[]));
    }
  }
  if (rows.some((r) => !r.ok)) throw checksFailedRows(rows, 'edit');
  const changes = planned.map((change, i) => ({ id: ids[i]!, ...change }));
  const moved = await inStateTable(() => data.posts.transitionTogether(changes));
  if (!moved) throw notFound('post', ids.join(' or '));
  const waiting = moved.filter((_, i) => changes[i]!.waits);
  if (waiting.length) afterCommit(() => mailApprovers(services, cred, waiting));
  return { status: 200, body: { posts: moved.map((p) => wirePost(p, cred.workspace.tz)) } };
};
