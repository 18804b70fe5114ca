// The workspaces the signed-in person belongs to, and which one is open (GET /auth/workspaces).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';

export const workspaceKeys = { all: ['workspaces'] as const };

export const workspaceListQuery = () =>
  queryOptions({ queryKey: workspaceKeys.all, queryFn: () => call(authApi.GET('/workspaces')) });

export const useWorkspaces = () => useQuery(workspaceListQuery());
