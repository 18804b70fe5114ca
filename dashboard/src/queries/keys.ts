// The workspace's API keys and what the plan lets a key do (GET /auth/keys).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { auth } from '../api.ts';
import type { KeyList } from '../settings/settingsApi.ts';

export const apiKeyKeys = { all: ['keys'] as const };

export const apiKeyListQuery = () =>
  queryOptions({ queryKey: apiKeyKeys.all, queryFn: () => auth<KeyList>('GET', '/keys') });

export const useKeys = () => useQuery(apiKeyListQuery());
