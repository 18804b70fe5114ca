// Token upkeep: every worker (so every instance, on either database) renews the tokens that near their network's
// limits (networks/tokenLife.ts), so an account that posts nothing for months stays connected. A renewal the network
// refuses makes the account `expired` (or `revoked`) at once, with its `account.needs_reconnect` event and a mail to
// the workspace's owners and administrators, long before a post to it would fail. Two instances never renew one token
// twice: each renewal is claimed on the account's row first (db/accountTokens.ts).
import {
  claimRenewal,
  refuseRenewal,
  renewalClaim,
  storeRenewal,
  unclaimedTokens,
  type StoredToken,
} from '../db/accountTokens.ts';
import { renewedCredentials } from '../networks/accountCredentials.ts';
import { NetworkError, readCredentials, type Connector } from '../networks/connector.ts';
import { connectorFor } from '../networks/connectors.ts';
import { accountStatusAfter } from '../networks/failureGuidance.ts';
import type { Platform } from '../networks/rules.ts';
import { renewalDue, TOKEN_LIFE } from '../networks/tokenLife.ts';
import { isoAt } from '../runtime/clock.ts';
import type { Services } from '../runtime/services.ts';
import { mailReconnect } from './reconnectMail.ts';

/** How often each worker looks for tokens to renew. */
export const UPKEEP_EVERY_MS = 10 * 60_000;

const PLATFORMS = Object.keys(TOKEN_LIFE) as Platform[];

/** One upkeep pass: renews every token due, each by one instance only. */
export async function renewTokens(services: Services): Promise<{ renewed: number; refused: number }> {
  const { db, clock } = services;
  const counts = { renewed: 0, refused: 0 };
  const now = clock.now();
  for (const token of await unclaimedTokens(db, PLATFORMS, isoAt(now))) {
    const connector = connectorFor(token.platform, services.config, clock);
    if (!connector?.refresh || !renewalDue(TOKEN_LIFE[token.platform]!, token, now)) continue;
    const claim = renewalClaim(now);
    if (!(await claimRenewal(db, token, claim, isoAt(now)))) continue;
    const outcome = await renew(services, connector, token, claim);
    if (outcome) counts[outcome] += 1;
  }
  return counts;
}

async function renew(
  services: Services,
  connector: Connector,
  token: StoredToken,
  claim: string,
): Promise<'renewed' | 'refused' | undefined> {
  const { db, clock, keyring, logger } = services;
  const { id, externalId, displayName } = token;
  const credentials = readCredentials(keyring.decrypt(token.tokenSealed));
  try {
    const renewed = await renewedCredentials(connector, { id, externalId, displayName, credentials });
    const sealed = keyring.encrypt(JSON.stringify(renewed));
    const stored = await storeRenewal(
      db,
      token,
      claim,
      { sealed, expiresAt: renewed.expiresAt ?? null },
      isoAt(clock.now()),
    );
    return stored ? 'renewed' : undefined;
  } catch (err) {
    const status = err instanceof NetworkError ? accountStatusAfter(err.kind) : undefined;
    // A network out of reach or busy: the claim lapses and the renewal is tried again then.
    if (!status) {
      logger.warn({ err, accountId: id }, 'a token renewal failed; it is tried again later');
      return undefined;
    }
    if (!(await refuseRenewal(db, token, claim, status, isoAt(clock.now())))) return undefined;
    logger.warn({ err, accountId: id }, `the network refused to renew a token: the account is ${status}`);
    await mailReconnect(services, token, (err as Error).message);
    return 'refused';
  }
}
