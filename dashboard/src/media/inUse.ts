// A refused delete names the posts that hold the file. The refusal (409 media_in_use) lists them by id (`posts`), so
// they are looked up (one GET each) and named by their first words and network, grouped by account (the account of
// the newest post first), newest first within each, so a long list still reads.
import { type Account, api, call, Failure, type Post } from '../api.ts';
import { labelOf } from '../networks.ts';

const EXCERPT = 40;

/** A post as a person recognises it: "“Autumn sale: 30% off…” (Instagram, draft)". */
export function postName(post: Pick<Post, 'text' | 'title' | 'platform' | 'status'>): string {
  const words = (post.title || post.text).trim().replace(/\s+/g, ' ');
  // Cut at a word's end, so the name never ends mid-word.
  const excerpt = words.length > EXCERPT ? `${words.slice(0, EXCERPT + 1).replace(/\s*\S*$/, '')}…` : words;
  return `${excerpt ? `“${excerpt}”` : 'A post without text'} (${labelOf(post.platform)}, ${post.status})`;
}

/** One account's posts that hold the file, for the refusal's words. */
export interface InUseGroup {
  account: string;
  posts: { name: string; href: string }[];
}

/** The posts by account, newest first within each, the account of the newest post first. */
export function groupInUse(posts: Post[], accounts: Pick<Account, 'id' | 'displayName'>[]): InUseGroup[] {
  const groups = new Map<string, InUseGroup>();
  for (const p of [...posts].sort((a, b) => b.createdAt.localeCompare(a.createdAt))) {
    const name = accounts.find((a) => a.id === p.accountId)?.displayName;
    const account = name ? `${name} (${labelOf(p.platform)})` : labelOf(p.platform);
    const group = groups.get(p.accountId) ?? { account, posts: [] };
    group.posts.push({ name: postName(p), href: `/app/posts/${p.id}` });
    groups.set(p.accountId, group);
  }
  return [...groups.values()];
}

/** The media_in_use refusal with the file's name and the posts' names, by account, in its body; others as they were. */
export async function namedInUse(
  err: unknown,
  filename: string,
  accounts: Pick<Account, 'id' | 'displayName'>[],
): Promise<unknown> {
  if (!(err instanceof Failure) || err.code !== 'media_in_use') return err;
  const ids = ((err.body.posts ?? []) as { id: string }[]).map((p) => p.id);
  const found = await Promise.all(
    ids.map((postId) => call(api.GET('/posts/{postId}', { params: { path: { postId } } })).catch(() => undefined)),
  );
  const groups = groupInUse(
    found.filter((p): p is Post => Boolean(p)),
    accounts,
  );
  return new Failure(err.code, err.message, err.hint, err.status, { ...err.body, file: filename, groups });
}
