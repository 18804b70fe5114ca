// What a webhook may point at and how its secrets are made and kept: the media import's address guard
// (media/fromUrl.ts) with WEBHOOK_ALLOW_HOSTS as its exemptions, and Standard Webhooks secrets sealed with the keyring.
import { randomBytes } from 'node:crypto';
import dns from 'node:dns/promises';
import net from 'node:net';
import { invalidRequest } from '../domain/errors.ts';
import { nonPublicRange } from '../domain/publicAddress.ts';
import { guardedUrl, UrlNotAllowed, type FetchPolicy } from '../media/fromUrl.ts';
import type { Config } from './config.ts';
import type { Keyring } from './crypto.ts';

const REFUSAL_HINT = 'Give a public https address of your server that accepts POST requests.';
/** How long creating a webhook waits for DNS before it saves the name unchecked (each send checks it anyway). */
const LOOKUP_WAIT_MS = 3000;

export function webhookPolicy(config: Config): FetchPolicy {
  return {
    allowHosts: config.webhooks.allowHosts,
    // A test receiver on a loopback port speaks plain http; a real one never may.
    httpForExempt: true,
    refusalHint: REFUSAL_HINT,
  };
}

/**
 * The webhook's address, if the guard accepts it (else url_not_allowed): no user name or password (every key that
 * reads the webhook would see them), and a host name must not resolve to a non-public address now. A name that does
 * not resolve yet is kept: each send checks it again, at the connection.
 */
export async function checkWebhookUrl(text: string, config: Config): Promise<string> {
  const policy = webhookPolicy(config);
  const url = guardedUrl(text, policy);
  if (url.username || url.password)
    throw invalidRequest(
      'url: carries a user name or password; a webhook address may not (every key that reads webhooks would see it).',
      'Remove the user name and password from the address: every delivery is signed with the webhook secret, so ' +
        'your server can verify deliveries without them.',
    );
  // Without a final dot: some resolvers answer `localhost` and not `localhost.`, the same name.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (net.isIP(host) || policy.allowHosts.includes(host)) return url.href;
  const found = await Promise.race([
    dns.lookup(host, { all: true }).catch(() => []),
    new Promise<{ address: string }[]>((resolve) => setTimeout(() => resolve([]), LOOKUP_WAIT_MS).unref()),
  ]);
  if (found.some((a) => nonPublicRange(a.address))) throw new UrlNotAllowed(url.href, notPublic(host), REFUSAL_HINT);
  return url.href;
}

/** Why a host is refused, without the address it resolved to (which would map the server's own network). */
const notPublic = (host: string) => `names a host that is not public (${host} resolves to a non-public address)`;

/**
 * What the delivery log says of an address refused at send time: that its host is not public, never the address it
 * resolved or connected to.
 */
export const refusedSend = (url: string): string => new UrlNotAllowed(url, notPublic(new URL(url).hostname)).message;

/** `whsec_` and base64 of 32 random bytes: the form Standard Webhooks libraries take (24 to 64 bytes). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export const sealWebhookSecret = (keyring: Keyring, secret: string) => keyring.encrypt(secret, 'webhook-secrets');
export const openWebhookSecret = (keyring: Keyring, sealed: string) => keyring.decrypt(sealed, 'webhook-secrets');
