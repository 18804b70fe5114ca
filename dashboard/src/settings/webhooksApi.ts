// The webhooks of the contract (/v1/webhooks): their types, the refresh after a change, and a webhook address
// refusal in the page's own words. The queries are in queries/webhooks.ts.
import { useQueryClient } from '@tanstack/react-query';
import { call, Failure, type Schemas } from '../api.ts';
import { webhookKeys } from '../queries/webhooks.ts';

export type Webhook = Schemas['Webhook'];
export type WebhookWithSecret = Schemas['WebhookWithSecret'];

/** After a change: the webhook's log when given, else everything (the list, the Settings banner and the logs). */
export function useRefreshWebhooks() {
  const client = useQueryClient();
  return (webhookId?: string) =>
    client.invalidateQueries({ queryKey: webhookId ? webhookKeys.deliveries(webhookId) : webhookKeys.all });
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
