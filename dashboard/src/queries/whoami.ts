// The workspace's plan and this month's usage as the public API reports them (GET /whoami): the storage meter.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, call } from '../api.ts';

export const whoamiKeys = { all: ['whoami'] as const };

export const whoamiQuery = () => queryOptions({ queryKey: whoamiKeys.all, queryFn: () => call(api.GET('/whoami')) });

export const useWhoami = () => useQuery(whoamiQuery());
