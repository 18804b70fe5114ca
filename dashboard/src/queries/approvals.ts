// The posts that wait for an owner's or administrator's decision (GET /auth/approvals).
import { queryOptions } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';

export const approvalKeys = { all: ['approvals'] as const };

export const approvalListQuery = () =>
  queryOptions({ queryKey: approvalKeys.all, queryFn: () => call(authApi.GET('/approvals')) });
