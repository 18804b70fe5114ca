// A refused delete names the posts that hold the file. The refusal (409 media_in_use) gives their ids only, so
// they are looked up (one GET each, a handful at most) and named by their first words and network.
import { api, call, Failure, type Post } from '../api.ts';
import { labelOf } from '../networks.ts';

const EXCERPT = 40;

/** A post as a person recognises it: "“Autumn sale: 30% off…” (Instagram, draft)". */
export function postName(post: Pick<Post, 'text' | 'title' | 'platform' | 'status'>): string {
  const words = (post.title || post.text).trim().replace(/\s+/g, ' ');
  // Cut at a word's end, so the name never ends mid-word.
  const excerpt = words.length > EXCERPT ? `${words.slice(0, EXCERPT + 1).replace(/\s*\S*$/, '')}…` : words;
  return `${excerpt ? `“${excerpt}”` : 'A post without text'} (${labelOf(post.platform)}, ${post.status})`;
}

/** The media_in_use refusal with the file's and the posts' names in its body; any other error as it was. */
export async function namedInUse(err: unknown, filename: string): Promise<unknown> {
  if (!(err instanceof Failure) || err.code !== 'media_in_use') return err;
  const ids = [...new Set(err.message.match(/\bpst_\w+/g) ?? [])];
  const found = await Promise.all(
    ids.map((postId) => call(api.GET('/posts/{postId}', { params: { path: { postId } } })).catch(() => undefined)),
  );
  const posts = found
    .filter((p): p is Post => Boolean(p))
    .map((p) => ({ name: postName(p), href: `/app/posts/${p.id}` }));
  return new Failure(err.code, err.message, err.hint, err.status, { ...err.body, file: filename, posts });
}
