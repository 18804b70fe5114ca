// Fixed-window request counters per client address. SQLite mode runs one server process, so counting in
// memory is exact; on PostgreSQL every server process shares the counters through one table.
import type { Db } from '../db/connect.ts';
import { isPostgres } from '../db/connect.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  hit(bucket: string, now?: number): Promise<RateDecision>;
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
    async hit(bucket, now = Date.now()) {
      const start = now - (now % windowMs);
      if (start !== windowStart) {
        windowStart = start;
        counts = new Map();
      }
      const hits = (counts.get(bucket) ?? 0) + 1;
      counts.set(bucket, hits);
      return decide(hits, max, start, windowMs, now);
    },
  };
}

export function postgresRateLimiter(db: Db, max: number, windowMs: number): RateLimiter {
  let lastSweep = 0;
  return {
    async hit(bucket, now = Date.now()) {
      const start = now - (now % windowMs);
      const { rows } = await db.raw(
        `insert into rate_counters (bucket, window_start, hits) values (?, ?, 1)
         on conflict (bucket, window_start) do update set hits = rate_counters.hits + 1
         returning hits`, [bucket, start]);
      if (now - lastSweep > windowMs) {
        lastSweep = now;
        // Old windows are never read again; clearing them needs no coordination between processes.
        void db('rate_counters').where('window_start', '<', start).delete().catch(() => undefined);
      }
      return decide(Number(rows[0].hits), max, start, windowMs, now);
    },
  };
}

export function createRateLimiter(db: Db, max: number, windowMs: number): RateLimiter {
  return isPostgres(db) ? postgresRateLimiter(db, max, windowMs) : memoryRateLimiter(max, windowMs);
}
