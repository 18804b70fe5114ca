// The media library's folders.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, call } from '../api.ts';

export const folderKeys = { all: ['folders'] as const };

export const folderListQuery = () =>
  queryOptions({ queryKey: folderKeys.all, queryFn: () => call(api.GET('/folders')).then((d) => d.folders) });

export const useFolders = () => useQuery(folderListQuery());
