// Posts made by one create call (one per account) shown together: grouped by their batch, in list order.
import type { Post } from '../api.ts';

/** The posts in groups of one batch each, groups in the order of their first post, posts in list order. */
export function groupByBatch<P extends Pick<Post, 'batchId'>>(posts: P[]): P[][] {
  const groups = new Map<string, P[]>();
  for (const post of posts) {
    const group = groups.get(post.batchId);
    if (group) group.push(post);
    else groups.set(post.batchId, [post]);
  }
  return [...groups.values()];
}

/**
 * A group's line. The list pages by time, so while more pages wait a group may hold more posts than those loaded:
 * the count then says it is of those shown.
 */
export function batchLabel(shown: number, morePages: boolean): string {
  return morePages ? `Created together · ${shown} posts shown, more may follow` : `Created together · ${shown} posts`;
}
