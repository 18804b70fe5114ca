// Groups: named sets of accounts to post to at once.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, call } from '../api.ts';

export const groupKeys = { all: ['groups'] as const };

export const groupListQuery = () =>
  queryOptions({ queryKey: groupKeys.all, queryFn: () => call(api.GET('/groups')).then((d) => d.groups) });

export const useGroups = () => useQuery(groupListQuery());
