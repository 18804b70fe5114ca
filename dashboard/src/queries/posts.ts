// Posts: the lists (searched and filtered, the calendar's ranges, an account's queue), one post, its timeline and
// its counters. Every list sits under `postKeys.lists`, so an event or a change refetches them without refetching
// each post shown on its own page.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, call, type Post, type PostQuery } from '../api.ts';

export const postKeys = {
  /** Every post query: lists, posts, timelines, counters. */
  all: ['posts'] as const,
  lists: ['posts', 'list'] as const,
  searches: ['posts', 'list', 'search'] as const,
  search: (query: PostQuery) => [...postKeys.searches, query] as const,
  calendars: ['posts', 'list', 'calendar'] as const,
  calendar: (range: { from: string; to: string }) => [...postKeys.calendars, range] as const,
  queues: ['posts', 'list', 'queue'] as const,
  queue: (accountId: string) => [...postKeys.queues, accountId] as const,
  /** A post and its timeline. */
  one: (postId: string) => ['posts', 'one', postId] as const,
  events: (postId: string) => [...postKeys.one(postId), 'events'] as const,
  analytics: (postId: string) => ['posts', 'analytics', postId] as const,
};

/** The list page: posts matching `query`, newest first, a page at a time. */
export const postSearchQuery = (query: PostQuery) =>
  infiniteQueryOptions({
    queryKey: postKeys.search(query),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(api.GET('/posts', { params: { query: { ...query, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** Every post with a time in [from, to), all pages. */
async function postsBetween(from: string, to: string): Promise<Post[]> {
  const out: Post[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(
      api.GET('/posts', { params: { query: { from, to, limit: 100, ...(cursor ? { cursor } : {}) } } }),
    );
    out.push(...page.posts);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/** The calendar's range; the range shown keeps showing while the next one loads. */
export const calendarQuery = (range: { from: string; to: string }) =>
  queryOptions({
    queryKey: postKeys.calendar(range),
    queryFn: () => postsBetween(range.from, range.to),
    placeholderData: (previous) => previous,
  });

/** An account's queued posts of the coming `days` days (its queue page). */
export const queuedPostsQuery = (accountId: string, days: number) =>
  queryOptions({
    queryKey: postKeys.queue(accountId),
    queryFn: async () => {
      const from = new Date().toISOString();
      const to = new Date(Date.now() + (days + 1) * 86_400_000).toISOString();
      const query = { accountId, status: 'queued' as const, from, to, limit: 100 };
      return (await call(api.GET('/posts', { params: { query } }))).posts;
    },
  });

export const postQuery = (postId: string) =>
  queryOptions({
    queryKey: postKeys.one(postId),
    queryFn: () => call(api.GET('/posts/{postId}', { params: { path: { postId } } })),
  });

export const postEventsQuery = (postId: string) =>
  queryOptions({
    queryKey: postKeys.events(postId),
    queryFn: () => call(api.GET('/posts/{postId}/events', { params: { path: { postId } } })).then((d) => d.events),
  });

export const postAnalyticsQuery = (postId: string) =>
  queryOptions({
    queryKey: postKeys.analytics(postId),
    queryFn: () => call(api.GET('/posts/{postId}/analytics', { params: { path: { postId } } })),
  });
