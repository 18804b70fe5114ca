// The connected accounts: the list (the Accounts page, compose, the calendar's filters, the reconnect banner), and
// what one account answers about itself (how many posts a disconnect sends back to draft, TikTok's posting options).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, authApi, call } from '../api.ts';

export const accountKeys = {
  all: ['accounts'] as const,
  /** The list alone: account events refetch it without touching each account's own answers. */
  list: ['accounts', 'list'] as const,
  one: (accountId: string) => ['accounts', 'one', accountId] as const,
  disconnect: (accountId: string) => [...accountKeys.one(accountId), 'disconnect'] as const,
  postingOptions: (accountId: string) => [...accountKeys.one(accountId), 'posting-options'] as const,
};

export const accountListQuery = () =>
  queryOptions({
    queryKey: accountKeys.list,
    queryFn: () => call(api.GET('/accounts')).then((d) => d.accounts),
  });

export const useAccounts = () => useQuery(accountListQuery());

/** How many queued posts disconnecting the account sends back to draft. */
export const disconnectPreviewQuery = (accountId: string) =>
  queryOptions({
    queryKey: accountKeys.disconnect(accountId),
    queryFn: () => call(authApi.GET('/accounts/{accountId}/disconnect', { params: { path: { accountId } } })),
  });

/** TikTok's creator_info for the account as the plan reads it; asked again after five minutes at most. */
export const postingOptionsQuery = (accountId: string) =>
  queryOptions({
    queryKey: accountKeys.postingOptions(accountId),
    queryFn: () => call(api.GET('/accounts/{accountId}/posting-options', { params: { path: { accountId } } })),
    staleTime: 5 * 60_000,
    retry: false,
  });
