// The workspace's API keys and what the plan lets a key do (GET /auth/keys).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';

export const apiKeyKeys = { all: ['keys'] as const };

export const apiKeyListQuery = () =>
  queryOptions({ queryKey: apiKeyKeys.all, queryFn: () => call(authApi.GET('/keys')) });

export const useKeys = () => useQuery(apiKeyListQuery());
