// Read posts: the list (filtered, paged by cursor), one post, and its timeline.
import { readCursor, writeCursor } from '../../domain/cursor.ts';
import { invalidRequest, notFound } from '../../domain/errors.ts';
import type { Handler } from '../types.ts';
import { existingPost } from './transitions.ts';
import { wirePost } from './wire.ts';

/** A posts cursor: [publishAt or null, id]. */
const postsPosition = (position: unknown) => {
  const [publishAt, id] = Array.isArray(position) ? (position as unknown[]) : [];
  return (publishAt === null || typeof publishAt === 'string') && typeof id === 'string'
    ? { publishAt, id }
    : undefined;
};

const utcIso = (value: string) => new Date(value).toISOString();

export const listPosts: Handler<'listPosts'> = async ({ cred, data, query }) => {
  const from = query.from ? utcIso(query.from) : undefined;
  const to = query.to ? utcIso(query.to) : undefined;
  // An empty range is a mistake in the request, not a question whose answer is "no posts".
  if (from && to && to <= from)
    throw invalidRequest(
      `\`to\` (${to}) must be later than \`from\` (${from}).`,
      'Give `to` an instant after `from`, or leave one of them out.',
      { field: 'to', limit: from, actual: to },
    );
  if (query.accountId && !(await data.accounts.get(query.accountId))) throw notFound('account', query.accountId);
  const limit = query.limit ?? 50;
  const page = await data.posts.list({
    status: query.status,
    accountId: query.accountId,
    limit: limit + 1,
    from,
    to,
    q: query.q,
    cursor: query.cursor ? readCursor(query.cursor, postsPosition) : undefined,
  });
  const last = page.length > limit ? page[limit - 1]! : undefined;
  return {
    status: 200,
    body: {
      posts: page.slice(0, limit).map((p) => wirePost(p, cred.workspace.tz)),
      nextCursor: last ? writeCursor([last.publishAt, last.id]) : null,
    },
  };
};

export const getPost: Handler<'getPost'> = async ({ cred, data, params }) => ({
  status: 200,
  body: wirePost(await existingPost(data, params.postId), cred.workspace.tz),
});

export const listPostEvents: Handler<'listPostEvents'> = async ({ data, params }) => {
  await existingPost(data, params.postId);
  return { status: 200, body: { events: await data.posts.events(params.postId) } };
};
