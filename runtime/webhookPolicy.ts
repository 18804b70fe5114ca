// What a webhook may point at and how its secrets are made and kept: the media import's address guard
// (media/fromUrl.ts) with WEBHOOK_ALLOW_HOSTS as its exemptions, and Standard Webhooks secrets sealed with the keyring.
import { randomBytes } from 'node:crypto';
import { guardedUrl, type FetchPolicy } from '../media/fromUrl.ts';
import type { Config } from './config.ts';
import type { Keyring } from './crypto.ts';

export function webhookPolicy(config: Config): FetchPolicy {
  return {
    allowHosts: config.webhooks.allowHosts,
    // A test receiver on a loopback port speaks plain http; a real one never may.
    httpForExempt: true,
    refusalHint: 'Give a public https address of your server that accepts POST requests.',
  };
}

/** The webhook's address, if the guard accepts it (else url_not_allowed). Names are checked again at each send. */
export function checkWebhookUrl(url: string, config: Config): string {
  return guardedUrl(url, webhookPolicy(config)).href;
}

/** `whsec_` and base64 of 32 random bytes: the form Standard Webhooks libraries take (24 to 64 bytes). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export const sealWebhookSecret = (keyring: Keyring, secret: string) => keyring.encrypt(secret, 'webhook-secrets');
export const openWebhookSecret = (keyring: Keyring, sealed: string) => keyring.decrypt(sealed, 'webhook-secrets');
