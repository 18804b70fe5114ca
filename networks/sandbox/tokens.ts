// The tokens a sandbox network issued, kept as items of kind `token` (id: the token's secret) with when each was
// issued, when it expires and which token it was refreshed from. A simulator refuses what its network refuses (a
// refresh with an expired token, with a Threads token under a day old, with a rotated refresh token used again), and
// a test counts the refreshes a network saw. A token the simulator never issued (made by `herald account
// add-sandbox`, say) has no record and is refreshed as before: its age is unknown.
import type { SimulatorContext } from './simulator.ts';
import { sandboxToken } from './state.ts';

const KIND = 'token';

export interface TokenRecord extends Record<string, unknown> {
  issuedMs: number;
  /** Null for a token without an expiry of its own (Google's refresh tokens). */
  expiresMs: number | null;
  /** The secret of the token this one was refreshed from (null for one issued at consent). */
  from: string | null;
}

/** Why a network refuses a refresh: the token expired, is too young, or (rotated) was used already. */
export type RefreshRefusal = 'expired' | 'young' | 'used';

const secretOf = (token: string) => token.slice(token.lastIndexOf('.') + 1);

/** A new token for the account, recorded; `from` is the token presented to refresh, if any. */
export async function issueToken(
  ctx: SimulatorContext,
  kind: 'access' | 'refresh',
  account: string,
  lifeMs: number | null,
  from?: string,
): Promise<string> {
  const token = sandboxToken(kind, account);
  const now = ctx.clock.now();
  const data: TokenRecord = {
    issuedMs: now,
    expiresMs: lifeMs === null ? null : now + lifeMs,
    from: from ? secretOf(from) : null,
  };
  await ctx.state.create({ id: secretOf(token), account, kind: KIND, status: 'live', data }, ctx.db);
  return token;
}

/**
 * Whether the network refuses a refresh with `token`: expired, younger than `minimumAgeMs`, or, for a refresh token
 * that `rotates`, already used (taken here, atomically, so two refreshes at once cannot both use it).
 */
export async function refreshRefusal(
  ctx: SimulatorContext,
  token: string,
  rules: { minimumAgeMs?: number; rotates?: boolean } = {},
): Promise<RefreshRefusal | undefined> {
  const record = await ctx.state.get<TokenRecord>(secretOf(token));
  if (!record || record.kind !== KIND) return undefined;
  const now = ctx.clock.now();
  if (record.data.expiresMs !== null && now >= record.data.expiresMs) return 'expired';
  if (rules.minimumAgeMs && now - record.data.issuedMs < rules.minimumAgeMs) return 'young';
  if (!rules.rotates) return undefined;
  const taken = await ctx
    .db('sandbox_items')
    .where({ id: record.id, network: ctx.network, status: 'live' })
    .update({ status: 'used' });
  return taken ? undefined : 'used';
}
