// The thumbnails of the files posts use, from the library's pages (newest first, 100 a page) instead of one request
// per file: a busy month uses a few dozen files, and one request each would spend the address's rate limit.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, call } from '../api.ts';

/** Pages read at most: files older than the newest 500 show no picture on the calendar. */
const MAX_PAGES = 5;

export function useThumbnails(mediaIds: string[]): Map<string, string> {
  const wanted = [...new Set(mediaIds)].sort();
  const found = useQuery({
    queryKey: ['media', 'thumbnails', wanted],
    enabled: wanted.length > 0,
    placeholderData: (previous) => previous,
    queryFn: async () => {
      const missing = new Set(wanted);
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
  return useMemo(() => new Map(found.data ?? []), [found.data]);
}
