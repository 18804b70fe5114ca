// The workspace's members, pending invitations and seats (GET /auth/members).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { auth } from '../api.ts';
import type { MemberList } from '../settings/settingsApi.ts';

export const memberKeys = { all: ['members'] as const };

export const memberListQuery = () =>
  queryOptions({ queryKey: memberKeys.all, queryFn: () => auth<MemberList>('GET', '/members') });

export const useMembers = () => useQuery(memberListQuery());
