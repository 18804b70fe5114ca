// 600 requests per 10 minutes per client address, shared by every key from that address and, on
// PostgreSQL, by every server process.
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { openDatabase } from '../db/connect.ts';
import { migrate } from '../db/migrate.ts';
import { createServices } from '../runtime/services.ts';
import { createApp } from '../server/app.ts';
import { memoryRateLimiter, postgresRateLimiter } from '../server/rateLimit.ts';
import { call, createPgDatabase, DATABASES, seedWorkspace, startHerald, type TestEnv } from './support/harness.ts';

describe.each(DATABASES)('request rate limit on %s', (kind) => {
  const envs: TestEnv[] = [];
  afterAll(async () => {
    for (const env of envs) await env.close();
  });

  it('answers 429 rate_limited with Retry-After once an address passes the limit, whatever the key', async () => {
    const env = await startHerald(kind, { rateLimit: { max: 5, windowMs: 600_000 } });
    envs.push(env);
    const ws = await seedWorkspace(env);
    for (let i = 0; i < 5; i++) {
      const res = await call(env, 'get', '/v1/whoami', { key: i % 2 ? ws.readKey : ws.writeKey });
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(4 - i));
    }
    const res = await call(env, 'get', '/v1/accounts', { key: ws.readKey });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(res.body.hint).toContain(`${retryAfter} seconds`);
    // Unauthenticated requests from the address count too.
    expect((await call(env, 'get', '/v1/whoami')).status).toBe(429);
  });

  it.runIf(kind === 'postgres')('shares the counters between server processes on PostgreSQL', async () => {
    const env = await startHerald(kind, { rateLimit: { max: 4, windowMs: 600_000 } });
    envs.push(env);
    const ws = await seedWorkspace(env);
    // A second, independent app (own pool, own limiter) on the same database stands for a second process;
    // the counting turns synchronous near the limit, so the refusal is exact across both.
    const second = createServices(env.config);
    await migrate(second.db);
    const app2 = await createApp(second);
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++) {
        const app = i % 2 ? app2 : env.app;
        statuses.push((await request(app).get('/v1/whoami').set('Authorization', `Bearer ${ws.readKey}`)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await second.close();
    }
  });
});

describe('fixed windows', () => {
  it('opens a new window after windowMs and counts buckets apart', async () => {
    const limiter = memoryRateLimiter(2, 1000);
    expect((await limiter.hit('a', 10_000)).allowed).toBe(true);
    expect((await limiter.hit('a', 10_100)).allowed).toBe(true);
    const third = await limiter.hit('a', 10_900);
    expect(third).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    expect((await limiter.hit('b', 10_900)).allowed).toBe(true);
    expect((await limiter.hit('a', 11_000)).allowed).toBe(true);
  });
});

describe.runIf(DATABASES.includes('postgres'))('limiters of different windows on one PostgreSQL database', () => {
  it("keep their counts: opening a window clears only the limiter's own past windows", async () => {
    const pg = await createPgDatabase();
    const db = openDatabase({ databaseUrl: pg.url, dataDir: os.tmpdir() });
    try {
      await migrate(db);
      // Each limiter is a fresh one, as a second server process would be; with max 5 every hit is counted in
      // the shared table at once. Windows of 4 s and 10 s: 68-72 s and 72-76 s against 70-80 s.
      const short = () => postgresRateLimiter(db, 5, 4_000);
      const long = () => postgresRateLimiter(db, 5, 10_000);
      const first = short();
      for (let i = 0; i < 3; i++) await first.hit('ip:203.0.113.9', 68_500);
      const longFirst = long();
      for (let i = 0; i < 3; i++) await longFirst.hit('ip:203.0.113.9', 70_500);
      // The 10 s limiter opened its window at 70 s; the 4 s window opened at 68 s is still counting.
      expect(await short().hit('ip:203.0.113.9', 71_000)).toMatchObject({ allowed: true, remaining: 1 });
      // The 4 s limiter opens its window at 72 s; the 10 s window opened at 70 s is still counting.
      await short().hit('ip:198.51.100.7', 72_500);
      expect(await long().hit('ip:203.0.113.9', 73_000)).toMatchObject({ allowed: true, remaining: 1 });
      // Its own past windows are gone: the 68 s window of the 4 s limiter, nothing else.
      const rows = await db('rate_counters').orderBy('window_start').select('bucket', 'window_start', 'hits');
      expect(rows.map((r) => [r.bucket, Number(r.window_start), r.hits])).toEqual([
        ['10000:ip:203.0.113.9', 70_000, 4],
        ['4000:ip:198.51.100.7', 72_000, 1],
      ]);
    } finally {
      await db.destroy();
      await pg.drop();
    }
  });
});
