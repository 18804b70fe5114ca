// An account's credentials, ready for a network call: decrypted, refreshed first when the access token
// is about to expire, and the refreshed ones stored sealed. The publishing worker and analytics both
// take them from here, so neither calls a network with a token the network no longer takes.
import type { Clock } from '../runtime/clock.ts';
import type { Keyring } from '../runtime/crypto.ts';
import { readCredentials, type Connector, type ConnectorAccount } from './connector.ts';

/** Refresh an access token this long before it expires. */
export const REFRESH_AHEAD_MS = 10 * 60_000;

/** A connected account as stored: its id on the network and its sealed token bundle. */
export interface StoredAccount {
  id: string;
  externalId: string;
  displayName: string;
  tokenSealed: string;
}

/** Writes refreshed credentials (sealed) for the account, with the access token's expiry. */
export type StoreCredentials = (sealed: string, expiresAt: string | null) => Promise<void>;

/**
 * The account as a connector takes it. A refresh that fails throws the connector's NetworkError; a
 * network that returns no new refresh token keeps the old one valid, so it is never lost.
 */
export async function usableAccount(
  deps: { keyring: Keyring; clock: Clock },
  connector: Connector,
  stored: StoredAccount,
  store: StoreCredentials,
): Promise<ConnectorAccount> {
  const credentials = readCredentials(deps.keyring.decrypt(stored.tokenSealed));
  const { id, externalId, displayName } = stored;
  const account: ConnectorAccount = { id, externalId, displayName, credentials };
  const expiresAt = credentials.expiresAt ? Date.parse(credentials.expiresAt) : Infinity;
  if (!connector.refresh || expiresAt - deps.clock.now() >= REFRESH_AHEAD_MS) return account;
  const fresh = await connector.refresh(account);
  account.credentials = { ...fresh, refreshToken: fresh.refreshToken ?? credentials.refreshToken };
  await store(deps.keyring.encrypt(JSON.stringify(account.credentials)), account.credentials.expiresAt ?? null);
  return account;
}
