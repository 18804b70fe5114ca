// The workspace's webhooks (/v1/webhooks, administrators and the owner, Studio plan and up) and each one's delivery
// log. The list is shared by the Webhooks page and the Settings banner.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, call } from '../api.ts';

export const webhookKeys = {
  /** The list and every delivery log. */
  all: ['webhooks'] as const,
  list: ['webhooks', 'list'] as const,
  deliveries: (webhookId: string) => ['webhooks', 'deliveries', webhookId] as const,
};

/** A plan without webhooks answers quota_exceeded: the page says so, and it is not asked again. */
export const webhookListQuery = (enabled = true) =>
  queryOptions({
    queryKey: webhookKeys.list,
    queryFn: () => call(api.GET('/webhooks')).then((d) => d.webhooks),
    enabled,
    retry: false,
  });

export const useWebhooks = (enabled = true) => useQuery(webhookListQuery(enabled));

/** A delivery due within this long is being sent or retried soon: the log looks again until it settles. */
const SOON_MS = 60_000;
const LOOK_AGAIN_MS = 2000;

/** The webhook's delivery log, newest first, a page at a time; it refreshes while a delivery is due soon. */
export const deliveriesQuery = (webhookId: string) =>
  infiniteQueryOptions({
    queryKey: webhookKeys.deliveries(webhookId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/webhooks/{webhookId}/deliveries', {
          params: { path: { webhookId }, query: { limit: 20, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) =>
        p.deliveries.some((d) => d.status === 'pending' && Date.parse(d.nextAttemptAt ?? '') < Date.now() + SOON_MS),
      )
        ? LOOK_AGAIN_MS
        : false,
  });

export const useDeliveries = (webhookId: string) => useInfiniteQuery(deliveriesQuery(webhookId));
