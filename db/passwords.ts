// Password resets (single-use, one hour) and the sessions a password change ends.
import type { Unusable } from '../domain/errors.ts';
import { newId } from '../domain/ids.ts';
import type { Db } from './connect.ts';
import { setPasswordHash } from './identity.ts';
import { nowIso } from './rows.ts';

export const RESET_MINUTES = 60;

export async function createPasswordReset(db: Db, userId: string): Promise<{ id: string; expiresAt: string }> {
  const now = nowIso();
  const reset = { id: newId('rst'), expiresAt: new Date(Date.parse(now) + RESET_MINUTES * 60_000).toISOString() };
  await db('password_resets').insert({ id: reset.id, user_id: userId, created_at: now, expires_at: reset.expiresAt });
  return reset;
}

/** Why a reset link cannot be used: in words that complete "This password reset link …", and as a fact. */
export interface ResetUnusable {
  unusable: string;
  why: Unusable;
}

function whyUnusable(row: { used_at: string | null; expires_at: string } | undefined, now: string) {
  if (!row) return { unusable: 'does not exist', why: 'missing' } as const;
  if (row.used_at) return { unusable: 'was already used', why: 'used' } as const;
  if (row.expires_at <= now)
    return { unusable: `expired (links last ${RESET_MINUTES} minutes)`, why: 'expired' } as const;
  return undefined;
}

/** Whether a reset link can still set the password, asked before the person types a new one. */
export async function resetUsable(db: Db, resetId: string): Promise<{ expiresAt: string } | ResetUnusable> {
  const row = await db('password_resets').where({ id: resetId }).first();
  return whyUnusable(row, nowIso()) ?? { expiresAt: row.expires_at as string };
}

/**
 * Sets the new password through a reset link, once: the link is used up, every other link of the person
 * stops working, and every session of theirs ends.
 */
export function resetPassword(
  db: Db,
  resetId: string,
  passwordHash: string,
): Promise<{ userId: string } | ResetUnusable> {
  return db.transaction(async (trx) => {
    const now = nowIso();
    const row = await trx('password_resets').where({ id: resetId }).first();
    const unusable = whyUnusable(row, now);
    if (unusable) return unusable;
    await trx('password_resets').where({ user_id: row.user_id }).whereNull('used_at').update({ used_at: now });
    await setPasswordHash(trx, row.user_id, passwordHash);
    await trx('sessions').where({ user_id: row.user_id }).delete();
    return { userId: row.user_id as string };
  });
}

/** Ends every session of the person but the one they are using. */
export async function endOtherSessions(db: Db, userId: string, keepSessionId: string): Promise<number> {
  return db('sessions').where({ user_id: userId }).whereNot({ id: keepSessionId }).delete();
}
