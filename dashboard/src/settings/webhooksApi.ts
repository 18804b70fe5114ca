// The webhooks of the contract (/v1/webhooks, administrators and the owner, Studio plan and up): the queries the
// Webhooks page and the Settings banner share, and a webhook address refusal in the page's own words.
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, Failure, type Schemas } from '../api.ts';

export type Webhook = Schemas['Webhook'];
export type WebhookWithSecret = Schemas['WebhookWithSecret'];

const WEBHOOKS_KEY = ['settings', 'webhooks'] as const;
const deliveriesKey = (webhookId: string) => [...WEBHOOKS_KEY, webhookId, 'deliveries'];

export const useWebhooks = (enabled = true) =>
  useQuery({
    queryKey: WEBHOOKS_KEY,
    queryFn: () => call(api.GET('/webhooks')).then((d) => d.webhooks),
    enabled,
    retry: false,
  });

/** A delivery due within this long is being sent or retried soon: the log looks again until it settles. */
const SOON_MS = 60_000;
const LOOK_AGAIN_MS = 2000;

/** The webhook's delivery log, newest first, a page at a time; it refreshes while a delivery is due soon. */
export const useDeliveries = (webhookId: string) =>
  useInfiniteQuery({
    queryKey: deliveriesKey(webhookId),
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

/** After a change: the webhook's log when given, else everything (the list, the Settings banner and the logs). */
export function useRefreshWebhooks() {
  const client = useQueryClient();
  return (webhookId?: string) =>
    client.invalidateQueries({ queryKey: webhookId ? deliveriesKey(webhookId) : WEBHOOKS_KEY });
}

/** Runs a webhook change; an address refusal is said as a webhook's (words/words.ts), not as a download's. */
export async function webhookCall<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>) {
  try {
    return await call(pending);
  } catch (err) {
    if (err instanceof Failure && err.code === 'url_not_allowed')
      throw new Failure('webhook_url_not_allowed', err.message, err.hint, err.status, err.body);
    throw err;
  }
}
