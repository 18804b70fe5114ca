// Idempotent writes: a mutating request that carries `Idempotency-Key` does its work at most once per key and
// workspace within 24 hours. The key is claimed before the handler runs (db/idempotencyKeys.ts); the handler's
// writes go through a deferred transaction (db/deferredTransaction.ts) that stays open until the answer is stored
// in it, so the change and the answer a retry replays commit together. What is kept: any answer of a request that
// began to run, success or refusal (4xx), as Stripe does; not a fault (5xx) nor a rate limit (429), which give the
// key back so that the retry runs afresh. Requests refused before they run (authentication, the contract's
// validation) store nothing.
import { createHash } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import { deferredTransaction } from '../db/deferredTransaction.ts';
import { CLAIM_RENEW_EVERY_MS, CLAIM_RENEWED_AT_MOST_MS, type IdempotencyKeys } from '../db/idempotencyKeys.ts';
import { ApiError } from '../domain/errors.ts';
import type { AfterCommit } from '../handlers/types.ts';
import type { ApiResponse } from './apiResponse.ts';

export const KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** A running request with the key is usually done within a second. */
const RETRY_AFTER_SECONDS = 1;

export const keyInUse = () =>
  new ApiError(
    409,
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still running; nothing was done for this one.',
    `Wait ${RETRY_AFTER_SECONDS} second (Retry-After), then send the same request with the same key again: ` +
      'it answers what the first request answered.',
    {},
    { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  );

export const keyReused = () =>
  new ApiError(
    422,
    'idempotency_key_reused',
    'This Idempotency-Key was used in the last 24 hours for another request (another body, path or operation); ' +
      'nothing was done.',
    'Make a new key for each intended change; send a key again only to retry the very same request.',
  );

/** JSON with object keys sorted: the same fields in another order are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests the same: the operation, its path parameters and query, and the body. */
export function requestFingerprint(operationId: string, params: unknown, query: unknown, body: unknown): string {
  return createHash('sha256')
    .update(canonical([operationId, params, query, body ?? null]))
    .digest('hex');
}

export interface KeyedCall {
  keys: IdempotencyKeys;
  key: string;
  fingerprint: string;
  operationId: string;
  db: Db;
  /** The wire form of a refusal, as the key stores it. */
  render(err: ApiError): ApiResponse;
  /**
   * Runs the handler on `db` (writes join one transaction); `afterCommit` work runs once they are committed.
   */
  run(db: Db, afterCommit: (work: AfterCommit) => void): Promise<ApiResponse>;
  /** How often the claim is renewed while `run` goes on, and for how long at most (a test makes them short). */
  renewal?: { everyMs: number; forMs: number };
}

/** Runs a request under its key: once, or the stored answer again, or the refusal that says why not. */
export async function runWithKey(call: KeyedCall): Promise<ApiResponse> {
  const { keys, key } = call;
  const claim = await keys.claim(key, call.fingerprint, call.operationId);
  if (claim.kind === 'reused') throw keyReused();
  if (claim.kind === 'in_use') throw keyInUse();
  if (claim.kind === 'replay') {
    const { answer } = claim;
    return { status: answer.status, body: answer.body, headers: { ...answer.headers, [REPLAYED_HEADER]: 'true' } };
  }
  // The claim's lease is short, so a crashed process's key frees soon: a request that runs long keeps renewing it
  // (a stuck one for CLAIM_RENEWED_AT_MOST_MS). A renewal that fails is left to the next; a claim taken over
  // meanwhile makes this request's write roll back.
  const { everyMs, forMs } = call.renewal ?? { everyMs: CLAIM_RENEW_EVERY_MS, forMs: CLAIM_RENEWED_AT_MOST_MS };
  const began = Date.now();
  const renewing = setInterval(() => {
    if (Date.now() - began > forMs) clearInterval(renewing);
    else void keys.renew(key, claim.token).catch(() => undefined);
  }, everyMs);
  try {
    return await runClaimed(call, claim.token);
  } finally {
    clearInterval(renewing);
  }
}

async function runClaimed(call: KeyedCall, token: string): Promise<ApiResponse> {
  const { keys, key } = call;
  const deferred = deferredTransaction(call.db);
  const committed: AfterCommit[] = [];
  let answer: ApiResponse;
  try {
    answer = await call.run(deferred.db, (work) => committed.push(work));
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500 || err.status === 429) {
      await deferred.opened()?.rollback();
      await keys.release(key, token);
      throw err;
    }
    answer = call.render(err);
  }
  const trx = deferred.opened();
  try {
    const stored = { status: answer.status, body: answer.body, headers: answer.headers ?? {} };
    if (!(await keys.finish(trx ?? call.db, key, token, stored))) throw keyInUse();
    // knex's commit() resolves even when COMMIT fails (a cut connection, a deferred constraint): the failure comes
    // through the transaction's own promise. Answered without it, a request said "created" for what never was.
    // The claim stays: if the COMMIT did land, the retry replays its answer; if not, it runs once the lease lapses.
    await trx?.commit();
    await trx?.executionPromise;
  } catch (err) {
    await trx?.rollback();
    throw err;
  }
  for (const work of committed) await work();
  return answer;
}
