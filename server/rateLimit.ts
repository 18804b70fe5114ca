// Fixed-window request counters per bucket (a client address, an email). SQLite mode runs one server process, so
// counting in memory is exact; on PostgreSQL every server process shares the counters through one table.
import type { Request, Response } from 'express';
import type { Db } from '../db/connect.ts';
import { isPostgres } from '../db/connect.ts';
import { sha256 } from '../runtime/crypto.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Counts `cost` requests (one unless a single HTTP request carries several, as an MCP batch does). */
  hit(bucket: string, now?: number, cost?: number): Promise<RateDecision>;
}

function decide(hits: number, max: number, windowStart: number, windowMs: number, now: number): RateDecision {
  return {
    allowed: hits <= max,
    limit: max,
    remaining: Math.max(0, max - hits),
    resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
  };
}

export function memoryRateLimiter(max: number, windowMs: number): RateLimiter {
  let windowStart = 0;
  let counts = new Map<string, number>();
  return {
    async hit(bucket, now = Date.now(), cost = 1) {
      const start = now - (now % windowMs);
      if (start !== windowStart) {
        windowStart = start;
        counts = new Map();
      }
      const hits = (counts.get(bucket) ?? 0) + cost;
      counts.set(bucket, hits);
      return decide(hits, max, start, windowMs, now);
    },
  };
}

/** rate_counters.bucket holds 255 characters; a longer name (a long email, say) is stored as its digest. */
const BUCKET_COLUMN_LENGTH = 255;

/**
 * Counters shared through PostgreSQL. Far below the limit each process counts locally and adds its
 * hits to the shared row every `syncMs` (one upsert per busy address, not one per request). In the
 * last tenth before the limit (at least 10 hits) every hit is added synchronously, so refusals are
 * exact across processes unless the others receive more than that margin from one address within one
 * sync interval.
 */
export function postgresRateLimiter(db: Db, max: number, windowMs: number, syncMs = 100): RateLimiter {
  // Limiters of every window length share the table: each row's bucket starts with its limiter's window length,
  // so a limiter counts and clears only its own rows, never those of a window that is still open.
  const prefix = `${windowMs}:`;
  const storedName = (bucket: string) =>
    prefix.length + bucket.length <= BUCKET_COLUMN_LENGTH ? prefix + bucket : `${prefix}sha256:${sha256(bucket)}`;
  // Within this many hits of the limit, counting turns synchronous.
  const margin = Math.max(10, Math.ceil(max / 10));
  let windowStart = 0;
  let buckets = new Map<string, Counts>();
  let timer: NodeJS.Timeout | undefined;
  interface Counts {
    shared: number;
    inFlight: number;
    pending: number;
  }

  /** Adds this bucket's pending hits to the shared row and learns everyone's total. */
  async function push(bucket: string, counts: Counts, start: number): Promise<void> {
    const adding = counts.pending;
    if (adding === 0) return;
    counts.pending = 0;
    counts.inFlight += adding;
    try {
      const { rows } = await db.raw(
        `insert into rate_counters (bucket, window_start, hits) values (?, ?, ?)
         on conflict (bucket, window_start) do update set hits = rate_counters.hits + excluded.hits
         returning hits`,
        [storedName(bucket), start, adding],
      );
      // Answers may arrive out of order; within a window the shared count only grows.
      counts.shared = Math.max(counts.shared, Number(rows[0].hits));
    } catch (err) {
      counts.pending += adding;
      throw err;
    } finally {
      counts.inFlight -= adding;
    }
  }

  async function pushAll(): Promise<void> {
    timer = undefined;
    const start = windowStart;
    for (const [bucket, counts] of buckets) await push(bucket, counts, start);
  }

  return {
    async hit(bucket, now = Date.now(), cost = 1) {
      const start = now - (now % windowMs);
      if (start !== windowStart) {
        windowStart = start;
        buckets = new Map();
        // Once per window and process: this limiter's past windows are never read again, and clearing them
        // needs no coordination between processes.
        await db('rate_counters').where('bucket', 'like', `${prefix}%`).where('window_start', '<', start).delete();
      }
      let counts = buckets.get(bucket);
      if (!counts) {
        counts = { shared: 0, inFlight: 0, pending: 0 };
        buckets.set(bucket, counts);
      }
      counts.pending += cost;
      if (counts.shared + counts.inFlight + counts.pending > max - margin) {
        await push(bucket, counts, start);
      } else {
        // A failed background push keeps its hits pending for the next one.
        if (!timer) timer = setTimeout(() => void pushAll().catch(() => undefined), syncMs).unref();
      }
      return decide(counts.shared + counts.inFlight + counts.pending, max, start, windowMs, now);
    },
  };
}

export function createRateLimiter(db: Db, max: number, windowMs: number): RateLimiter {
  return isPostgres(db) ? postgresRateLimiter(db, max, windowMs) : memoryRateLimiter(max, windowMs);
}

/** Counts `cost` requests against the client address's limit and states the limit in the answer's headers. */
export async function countAddress(limiter: RateLimiter, req: Request, res: Response, cost = 1): Promise<RateDecision> {
  const decision = await limiter.hit(`ip:${req.ip}`, Date.now(), cost);
  res.setHeader('RateLimit-Limit', String(decision.limit));
  res.setHeader('RateLimit-Remaining', String(decision.remaining));
  res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
  return decision;
}
