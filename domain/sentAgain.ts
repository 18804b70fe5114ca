// The posts a reconnection queued again, as the accounts page's address carries them back to the dashboard:
// `sentAgain=<postId>@<time meant for>,…`, the first ten of them (the page counts the rest from `requeued`).

/** A post queued again after its account was reconnected, and the time it was meant for (null: it had none). */
export interface SentAgain {
  postId: string;
  publishAt: string | null;
}

/** How many of the posts sent again the address names. */
export const SENT_AGAIN_NAMED = 10;

export const sentAgainParam = (posts: SentAgain[]): string =>
  posts
    .slice(0, SENT_AGAIN_NAMED)
    .map((p) => (p.publishAt ? `${p.postId}@${p.publishAt}` : p.postId))
    .join(',');

/** The posts the address names; anything that is not a post id is left out. */
export function readSentAgain(param: string | null): SentAgain[] {
  if (!param) return [];
  return param
    .split(',')
    .slice(0, SENT_AGAIN_NAMED)
    .map((item) => {
      const [postId = '', publishAt] = item.split('@');
      return { postId, publishAt: publishAt && !Number.isNaN(Date.parse(publishAt)) ? publishAt : null };
    })
    .filter((p) => /^pst_\w+$/.test(p.postId));
}
