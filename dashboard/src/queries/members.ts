// The workspace's members, pending invitations and seats (GET /auth/members).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';

export const memberKeys = { all: ['members'] as const };

export const memberListQuery = () =>
  queryOptions({ queryKey: memberKeys.all, queryFn: () => call(authApi.GET('/members')) });

export const useMembers = () => useQuery(memberListQuery());
