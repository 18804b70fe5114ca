// Workers killed (SIGKILL) with work in hand, on PostgreSQL: what they held must go live soon after another worker
// runs, and only once (counted by the simulator). The processes' clock (test/support/clockedHerald.ts) is moved on
// past the watchdog's limit, so its waits pass at once.
// - Killed after graphile-worker locked a post's job but before Herald reserved the post: graphile-worker keeps that
//   job locked for 4 hours (its one attempt spent). The worker is made to hold the jobs it takes (TEST_HOLD_JOBS).
// - Killed holding reservations it had not started (TEST_HOLD_ATTEMPTS: it reserves and never launches): nothing was
//   sent for them, so another worker takes them once the first has been silent SILENT_WORKER_MS, long before it
//   would count as dead (STALE_WORKER_MS) for attempts that may be inside a network call.
// - Holding a backlog: a worker keeps no more posts past their time than its launcher's room (worker/launcher.ts);
//   the rest stay in the job queue, and what it held when killed is taken over by the others.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Knex } from 'knex';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createInstance, ROOT, startProcess, stopProcess, type Instance } from './support/processes.ts';
import { createPosts, openDb, publishedItems, seedAccounts, type Seeded } from './support/publishingLoad.ts';
import { until } from './support/waiting.ts';
import { LEAST_WAITING_ROOM } from '../worker/launcher.ts';
import { LOST_JOB_MS, PREPARE_CONCURRENCY, SILENT_WORKER_MS, STALE_WORKER_MS } from '../worker/worker.ts';

const CLOCKED_HERALD = path.join(ROOT, 'test/support/clockedHerald.ts');
/** The target: no post stays past its time for longer than this after the last fault. */
const STUCK_AT_MOST_MS = 30_000;

