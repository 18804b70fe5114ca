// 600 requests per 10 minutes per client address, shared by every key from that address and, on
// PostgreSQL, by every server process.
import { afterAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { migrate } from '../db/migrate.ts';
import { createServices } from '../runtime/services.ts';
import { createApp } from '../server/app.ts';
import { memoryRateLimiter } from '../server/rateLimit.ts';
import { call, DATABASES, seedWorkspace, startHerald, type TestEnv } from './support/harness.ts';

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
