// What an integrator relies on, through crashes, with Herald as real processes (test/support/clockedHerald.ts):
// - Webhooks: delivered to a receiver on a loopback port that verifies every signature with standardwebhooks. Every
//   process that delivers is killed with SIGKILL while deliveries are held open; on PostgreSQL every connection
//   Herald holds is then terminated mid-delivery, twice; all along the receiver fails 30% of the time (seeded).
//   Every event of the workspace's feed arrives at least once, and a repeat carries the webhook-id of the event,
//   never a new one. The test moves the processes' clock (10 minutes whenever no request is open), so leases and
//   retry delays pass without waiting.
// - Idempotent writes: the create that made the posts, sent again with its key, is replayed and does nothing, by
//   the other server process on PostgreSQL and after the server was killed and restarted on SQLite; the same key
//   sent to two server processes at once does one thing.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../db/events.ts';
import { DATABASES } from './support/harness.ts';
import { createInstance, freePort, ROOT, startProcess } from './support/processes.ts';
import { openDb, postCounts, seedAccounts } from './support/publishingLoad.ts';
import { seeded as seededRandom } from './support/seeded.ts';
import { until } from './support/waiting.ts';
import { webhookReceiver } from './support/webhookReceiver.ts';

const CLOCKED_HERALD = path.join(ROOT, 'test/support/clockedHerald.ts');
const POSTS = 12;
const TICK_MS = 10 * 60_000;

