// The plan, the plans and this month's usage (GET /auth/billing); a refusal (a member) is not asked again.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';

export const billingKeys = { all: ['billing'] as const };

export const billingQuery = () =>
  queryOptions({ queryKey: billingKeys.all, queryFn: () => call(authApi.GET('/billing')), retry: false });

export const useBilling = () => useQuery(billingQuery());
