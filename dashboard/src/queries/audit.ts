// The audit trail, newest first, 50 events a page (GET /auth/audit).
import { infiniteQueryOptions } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';

export const auditKeys = { all: ['audit'] as const };

export const auditTrailQuery = () =>
  infiniteQueryOptions({
    queryKey: auditKeys.all,
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      call(authApi.GET('/audit', { params: { query: { limit: 50, ...(pageParam ? { before: pageParam } : {}) } } })),
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });
