// Webhooks through crashes: Herald as real processes (test/support/clockedHerald.ts) delivering to a receiver on a
// loopback port that verifies every signature with standardwebhooks. Every process that delivers is killed with
// SIGKILL while deliveries are held open; on PostgreSQL every connection Herald holds is then terminated
// mid-delivery, twice; all along the receiver fails 30% of the time (seeded). Every event of the workspace's feed
// arrives at least once, and a repeat carries the webhook-id of the event, never a new one. The test moves the
// processes' clock (10 minutes whenever no request is open), so leases and retry delays pass without waiting.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../db/events.ts';
import { seeded as seededRandom } from './support/fuzz.ts';
import { DATABASES } from './support/harness.ts';
import { createInstance, ROOT, startProcess } from './support/processes.ts';
import { createPosts, openDb, postCounts, seedAccounts } from './support/publishingLoad.ts';
import { webhookReceiver } from './support/webhookReceiver.ts';

const CLOCKED_HERALD = path.join(ROOT, 'test/support/clockedHerald.ts');
const POSTS = 12;
const TICK_MS = 10 * 60_000;

const waitFor = async (what: string, done: () => boolean | Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe.each(DATABASES)('webhook delivery through crashes on %s', (kind) => {
  it('delivers every event at least once through kills, dropped connections and a flaky receiver', async () => {
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
    // The processes that deliver: on SQLite the server (it holds the worker), on PostgreSQL a worker process too;
    // after the kill, on PostgreSQL a worker alone delivers (it starts faster than a server).
    const start = (roles: ('serve' | 'worker')[]) =>
      Promise.all(
        roles.map((role) =>
          startProcess(
            [CLOCKED_HERALD, role],
            instance.env,
            role === 'serve' ? 'Herald is listening' : 'publishing worker started',
            'tsx',
          ),
        ),
      );
    let running: ChildProcess[] = await start(kind === 'postgres' ? ['serve', 'worker'] : ['serve']);
    const killAll = async () => {
      const dying = running.filter((child) => child.exitCode === null && child.signalCode === null);
      await Promise.all(
        dying.map((child) => {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGKILL');
          return exited;
        }),
      );
      running = [];
    };
    let ticker: NodeJS.Timeout | undefined;
    try {
      const created = await fetch(`${instance.base}/v1/webhooks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ws.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: rx.url, events: EVENT_TYPES }),
      });
      expect(created.status).toBe(201);
      rx.state.secrets = [((await created.json()) as { secret: string }).secret];

      // Held open: the senders are mid-delivery when they die.
      let release = (_status: number) => {};
      const held = new Promise<number>((resolve) => (release = resolve));
      rx.state.answer = () => held;
      await createPosts(instance.base, seeded, POSTS, 'now');
      await waitFor('a delivery in flight', () => rx.state.open > 0);
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
      ticker = setInterval(() => {
        if (rx.state.open === 0) setOffset(offsetMs + TICK_MS);
      }, 200);

      if (kind === 'postgres') {
        for (const after of [3, 12]) {
          await waitFor(`${after} deliveries`, () => rx.got.length >= after);
          await db.raw(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and ' +
              'pid <> pg_backend_pid()',
          );
        }
      }

      const subscribed = async () =>
        (await db('events').where({ workspace_id: ws.id }).select('id', 'type')) as { id: string; type: string }[];
      // Every post settled (so its post.live is in the feed), and every event of the feed received.
      await waitFor('every event delivered', async () => {
        const counts = await postCounts(db);
        if ((counts.queued ?? 0) + (counts.publishing ?? 0) > 0) return false;
        const received = new Set(rx.got.map((r) => r.id));
        if (!(await subscribed()).every((e) => received.has(e.id))) return false;
        // A delivery received while its sender's record of it failed (a dropped connection) is sent again.
        return !(await db('webhook_deliveries').whereNot({ status: 'delivered' }).first());
      });

      const events = await subscribed();
      const typeOf = new Map(events.map((e) => [e.id, e.type]));
      expect(rx.failures).toEqual([]);
      expect((await postCounts(db)).live).toBe(POSTS);
      expect(events.filter((e) => e.type === 'post.live').length).toBe(POSTS);
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
