// One file of the library by id, cached under the key live updates refresh (liveUpdates.ts): compose's picked
// files and the previews read the same entries.
import { useQueries, useQuery } from '@tanstack/react-query';
import { api, call, type Media } from '../api.ts';

const mediaItemQuery = (id: string) => ({
  queryKey: ['media-item', id],
  queryFn: () => call(api.GET('/media/{mediaId}', { params: { path: { mediaId: id } } })),
});

export function useMediaItem(id: string) {
  return useQuery(mediaItemQuery(id));
}

/** The files in the order given; each is undefined until it has loaded. */
export function useMediaItems(ids: readonly string[]): (Media | undefined)[] {
  return useQueries({ queries: ids.map(mediaItemQuery), combine: (results) => results.map((r) => r.data) });
}
