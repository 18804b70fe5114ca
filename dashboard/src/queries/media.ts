// The media library: a folder's files (paged), the thumbnails the calendar shows, and one file by id (compose's
// picked files and the previews read the same entries, which events about the file refresh).
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { api, call, type Media } from '../api.ts';

export const mediaKeys = {
  all: ['media'] as const,
  /** The library's pages and the calendar's thumbnails: what a new, changed or deleted file changes. */
  lists: ['media', 'list'] as const,
  folder: (folderId: string | undefined) => ['media', 'list', 'folder', folderId ?? 'all'] as const,
  thumbnails: (mediaIds: string[]) => ['media', 'list', 'thumbnails', mediaIds] as const,
  one: (mediaId: string) => ['media', 'one', mediaId] as const,
};

/** The files of a folder (or of every folder), 48 a page. */
export const mediaPagesQuery = (folderId: string | undefined) =>
  infiniteQueryOptions({
    queryKey: mediaKeys.folder(folderId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/media', {
          params: {
            query: { ...(folderId ? { folderId } : {}), ...(pageParam ? { cursor: pageParam } : {}), limit: 48 },
          },
        }),
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useMediaPages = (folderId: string | undefined) => useInfiniteQuery(mediaPagesQuery(folderId));

/** Pages read at most: files older than the newest 500 show no picture on the calendar. */
const MAX_PAGES = 5;

/**
 * The thumbnail addresses of `mediaIds` (sorted, no twice), from the library's pages (newest first, 100 a page)
 * instead of one request per file: a busy month uses a few dozen files, and one request each would spend the
 * address's rate limit.
 */
export const thumbnailsQuery = (mediaIds: string[]) =>
  queryOptions({
    queryKey: mediaKeys.thumbnails(mediaIds),
    enabled: mediaIds.length > 0,
    placeholderData: (previous) => previous,
    queryFn: async () => {
      const missing = new Set(mediaIds);
      const urls: [string, string][] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES && missing.size > 0; page++) {
        const query = { limit: 100, ...(cursor ? { cursor } : {}) };
        const { media, nextCursor } = await call(api.GET('/media', { params: { query } }));
        for (const m of media) {
          if (!missing.delete(m.id)) continue;
          if (m.thumbnailUrl) urls.push([m.id, m.thumbnailUrl]);
        }
        if (!nextCursor) break;
        cursor = nextCursor;
      }
      return urls;
    },
  });

export const mediaItemQuery = (mediaId: string) =>
  queryOptions({
    queryKey: mediaKeys.one(mediaId),
    queryFn: () => call(api.GET('/media/{mediaId}', { params: { path: { mediaId } } })),
  });

export const useMediaItem = (mediaId: string) => useQuery(mediaItemQuery(mediaId));

/** The files in the order given; each is undefined until it has loaded. */
export function useMediaItems(ids: readonly string[]): (Media | undefined)[] {
  return useQueries({ queries: ids.map(mediaItemQuery), combine: (results) => results.map((r) => r.data) });
}
