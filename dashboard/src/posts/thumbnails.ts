// The thumbnails of the files posts use (queries/media.ts reads them from the library's pages), by file id.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { thumbnailsQuery } from '../queries/media.ts';

export function useThumbnails(mediaIds: string[]): Map<string, string> {
  const found = useQuery(thumbnailsQuery([...new Set(mediaIds)].sort()));
  return useMemo(() => new Map(found.data ?? []), [found.data]);
}
