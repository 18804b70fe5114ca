// The token upkeep's reads and writes on `accounts` (worker/tokenUpkeep.ts). Every instance runs the upkeep; a
// renewal is claimed first with one conditional UPDATE on the row (compare-and-set on the sealed token, and no live
// claim), so exactly one instance calls the network with a given token: a rotating refresh token is never sent twice.
import { randomBase62 } from '../domain/ids.ts';
import type { Platform } from '../networks/rules.ts';
import { isoAt } from '../runtime/clock.ts';
import type { Db } from './connect.ts';
import { recordEvents } from './events.ts';

/**
 * How long a claim holds: a renewal not stored by then (its instance died, or the network was out of reach) is tried
 * again by whichever instance looks next. Far longer than a refresh call takes.
 */
export const CLAIM_MS = 10 * 60_000;

/** A claim made at `nowMs`: the instant it lapses (so it compares with an instant as text), then who made it. */
export const renewalClaim = (nowMs: number) => `${isoAt(nowMs + CLAIM_MS)} ${randomBase62(8)}`;

/** A connected account's token as the upkeep judges it. */
export interface StoredToken {
  id: string;
  workspaceId: string;
  platform: Platform;
  displayName: string;
  externalId: string;
  tokenSealed: string;
  expiresAt: string | null;
  /** When the token was last issued (connect or refresh); the account's creation for rows older than the column. */
  issuedAt: string;
}

/** Connected accounts of `platforms` with a token and no live claim (a claim before `now` has lapsed). */
export async function unclaimedTokens(db: Db, platforms: Platform[], now: string): Promise<StoredToken[]> {
  const rows = await db('accounts')
    .whereIn('platform', platforms)
    .where({ status: 'ok' })
    .whereNull('disconnected_at')
    .whereNotNull('token_sealed')
    .where((w) => w.whereNull('token_refresh_claim').orWhere('token_refresh_claim', '<', now))
    .select(
      'id',
      'workspace_id',
      'platform',
      'display_name',
      'external_id',
      'token_sealed',
      'token_expires_at',
      'token_refreshed_at',
      'created_at',
    );
  return rows.map((r) => ({
    id: r.id,
    workspaceId: r.workspace_id,
    platform: r.platform,
    displayName: r.display_name,
    externalId: r.external_id,
    tokenSealed: r.token_sealed,
    expiresAt: r.token_expires_at ?? null,
    issuedAt: r.token_refreshed_at ?? r.created_at,
  }));
}

/**
 * Claims the renewal of `token` until the claim's instant (it starts with it, so it compares with `now` as text):
 * false when another instance holds a live claim, or renewed or replaced the token since it was read.
 */
export async function claimRenewal(
  db: Db,
  token: Pick<StoredToken, 'id' | 'tokenSealed'>,
  claim: string,
  now: string,
): Promise<boolean> {
  const claimed = await db('accounts')
    .where({ id: token.id, status: 'ok', token_sealed: token.tokenSealed })
    .where((w) => w.whereNull('token_refresh_claim').orWhere('token_refresh_claim', '<', now))
    .update({ token_refresh_claim: claim });
  return claimed > 0;
}

/** The account's stored token and its claim, as they are now. */
export async function currentToken(
  db: Db,
  id: string,
): Promise<{ tokenSealed: string | null; claim: string | null } | undefined> {
  const row = await db('accounts').where({ id }).first('token_sealed', 'token_refresh_claim');
  return row && { tokenSealed: row.token_sealed ?? null, claim: row.token_refresh_claim ?? null };
}

/** Ends a claim whose renewal failed, so a call that needs the token may try at once. */
export async function releaseClaim(db: Db, id: string, claim: string): Promise<void> {
  await db('accounts').where({ id, token_refresh_claim: claim }).update({ token_refresh_claim: null });
}

/**
 * Stores the renewed credentials in place of the token they were renewed from, under the claim that renewed them
 * (none for a call that renewed without one), and ends the claim.
 */
export async function storeRenewal(
  db: Db,
  token: Pick<StoredToken, 'id' | 'tokenSealed'>,
  claim: string | null,
  renewed: { sealed: string; expiresAt: string | null },
  now: string,
): Promise<boolean> {
  const stored = await db('accounts')
    .where({ id: token.id, token_sealed: token.tokenSealed })
    .where((w) => (claim ? w.where({ token_refresh_claim: claim }) : w))
    .update({
      token_sealed: renewed.sealed,
      token_expires_at: renewed.expiresAt,
      token_refreshed_at: now,
      token_refresh_claim: null,
    });
  return stored > 0;
}

/**
 * The network refused the renewal: the account needs a person (`expired`, or `revoked` for a withdrawn permission),
 * with its `account.needs_reconnect` event in the same transaction. False when the row changed meanwhile.
 */
export async function refuseRenewal(
  db: Db,
  token: StoredToken,
  claim: string,
  status: 'expired' | 'revoked',
  now: string,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const changed = await trx('accounts')
      .where({ id: token.id, status: 'ok', token_sealed: token.tokenSealed, token_refresh_claim: claim })
      .update({ status, token_refresh_claim: null });
    if (changed)
      await recordEvents(
        trx,
        [{ workspaceId: token.workspaceId, type: 'account.needs_reconnect', objectId: token.id }],
        now,
      );
    return changed > 0;
  });
}
