// The `Idempotency-Key` rows of one workspace (migration 0019). A request first claims its key with a row
// committed at once, so a second request with that key, in this process or another, sees it; the answer then
// replaces the claim inside the request's own write transaction, on the condition that the claim is still its own.
// Answers are kept sealed: some carry a secret shown once (a webhook's, when it is made or rotated), and secrets at
// rest are sealed everywhere.
import type { Knex } from 'knex';
import { randomBase62 } from '../domain/ids.ts';
import { isoAt, type Clock } from '../runtime/clock.ts';
import type { Keyring } from '../runtime/crypto.ts';
import type { Db } from './connect.ts';

/** How long a key is kept: within this time the same key replays its answer. */
export const KEY_HOURS = 24;
/**
 * How long a claim holds its key without an answer. A process that died mid-request leaves its claim behind; after
 * this time another request with the key takes it over, so a client retrying after a crash waits this long at most.
 * A request still running renews its claim (CLAIM_RENEW_EVERY_MS); one that stalled past its lease cannot store
 * its answer (its claim is gone), so its write rolls back: the key never does two things.
 */
export const CLAIM_LEASE_MS = 10_000;
/** How often a running request renews its claim: three tries before the lease runs out. */
export const CLAIM_RENEW_EVERY_MS = 3_000;
/** A request still running after this long is stuck: it stops renewing, and a retry may take its key over. */
export const CLAIM_RENEWED_AT_MOST_MS = 5 * 60_000;

export interface StoredAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export type Claim =
  | { kind: 'claimed'; token: string }
  | { kind: 'replay'; answer: StoredAnswer }
  /** The key was used for another request (another body, path or operation). */
  | { kind: 'reused' }
  /** A request with the key is running now. */
  | { kind: 'in_use' };

/** A stored answer's text: sealed, or (a key stored before answers were sealed, 24 hours at most) plain JSON. */
function openAnswer(keyring: Keyring, stored: string): Omit<StoredAnswer, 'status'> {
  return JSON.parse(stored.startsWith('{') ? stored : keyring.decrypt(stored, 'idempotent-answers'));
}

export function idempotencyKeys(db: Db, workspaceId: string, clock: Clock, keyring: Keyring) {
  const rows = (q: Knex, key: string) => q('idempotency_keys').where({ workspace_id: workspaceId, key });

  /** Claims `key` for a request with this fingerprint, or says why not (its stored answer, reuse, in use). */
  async function claim(key: string, fingerprint: string, operationId: string): Promise<Claim> {
    // A few turns: an expired row is deleted, or a lapsed claim taken over, between two reads.
    for (let turn = 0; turn < 3; turn++) {
      const now = clock.now();
      const token = randomBase62(16);
      const lease = isoAt(now + CLAIM_LEASE_MS);
      const inserted = await db('idempotency_keys')
        .insert({
          workspace_id: workspaceId,
          key,
          fingerprint,
          operation_id: operationId,
          token,
          locked_until: lease,
          created_at: isoAt(now),
        })
        .onConflict(['workspace_id', 'key'])
        .ignore()
        .returning('token');
      if (inserted.length) return { kind: 'claimed', token };
      const row = await rows(db, key).first();
      if (!row) continue;
      if (row.created_at <= isoAt(now - KEY_HOURS * 3600_000)) {
        await rows(db, key).where('created_at', row.created_at).delete();
        continue;
      }
      if (row.fingerprint !== fingerprint) return { kind: 'reused' };
      if (row.status !== null && row.status !== undefined) {
        const { body, headers } = openAnswer(keyring, row.response);
        return { kind: 'replay', answer: { status: Number(row.status), body, headers } };
      }
      if (row.locked_until > isoAt(now)) return { kind: 'in_use' };
      const taken = await rows(db, key)
        .where({ token: row.token })
        .whereNull('status')
        .update({ token, locked_until: lease });
      if (taken) return { kind: 'claimed', token };
    }
    return { kind: 'in_use' };
  }

  return {
    claim,
    /**
     * Stores the answer in place of the claim, through `q` (the request's write transaction when it wrote).
     * False when the claim is no longer this request's (its lease lapsed and another took it over).
     */
    finish: async (q: Knex, key: string, token: string, answer: StoredAnswer): Promise<boolean> =>
      (await rows(q, key)
        .where({ token })
        .update({
          status: answer.status,
          response: keyring.encrypt(
            JSON.stringify({ body: answer.body, headers: answer.headers }),
            'idempotent-answers',
          ),
          token: null,
          locked_until: null,
        })) > 0,
    /** Extends a running request's claim by a lease from now; false when the claim is no longer its own. */
    renew: async (key: string, token: string): Promise<boolean> =>
      (await rows(db, key)
        .where({ token })
        .whereNull('status')
        .update({ locked_until: isoAt(clock.now() + CLAIM_LEASE_MS) })) > 0,
    /** Gives the key back (a fault or a rate limit): the next request with it runs afresh. */
    release: async (key: string, token: string): Promise<void> => {
      await rows(db, key).where({ token }).whereNull('status').delete();
    },
  };
}

export type IdempotencyKeys = ReturnType<typeof idempotencyKeys>;

/** Deletes the keys of every workspace older than KEY_HOURS; answers how many. */
export async function forgetExpiredKeys(db: Db, nowMs: number): Promise<number> {
  return db('idempotency_keys')
    .where('created_at', '<=', isoAt(nowMs - KEY_HOURS * 3600_000))
    .delete();
}
