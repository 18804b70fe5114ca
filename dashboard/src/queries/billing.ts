// The plan, the plans and this month's usage (GET /auth/billing); a refusal (a member) is not asked again.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { auth } from '../api.ts';
import type { Billing } from '../settings/settingsApi.ts';

export const billingKeys = { all: ['billing'] as const };

export const billingQuery = () =>
  queryOptions({ queryKey: billingKeys.all, queryFn: () => auth<Billing>('GET', '/billing'), retry: false });

export const useBilling = () => useQuery(billingQuery());