describe('workers killed with work in hand, on postgres', () => {
  const clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-clock-')), 'offset');
  let offsetMs = 0;
  /** Moves every process's clock `ms` further on. */
  const moveClock = (ms: number) => {
    offsetMs += ms;
    fs.writeFileSync(`${clockFile}.next`, String(offsetMs));
    fs.renameSync(`${clockFile}.next`, clockFile);
  };
  let instance: Instance;
  let seeded: Seeded;
  let db: Knex;
  let server: ChildProcess;
  const workers: ChildProcess[] = [];
  const start = (role: 'serve' | 'worker', env = instance.env) =>
    startProcess(
      [CLOCKED_HERALD, role],
      env,
      role === 'worker' ? 'publishing worker started' : 'Herald is listening',
      'tsx',
    );
  const startWorker = async (env = instance.env) => {
    const worker = await start('worker', env);
    workers.push(worker);
    return worker;
  };
  const kill = async (child: ChildProcess) => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  const statusOf = async (id: string) => (await db('posts').where({ id }).first('status')).status;
  type Item = Awaited<ReturnType<typeof publishedItems>>[number];
  /** Each text the network received more than once since `before` on one account, with its post's timeline. */
  const sentTwice = async (before: Item[], now: Item[]) => {
    const count = (items: Item[]) => {
      const n = new Map<string, number>();
      for (const item of items)
        n.set(`${item.account}|${item.message}`, (n.get(`${item.account}|${item.message}`) ?? 0) + 1);
      return n;
    };
    const was = count(before);
    const twice: string[] = [];
    for (const [key, n] of count(now)) {
      if (n - (was.get(key) ?? 0) < 2) continue;
      const [account, text] = key.split('|') as [string, string];
      const posts = await db('posts')
        .join('accounts', 'accounts.id', 'posts.account_id')
        .where({ 'accounts.external_id': account, 'posts.text': text })
        .pluck('posts.id');
      const events = await db('post_events').whereIn('post_id', posts).orderBy(['post_id', 'seq']);
      twice.push(`${key}: ${events.map((e) => `${e.post_id} ${e.kind} ${e.at} ${e.message ?? ''}`).join('; ')}`);
    }
    return twice;
  };

  beforeAll(async () => {
    moveClock(0);
    instance = await createInstance('postgres', {
      TEST_CLOCK_FILE: clockFile,
      TEST_WATCH_EVERY_MS: '50',
      WORKER: 'off',
    });
    seeded = await seedAccounts(instance.env, 3);
    db = openDb(instance.env);
    server = await start('serve');
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) await stopProcess(worker);
  });
  afterAll(async () => {
    await db.destroy();
    await stopProcess(server);
    await instance.remove();
  });

  it('killed between taking a job and reserving its post: another worker publishes it in time, once', async () => {
    const holder = await startWorker({ ...instance.env, TEST_HOLD_JOBS: 'on' });
    await createPosts(instance.base, seeded, 1, 'now');
    const post = await db('posts').orderBy('created_at', 'desc').first('id');
    const jobLocked = async () =>
      (await db.raw('select 1 from graphile_worker.jobs where key = ? and locked_at is not null', [post.id])).rows
        .length > 0;
    await until(jobLocked, Boolean, 60_000);
    expect(await db('posts').where({ id: post.id }).first('status', 'attempt_id')).toEqual({
      status: 'queued',
      attempt_id: null,
    });
    await kill(holder);

    await startWorker();
    const restartedAt = Date.now() + offsetMs;
    // The clock moves on just past the time a worker gets to reserve a job's post; the watchdog's next pass finds it.
    moveClock(LOST_JOB_MS + 1000);
    await until(
      () => statusOf(post.id),
      (status) => status === 'live',
      30_000,
    );
    const { live_at } = await db('posts').where({ id: post.id }).first('live_at');
    expect(Date.parse(live_at) - restartedAt).toBeLessThanOrEqual(STUCK_AT_MOST_MS);
    expect((await publishedItems(db)).filter((item) => item.message.startsWith('Bench post 1:'))).toHaveLength(1);
  }, 120_000);

  it('killed holding reservations it never started: another takes them once it is silent, before dead', async () => {
    const holder = await startWorker({ ...instance.env, TEST_HOLD_ATTEMPTS: 'on' });
    const text = 'Reserved by a worker that died before its time.';
    const [ws] = seeded.workspaces;
    const res = await fetch(`${instance.base}/v1/posts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ws!.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ targets: { accountIds: ws!.accountIds }, mediaIds: [], text, when: 'now', confirm: true }),
    });
    expect(res.status).toBe(201);
    const ids = ((await res.json()) as { posts: { id: string }[] }).posts.map((p) => p.id);
    expect(ids).toHaveLength(3);
    const holderId = async () =>
      (await db('posts').whereIn('id', ids).whereNotNull('attempt_id').distinct('attempt_worker')).map(
        (r) => r.attempt_worker,
      );
    await until(
      async () => (await db('posts').whereIn('id', ids).whereNotNull('attempt_id')).length === 3,
      Boolean,
      60_000,
    );
    const [reservedBy] = await holderId();
    expect(await holderId()).toEqual([reservedBy]);
    // The other worker runs before the holder dies (a live holder's reservations stay its own): the time from the
    // holder's last beat to the posts' going live is then the watchdog's, not a process's start on a busy machine.
    await startWorker();
    await kill(holder);
    const { heartbeat_at } = await db('workers').where({ id: reservedBy }).first('heartbeat_at');
    // Past the silence that gives its reservations away, and far from the time it would count as dead.
    moveClock(SILENT_WORKER_MS + 1000);
    await until(
      async () => (await db('posts').whereIn('id', ids).where({ status: 'live' })).length === 3,
      Boolean,
      30_000,
    );
    for (const { live_at } of await db('posts').whereIn('id', ids).select('live_at'))
      expect(Date.parse(live_at) - Date.parse(heartbeat_at)).toBeLessThan(STALE_WORKER_MS);
    const items = (await publishedItems(db)).filter((item) => item.message === text);
    expect(items.map((item) => item.account).sort()).toEqual([...seeded.externalIds].sort());
  }, 120_000);

  it('holds no more of a backlog than its room, the rest left queued; killed, all is published once', async () => {
    const itemsBefore = await publishedItems(db);
    // TEST_HOLD_ATTEMPTS: a worker with no slots, so every post it reserves waits in its launcher.
    const holder = await startWorker({ ...instance.env, TEST_HOLD_ATTEMPTS: 'on' });
    const backlog = LEAST_WAITING_ROOM + 50;
    await createPosts(instance.base, seeded, backlog, 'now');
    const ids: string[] = await db('posts').orderBy('created_at', 'desc').limit(backlog).pluck('id');
    const reserved = async () => (await db('posts').whereIn('id', ids).whereNotNull('attempt_id')).length;
    await until(reserved, (n) => n >= LEAST_WAITING_ROOM, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Jobs already waiting for room when it filled may still get in.
    expect(await reserved()).toBeLessThanOrEqual(LEAST_WAITING_ROOM + PREPARE_CONCURRENCY);
    await kill(holder);

    await startWorker();
    moveClock(SILENT_WORKER_MS + 1000);
    const live = async () => (await db('posts').whereIn('id', ids).where({ status: 'live' })).length;
    await until(live, (n) => n === backlog, 60_000);
    // Every post live, and the networks received exactly as many posts: none twice (those twice named, with how).
    const itemsNow = await publishedItems(db);
    const twice = await sentTwice(itemsBefore, itemsNow);
    expect(twice).toEqual([]);
    expect(itemsNow.length - itemsBefore.length).toBe(backlog);
  }, 120_000);
});
