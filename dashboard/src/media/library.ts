// Queries of the media library: folders, a folder's files (paged; the event stream refreshes them), usage.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, call, type Folder } from '../api.ts';

export const useFolders = () =>
  useQuery({ queryKey: ['folders'], queryFn: () => call(api.GET('/folders')).then((d) => d.folders) });

export const useWhoami = () => useQuery({ queryKey: ['whoami'], queryFn: () => call(api.GET('/whoami')) });

/** One file by id (a post's file), shared by every view that shows it. */
export const useMediaItem = (id: string) =>
  useQuery({
    queryKey: ['media-item', id],
    queryFn: () => call(api.GET('/media/{mediaId}', { params: { path: { mediaId: id } } })),
  });

export function useMediaPages(folderId: string | undefined) {
  return useInfiniteQuery({
    queryKey: ['media', folderId ?? 'all'],
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
}

/** Folders as an indented list, parents first: "Library", "  Campaigns", "    Autumn". */
export function folderTree(folders: Folder[]): { folder: Folder; depth: number }[] {
  const out: { folder: Folder; depth: number }[] = [];
  const walk = (parentId: string | null, depth: number) => {
    for (const f of folders.filter((x) => x.parentId === parentId).sort((a, b) => a.name.localeCompare(b.name))) {
      out.push({ folder: f, depth });
      walk(f.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
