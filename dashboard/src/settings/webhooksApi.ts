// The webhooks of the contract (/v1/webhooks): their types, and a webhook address refusal in the page's own words.
// The queries are in queries/webhooks.ts.
import { call, Failure, type Schemas } from '../api.ts';

export type Webhook = Schemas['Webhook'];
export type WebhookWithSecret = Schemas['WebhookWithSecret'];

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
