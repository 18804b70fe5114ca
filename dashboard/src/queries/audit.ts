// The audit trail, newest first, 50 events a page (GET /auth/audit).
import { infiniteQueryOptions } from '@tanstack/react-query';
import { auth } from '../api.ts';
import type { AuditTrailPage } from '../settings/settingsApi.ts';

export const auditKeys = { all: ['audit'] as const };

export const auditTrailQuery = () =>
  infiniteQueryOptions({
    queryKey: auditKeys.all,
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      auth<AuditTrailPage>('GET', `/audit?limit=50${pageParam ? `&before=${encodeURIComponent(pageParam)}` : ''}`),
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });
