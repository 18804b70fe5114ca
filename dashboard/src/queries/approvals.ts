// The posts that wait for an owner's or administrator's decision (GET /auth/approvals).
import { queryOptions } from '@tanstack/react-query';
import { auth } from '../api.ts';
import type { ApprovalList } from '../settings/settingsApi.ts';

export const approvalKeys = { all: ['approvals'] as const };

export const approvalListQuery = () =>
  queryOptions({ queryKey: approvalKeys.all, queryFn: () => auth<ApprovalList>('GET', '/approvals') });
