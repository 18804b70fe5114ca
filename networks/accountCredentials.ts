// An account's credentials, ready for a network call: decrypted, refreshed first when the access token
// is about to expire, and the refreshed ones stored sealed. The publishing worker and analytics both
// take them from here, so neither calls a network with a token the network no longer takes.
import { claimRenewal, currentToken, releaseClaim, renewalClaim, storeRenewal } from '../db/accountTokens.ts';
import type { Db } from '../db/connect.ts';
import { isoAt, type Clock } from '../runtime/clock.ts';
import type { Keyring } from '../runtime/crypto.ts';
import {
  NetworkError,
  readCredentials,
  type AccountCredentials,
  type Connector,
  type ConnectorAccount,
} from './connector.ts';
import type { Platform } from './rules.ts';

/** Refresh an access token this long before it expires. */
export const REFRESH_AHEAD_MS = 10 * 60_000;
/** How long a call waits for the token another instance is renewing, and how often it looks. */
const CLAIM_WAIT_MS = 10_000;
const CLAIM_POLL_MS = 250;

/** A connected account as stored: its id on the network and its sealed token bundle. */
export interface StoredAccount {
  id: string;
  externalId: string;
  displayName: string;
  tokenSealed: string;
}

/**
 * The account as a connector takes it. A refresh that fails throws the connector's NetworkError; a
 * network that returns no new refresh token keeps the old one valid, so it is never lost.
 */
export async function usableAccount(
  deps: { db: Db; keyring: Keyring; clock: Clock },
  connector: Connector,
  stored: StoredAccount,
): Promise<ConnectorAccount> {
  const credentials = readCredentials(deps.keyring.decrypt(stored.tokenSealed));
  const { id, externalId, displayName } = stored;
  const account: ConnectorAccount = { id, externalId, displayName, credentials };
  const expiresAt = credentials.expiresAt ? Date.parse(credentials.expiresAt) : Infinity;
  if (!connector.refresh || expiresAt - deps.clock.now() >= REFRESH_AHEAD_MS) return account;
  account.credentials = await renewInUse(deps, connector, stored, account);
  return account;
}

/**
 * Renews the token a call is about to use under the token upkeep's claim (db/accountTokens.ts), so no two instances
 * send one refresh token (TikTok's and Bluesky's rotate: the second would be refused). While another holds the claim,
 * the call waits for the token it stores; a token stored meanwhile (renewed, or reconnected) is used as it is.
 */
async function renewInUse(
  deps: { db: Db; keyring: Keyring; clock: Clock },
  connector: Connector,
  stored: StoredAccount,
  account: ConnectorAccount,
): Promise<AccountCredentials> {
  const { db, keyring, clock } = deps;
  const renew = async (claim: string | null) => {
    const renewed = await renewedCredentials(connector, account);
    const sealed = keyring.encrypt(JSON.stringify(renewed));
    await storeRenewal(db, stored, claim, { sealed, expiresAt: renewed.expiresAt ?? null }, isoAt(clock.now()));
    return renewed;
  };
  for (let waited = 0; ; waited += CLAIM_POLL_MS) {
    const claim = renewalClaim(clock.now());
    if (await claimRenewal(db, stored, claim, isoAt(clock.now()))) {
      try {
        return await renew(claim);
      } catch (err) {
        await releaseClaim(db, stored.id, claim);
        throw err;
      }
    }
    const current = await currentToken(db, stored.id);
    if (current?.tokenSealed && current.tokenSealed !== stored.tokenSealed)
      return readCredentials(keyring.decrypt(current.tokenSealed));
    // Unclaimed yet not claimable (the account is no longer ok), or waited long enough: the network judges.
    if (!current?.claim || current.claim < isoAt(clock.now()) || waited >= CLAIM_WAIT_MS) return renew(null);
    await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
  }
}

/** The account's credentials refreshed by its connector, keeping the refresh token when the network sends none. */
export async function renewedCredentials(connector: Connector, account: ConnectorAccount): Promise<AccountCredentials> {
  const fresh = await connector.refresh!(account);
  return { ...fresh, refreshToken: fresh.refreshToken ?? account.credentials.refreshToken };
}

/**
 * OAuth's refresh_token grant, as Google and TikTok answer it: new credentials (keeping the refresh token when
 * none comes back), or the refusal as the network's failure in its own words. `client` adds the app's id and
 * secret under the network's names for them.
 */
export async function refreshGrant(
  platform: Platform,
  account: ConnectorAccount,
  post: (form: URLSearchParams) => Promise<Response>,
  client: Record<string, string>,
  clock: Clock,
): Promise<AccountCredentials> {
  const refreshToken = account.credentials.refreshToken;
  if (!refreshToken)
    throw new NetworkError(
      platform,
      'token_rejected',
      'No refresh token is stored for this account, so its access cannot be renewed.',
    );
  const res = await post(new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, ...client }));
  const body = (await res.json().catch(() => ({}))) as {
    access_token?: string;
    expires_in?: number;
    refresh_token?: string;
    error?: string;
    error_description?: string;
  };
  if (!res.ok || !body.access_token) {
    throw new NetworkError(
      platform,
      res.status >= 500 ? 'unavailable' : 'token_rejected',
      `${body.error_description ?? res.statusText} (${[res.status, body.error].filter(Boolean).join(' ')})`,
    );
  }
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token ?? refreshToken,
    ...(body.expires_in ? { expiresAt: new Date(clock.now() + body.expires_in * 1000).toISOString() } : {}),
  };
}
