// A person's change to a stored post, through the state table (domain/postStates.ts); refusals answer 409.
import type { PostRecord } from '../../db/postRecords.ts';
import type { DecideChange } from '../../db/postWrites.ts';
import type { WorkspaceData } from '../../db/workspaceData.ts';
import { ApiError, notFound } from '../../domain/errors.ts';
import { PostStateRefused, type PersonAction, type PostState } from '../../domain/postStates.ts';

/** A refusal by the post's state, which it names as `actual` (the table's `publishing` too). */
export const invalidState = (message: string, hint: string, state: PostState) =>
  new ApiError(409, 'invalid_state', message, hint, { actual: state });

/** The state table's refusal as the answer. */
export const refusedByState = (refused: PostStateRefused) => invalidState(refused.message, refused.hint, refused.state);

export async function existingPost(data: WorkspaceData, postId: string): Promise<PostRecord> {
  const post = await data.posts.get(postId);
  if (!post) throw notFound('post', postId);
  return post;
}

/** The state table's refusals, as 409 invalid_state in the table's words. */
export async function inStateTable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof PostStateRefused) throw refusedByState(err);
    throw err;
  }
}

/** A person's action through the state table. */
export async function transition(
  data: WorkspaceData,
  postId: string,
  action: PersonAction,
  decide: DecideChange,
): Promise<PostRecord> {
  const post = await inStateTable(() => data.posts.transition(postId, action, decide));
  if (!post) throw notFound('post', postId);
  return post;
}

/** Planned on the post as read: a change meanwhile (another edit, an attempt, a decision) voids that plan. */
export function assertUnchanged(p: PostRecord, read: PostRecord): void {
  if (p.status !== read.status || p.updatedAt !== read.updatedAt)
    throw invalidState(`Post ${p.id} changed to ${p.status} meanwhile.`, 'Read the post and decide again.', p.status);
}
