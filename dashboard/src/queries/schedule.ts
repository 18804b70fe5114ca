// An account's posting times and the next free ones: one cache entry for its schedule page, its queue and compose.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, call } from '../api.ts';

export const scheduleKeys = {
  all: ['schedule'] as const,
  of: (accountId: string) => ['schedule', accountId] as const,
};

export const scheduleQuery = (accountId: string) =>
  queryOptions({
    queryKey: scheduleKeys.of(accountId),
    queryFn: () => call(api.GET('/accounts/{accountId}/schedule', { params: { path: { accountId } } })),
  });

export const useSchedule = (accountId: string) => useQuery(scheduleQuery(accountId));
