// A worker killed (SIGKILL) after graphile-worker locked a post's job but before Herald reserved the post:
// graphile-worker keeps that job locked for 4 hours (its one attempt spent), yet the post must go live soon after
// another worker runs, and only once (counted by the simulator). The worker is made to hold the jobs it takes
// (TEST_HOLD_JOBS), so the kill lands at that moment; then the processes' clock (test/support/clockedHerald.ts) is
// moved on past the watchdog's limit, so its waits pass at once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInstance, ROOT, startProcess, stopProcess } from './support/processes.ts';
import { createPosts, openDb, publishedItems, seedAccounts } from './support/publishingLoad.ts';
import { STALE_WORKER_MS } from '../worker/worker.ts';

const CLOCKED_HERALD = path.join(ROOT, 'test/support/clockedHerald.ts');
/** The issue 28 target: no post stays past its time for longer than this after the last fault. */
const STUCK_AT_MOST_MS = 30_000;

const waitFor = async (what: string, done: () => Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('a worker killed between taking a job and reserving its post, on postgres', () => {
  it('another worker publishes the post within the watchdog limit, once', async () => {
    const clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-clock-')), 'offset');
    const setOffset = (ms: number) => {
      fs.writeFileSync(`${clockFile}.next`, String(ms));
      fs.renameSync(`${clockFile}.next`, clockFile);
    };
    setOffset(0);
    const instance = await createInstance('postgres', {
      TEST_CLOCK_FILE: clockFile,
      TEST_WATCH_EVERY_MS: '50',
      WORKER: 'off',
    });
    const seeded = await seedAccounts(instance.env, 1);
    const db = openDb(instance.env);
    const start = (role: 'serve' | 'worker', env = instance.env) =>
      startProcess(
        [CLOCKED_HERALD, role],
        env,
        role === 'worker' ? 'publishing worker started' : 'Herald is listening',
        'tsx',
      );
    const server = await start('serve');
    const holder = await start('worker', { ...instance.env, TEST_HOLD_JOBS: 'on' });
    let worker: Awaited<ReturnType<typeof start>> | undefined;
    try {
      await createPosts(instance.base, seeded, 1, 'now');
      const post = await db('posts').first('id');
      await waitFor('the job locked', async () => {
        const { rows } = await db.raw('select 1 from graphile_worker.jobs where key = ? and locked_at is not null', [
          post.id,
        ]);
        return rows.length > 0;
      });
      expect(await db('posts').where({ id: post.id }).first('status', 'attempt_id')).toEqual({
        status: 'queued',
        attempt_id: null,
      });
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;

      worker = await start('worker');
      const restartedAt = Date.now();
      // The clock moves on just past the time a worker gets to reserve a job's post; the watchdog's next pass finds it.
      setOffset(STALE_WORKER_MS + 1000);
      await waitFor(
        'the post live',
        async () => (await db('posts').where({ id: post.id }).first('status')).status === 'live',
        30_000,
      );
      const { live_at } = await db('posts').where({ id: post.id }).first('live_at');
      expect(Date.parse(live_at) - restartedAt).toBeLessThanOrEqual(STUCK_AT_MOST_MS);
      expect(await publishedItems(db)).toHaveLength(1);
    } finally {
      await db.destroy();
      if (worker) await stopProcess(worker);
      await stopProcess(server);
      await instance.remove();
    }
  }, 120_000);
});