describe.each(DATABASES)('webhooks and idempotent writes through crashes on %s', (kind) => {
  it('delivers every event through kills, dropped connections and a flaky receiver; replays keys', async () => {
    const clockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-clock-'));
    const clockFile = path.join(clockDir, 'offset');
    let offsetMs = 0;
    const setOffset = (ms: number) => {
      offsetMs = ms;
      fs.writeFileSync(`${clockFile}.next`, String(ms));
      fs.renameSync(`${clockFile}.next`, clockFile);
    };
    setOffset(0);
    const instance = await createInstance(kind, { WEBHOOK_ALLOW_HOSTS: '127.0.0.1', TEST_CLOCK_FILE: clockFile });
    const seeded = await seedAccounts(instance.env, POSTS);
    const ws = seeded.workspaces[0]!;
    const db = openDb(instance.env);
    const rx = await webhookReceiver();
    // The processes that deliver: on SQLite the server (it holds the worker); on PostgreSQL two servers (each holds
    // a worker) and a worker process. After the kill, on PostgreSQL a worker alone delivers (it starts fastest).
    const secondPort = await freePort();
    const secondBase = `http://127.0.0.1:${secondPort}`;
    const start = (roles: ('serve' | 'second serve' | 'worker')[]) =>
      Promise.all(
        roles.map((role) =>
          startProcess(
            [CLOCKED_HERALD, role === 'worker' ? 'worker' : 'serve'],
            role === 'second serve' ? { ...instance.env, PORT: String(secondPort) } : instance.env,
            role === 'worker' ? 'publishing worker started' : 'Herald is listening',
            'tsx',
          ),
        ),
      );
    let running: ChildProcess[] = await start(kind === 'postgres' ? ['serve', 'second serve', 'worker'] : ['serve']);
    const killAll = async () => {
      await Promise.all(
        running
          .filter((child) => child.exitCode === null && child.signalCode === null)
          .map((child) => {
            const exited = new Promise((resolve) => child.once('exit', resolve));
            child.kill('SIGKILL');
            return exited;
          }),
      );
      running = [];
    };
    const api = async (path: string, body: unknown, headers: Record<string, string> = {}, base = instance.base) => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ws.key}`, 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.json() };
    };
    const postsMade = async () => Number((await db('posts').count({ n: '*' }).first())?.n);
    const createBody = (text: string) => ({
      targets: { accountIds: ws.accountIds },
      mediaIds: [],
      text,
      when: 'now',
      confirm: true,
    });
    const key = { 'Idempotency-Key': 'autumn-sale-1' };
    let ticker: NodeJS.Timeout | undefined;
    try {
      const hook = await api('/v1/webhooks', { url: rx.url, events: EVENT_TYPES });
      expect(hook.status).toBe(201);
      rx.state.secrets = [hook.body.secret];

      // Held open: the senders are mid-delivery when they die.
      let release = (_status: number) => {};
      const held = new Promise<number>((resolve) => (release = resolve));
      rx.state.answer = () => held;
      const created = await api('/v1/posts', createBody('Autumn sale: 30% off until Sunday.'), key);
      expect(created.status).toBe(201);
      expect(created.body.posts.length).toBe(POSTS);
      if (kind === 'postgres') {
        const again = await api('/v1/posts', createBody('Autumn sale: 30% off until Sunday.'), key, secondBase);
        expect(again).toEqual({ ...created, replayed: 'true' });
        // One key sent to both servers at once: one of them creates, the others wait or replay.
        const both = await Promise.all(
          [instance.base, secondBase, instance.base, secondBase].map((base) =>
            api('/v1/posts', createBody('Winter sale.'), { 'Idempotency-Key': 'winter-sale-1' }, base),
          ),
        );
        const made = both.filter((a) => a.status === 201);
        expect(made.length).toBeGreaterThan(0);
        for (const a of made) expect(a.body).toEqual(made[0]!.body);
        expect(both.filter((a) => a.status !== 201).map((a) => [a.status, a.body.code])).toEqual(
          both.filter((a) => a.status !== 201).map(() => [409, 'idempotency_key_in_use']),
        );
      }
      const posts = await postsMade();
      expect(posts).toBe(kind === 'postgres' ? 2 * POSTS : POSTS);
      // Killed once every post is live (publishing through kills is test/crash.test.ts's), deliveries in flight.
      await until(async () => (await postCounts(db)).live === posts, Boolean, 60_000);
      await until(() => rx.state.open > 0, Boolean, 60_000);
      await killAll();
      const interrupted = new Set(rx.attempts);

      // Seeded failures, at most three in a row for one event (a fourth would wait out the 2-hour retry for nothing).
      const random = seededRandom(26);
      const failedInRow = new Map<string, number>();
      rx.state.answer = (id) => {
        const fails = (failedInRow.get(id) ?? 0) < 3 && random.next() < 0.3;
        failedInRow.set(id, fails ? (failedInRow.get(id) ?? 0) + 1 : 0);
        return fails ? 503 : 200;
      };
      release(200);
      running = await start([kind === 'postgres' ? 'worker' : 'serve']);
      if (kind === 'sqlite') {
        // The key and its answer were committed with the posts: the restarted server replays them.
        const again = await api('/v1/posts', createBody('Autumn sale: 30% off until Sunday.'), key);
        expect(again).toEqual({ ...created, replayed: 'true' });
      }
      expect(await postsMade()).toBe(posts);
      ticker = setInterval(() => {
        if (rx.state.open === 0) setOffset(offsetMs + TICK_MS);
      }, 200);

      if (kind === 'postgres') {
        for (const after of [3, 12]) {
          await until(() => rx.got.length >= after, Boolean, 60_000);
          await db.raw(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and ' +
              'pid <> pg_backend_pid()',
          );
        }
      }

      const subscribed = async () =>
        (await db('events').where({ workspace_id: ws.id }).select('id', 'type')) as { id: string; type: string }[];
      // Every event of the feed received.
      await until(
        async () => {
          const received = new Set(rx.got.map((r) => r.id));
          if (!(await subscribed()).every((e) => received.has(e.id))) return false;
          // A delivery received while its sender's record of it failed (a dropped connection) is sent again.
          return !(await db('webhook_deliveries').whereNot({ status: 'delivered' }).first());
        },
        Boolean,
        60_000,
      );

      const events = await subscribed();
      const typeOf = new Map(events.map((e) => [e.id, e.type]));
      expect(rx.failures).toEqual([]);
      expect((await postCounts(db)).live).toBe(posts);
      expect(events.filter((e) => e.type === 'post.live').length).toBe(posts);
      // The deliveries the kill interrupted were sent again, and arrived.
      expect(interrupted.size).toBeGreaterThan(0);
      for (const id of interrupted) expect(rx.got.some((r) => r.id === id)).toBe(true);
      // Every attempt carried its event's id (a repeat never comes under a new one), and the body is that event.
      expect(rx.attempts.filter((id) => !typeOf.has(id))).toEqual([]);
      for (const r of rx.got) expect([r.body.data.id, r.body.type]).toEqual([r.id, typeOf.get(r.id)]);
      expect(new Set(rx.got.map((r) => r.id)).size).toBe(events.length);
      expect(rx.attempts.length).toBeGreaterThan(events.length);
      const log = await db('webhook_deliveries').select('event_id', 'status');
      expect(log.length).toBe(events.length);
      expect(log.filter((d) => d.status !== 'delivered')).toEqual([]);
    } finally {
      clearInterval(ticker);
      await killAll();
      await rx.close();
      await db.destroy();
      await instance.remove();
      fs.rmSync(clockDir, { recursive: true, force: true });
    }
  }, 120_000);
});
