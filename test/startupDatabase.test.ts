// A Herald process whose database connection is cut while it starts (as in the chaos run: connections terminated
// every 5 s, PostgreSQL restarted) waits for the database with a clear log line and starts, instead of exiting.
// Real processes (bin/herald); each reaches PostgreSQL through a relay that cuts its first connections under their
// first query: the migration check's. Once running, a connection cut under it is logged as JSON, like every event.
import { type ChildProcess, spawn } from 'node:child_process';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInstance, HERALD, stopProcess, type Instance } from './support/processes.ts';
import { tcpRelay, type TcpRelay } from './support/tcpRelay.ts';

/** Starts bin/herald with `args` and answers its output once it says `ready`, or once it exits. */
function started(args: string[], env: NodeJS.ProcessEnv, ready: string) {
  const child = spawn(HERALD, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stdout = '';
  const outcome = new Promise<{ ready: boolean; exitCode?: number | null }>((resolve) => {
    const read = (d: Buffer) => {
      output += d;
      if (output.includes(ready)) resolve({ ready: true });
    };
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      read(d);
    });
    child.stderr.on('data', read);
    child.once('exit', (code) => resolve({ ready: false, exitCode: code }));
  });
  return { child, outcome, output: () => output, stdout: () => stdout };
}

/** Terminates every connection to the instance's database but `db`'s own. */
async function cutOtherConnections(db: Knex): Promise<void> {
  await db.raw(
    `select pg_terminate_backend(pid) from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()`,
  );
}

describe('processes starting while their database connection is cut, on postgres', () => {
  let instance: Instance;
  const relays: TcpRelay[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    instance = await createInstance('postgres', { WORKER: 'off' });
  });
  afterAll(async () => {
    for (const child of children) await stopProcess(child);
    for (const relay of relays) await relay.close();
    await instance.remove();
  });

  /** The instance's environment with its database reached through a relay that cuts the first `cuts` connections. */
  async function cutting(cuts: number): Promise<NodeJS.ProcessEnv> {
    const relay = await tcpRelay('127.0.0.1', 5432, { cutFirst: cuts });
    relays.push(relay);
    return { ...instance.env, DATABASE_URL: instance.env.DATABASE_URL!.replace(':5432/', `:${relay.port}/`) };
  }

  it.each([
    ['worker', 'publishing worker started'],
    ['serve', 'Herald is listening'],
  ])('herald %s waits for the database, saying so, instead of exiting', async (command, ready) => {
    const run = started([command], await cutting(2), ready);
    children.push(run.child);
    expect(await run.outcome, run.output()).toEqual({ ready: true });
    expect(run.output()).toContain('The database is out of reach while checking its migrations: trying again in');
  });

  it('herald serve logs a pooled connection found cut as a JSON line like every other', async () => {
    // The instance's port is the one the servers started above listen on: they give it up first.
    for (const child of children) await stopProcess(child);
    const run = started(['serve'], instance.env, 'Herald is listening');
    children.push(run.child);
    expect(await run.outcome, run.output()).toEqual({ ready: true });
    const db = knexFactory({ client: 'pg', connection: instance.env.DATABASE_URL!, pool: { min: 0, max: 1 } });
    try {
      expect((await fetch(`${instance.base}/readyz`)).status).toBe(200);
      await cutOtherConnections(db);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // knex finds its pooled connection cut, says so, and answers from a new one.
      expect((await fetch(`${instance.base}/readyz`)).status).toBe(200);
    } finally {
      await db.destroy();
    }
    await stopProcess(run.child);
    const lines = run.stdout().split('\n').filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    // One warning per pooled connection found cut: the pool may hold more than one by then.
    const fromKnex = lines.map((line) => JSON.parse(line)).filter((r) => r.source === 'knex');
    expect(fromKnex.length).toBeGreaterThan(0);
    for (const record of fromKnex)
      expect(record).toMatchObject({ level: 40, msg: expect.stringMatching(/^Connection Error: /) });
  });

  it('herald worker starts its job queue again when graphile-worker stops it, and goes on taking jobs', async () => {
    const run = started(['worker'], instance.env, 'publishing worker started');
    children.push(run.child);
    expect(await run.outcome, run.output()).toEqual({ ready: true });
    const db = knexFactory({ client: 'pg', connection: instance.env.DATABASE_URL!, pool: { min: 0, max: 1 } });
    try {
      // graphile-worker shuts its runner down when told a newer version migrated its schema in a breaking way; the
      // same path as when it gives up on its queue after the database was cut off too long. Here nothing is newer.
      // Sent until it is heard: the queue listens a moment after the worker says it started.
      const stopped = 'the job queue stopped by itself: starting it again';
      await expect
        .poll(
          async () => {
            if (!run.output().includes(stopped))
              await db.raw(`select pg_notify('worker:migrate', '{"breaking":true,"migrationNumber":1000}')`);
            return run.output();
          },
          { timeout: 15_000 },
        )
        .toContain('the job queue runs again');
      expect(run.child.exitCode).toBeNull();
      // Its connections cut (the old runner's with them) end nothing.
      await cutOtherConnections(db);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(run.child.exitCode, run.output()).toBeNull();
      // A job added afterwards is taken: a post that does not exist, so its task only finds nothing to reserve.
      await db.raw(
        `select graphile_worker.add_job('publish', json_build_object('postId', 'pst_none'), job_key := 'pst_none')`,
      );
      // A loaded CI run missed a 10 s wait here. After the cut the queue may wait out its restart pauses (500 ms,
      // doubling) before it polls again, so the wait is longer; on failure the worker's own lines say which it was.
      await expect
        .poll(async () => (await db.raw(`select count(*)::int as n from graphile_worker.jobs`)).rows[0].n, {
          timeout: 30_000,
        })
        .toBe(0)
        .catch((err: Error) => {
          throw new Error(`${err.message}; the worker said:\n${run.output().slice(-3000)}`);
        });
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
