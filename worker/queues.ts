// The job port's two adapters. Both schedule inside the caller's transaction (db/jobs.ts) and run
// `publish` jobs keyed by post id. A stale run is harmless: the task claims the post itself.
import { run, type Runner } from 'graphile-worker';
import pg from 'pg';
import type { Db } from '../db/connect.ts';
import { PREPARE_AHEAD_MS, type JobScheduler } from '../db/jobs.ts';
import { graphileLogger, type Logger } from '../runtime/logger.ts';
import { isoAt, type Clock } from '../runtime/clock.ts';

export interface JobQueue extends JobScheduler {
  /** Starts running due jobs with `task`, at most `concurrency` at once. */
  start(task: (postId: string) => Promise<void>, opts: { concurrency: number; workerId: string }): Promise<void>;
  /** Stops taking jobs and waits for the running ones. */
  stop(): Promise<void>;
}

/** The longest pause between tries to start a job queue that stopped by itself. */
const RESTART_LONGEST_PAUSE_MS = 10_000;

const jobTime = (dueAt: string) => isoAt(Date.parse(dueAt) - PREPARE_AHEAD_MS);

/**
 * SQLite: a jobs table polled by the one server process. The claim is one conditional UPDATE (SQLite
 * has a single writer, so it is atomic); every lock found at start-up is stale.
 */
export function sqliteQueue(db: Db, clock: Clock, logger: Logger, pollMs = 200): JobQueue {
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let polling = false;
  /** The last poll filled every free slot: more jobs may be due, so a finished job polls again at once. */
  let backlog = false;

  async function poll(task: (postId: string) => Promise<void>, concurrency: number, workerId: string): Promise<void> {
    if (polling) return;
    polling = true;
    try {
      const free = concurrency - running.size;
      if (free <= 0) return;
      const now = isoAt(clock.now());
      const due = await db('jobs')
        .whereNull('locked_at')
        .where('run_at', '<=', now)
        .orderBy('run_at')
        .limit(free)
        .select('id', 'key', 'version');
      backlog = due.length === free;
      for (const job of due) {
        const claimed = await db('jobs')
          .where({ id: job.id, version: job.version })
          .whereNull('locked_at')
          .update({ locked_at: now, locked_by: workerId });
        if (!claimed) continue;
        const execution = task(job.key)
          .catch((err) => logger.error({ err, postId: job.key }, 'publish job failed'))
          // A reschedule while it ran bumped the version: keep that schedule, only unlock it.
          .then(async () => {
            const removed = await db('jobs').where({ id: job.id, version: job.version }).delete();
            if (!removed) await db('jobs').where({ id: job.id }).update({ locked_at: null, locked_by: null });
          })
          .catch((err) => logger.error({ err, postId: job.key }, 'could not release a publish job'))
          .finally(() => {
            running.delete(execution);
            if (backlog && timer)
              void poll(task, concurrency, workerId).catch((err) => logger.error({ err }, 'job poll failed'));
          });
        running.add(execution);
      }
    } finally {
      polling = false;
    }
  }

  return {
    async schedule(trx, postId, dueAt) {
      await trx.raw(
        `insert into jobs (key, task, run_at, version) values (?, 'publish', ?, 0)
        on conflict (key) do update set run_at = excluded.run_at, version = jobs.version + 1`,
        [postId, jobTime(dueAt)],
      );
    },
    async unschedule(trx, postId) {
      await trx('jobs').where({ key: postId }).delete();
    },
    async postsWithoutJob(postIds, takenSince) {
      const held = new Set(
        await db('jobs')
          .whereIn('key', postIds)
          .where((w) => w.whereNull('locked_at').orWhere('locked_at', '>=', takenSince))
          .pluck('key'),
      );
      return postIds.filter((id) => !held.has(id));
    },
    async start(task, { concurrency, workerId }) {
      await db('jobs').whereNotNull('locked_at').update({ locked_at: null, locked_by: null });
      timer = setInterval(
        () => void poll(task, concurrency, workerId).catch((err) => logger.error({ err }, 'job poll failed')),
        pollMs,
      );
    },
    async stop() {
      clearInterval(timer);
      while (polling) await new Promise((resolve) => setTimeout(resolve, 10));
      await Promise.all(running);
    },
  };
}

/**
 * The job queue's connections: a pool of ours, whose error handlers stay while the process runs. graphile-worker
 * removes those of a pool it made when its runner stops, so a connection of that pool cut afterwards (terminated, the
 * database restarting) ended the process with an unhandled 'error' event. It holds a connection for each job run at
 * once (graphile-worker warns at every start when it has fewer); connections open only as they are needed.
 */
function queuePool(connectionString: string, logger: Logger, concurrency: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: Math.max(10, concurrency) });
  const cut = (err: Error) => logger.warn({ err: err.message }, 'a job queue connection was cut');
  pool.on('error', cut);
  pool.on('connect', (client) => client.on('error', cut));
  return pool;
}

/**
 * PostgreSQL: graphile-worker 0.17 (LISTEN/NOTIFY, so a job due now starts within milliseconds).
 * Batch delays are 0 so a completion is written before shutdown; a crashed worker's job stays locked
 * for 4 hours in graphile-worker (and, its one attempt spent, never runs again), which is why posts carry
 * their own lease and the watchdog (worker/worker.ts) enqueues an unreserved post whose job was taken
 * too long ago, instead of waiting for graphile-worker to unlock the job.
 */
export function graphileQueue(db: Db, connectionString: string, logger: Logger): JobQueue {
  let runner: Runner | undefined;
  let pool: pg.Pool | undefined;
  let stopping = false;
  return {
    async schedule(trx, postId, dueAt) {
      await trx.raw(
        `select graphile_worker.add_job('publish', json_build_object('postId', ?::text), run_at := ?::timestamptz,
        max_attempts := 1, job_key := ?)`,
        [postId, jobTime(dueAt), postId],
      );
    },
    async unschedule(trx, postId) {
      await trx.raw('select graphile_worker.remove_job(?)', [postId]);
    },
    async postsWithoutJob(postIds, takenSince) {
      // Taking a job spends its one attempt: a job taken by a worker that died is never run again.
      const { rows } = await db.raw(
        `select id from unnest(?::text[]) as p(id) where not exists (select 1 from graphile_worker.jobs
        where key = p.id and (attempts < max_attempts or locked_at >= ?::timestamptz))`,
        [postIds, takenSince],
      );
      return rows.map((r: { id: string }) => r.id);
    },
    async start(task, { concurrency }) {
      // One pool for every try: a start the database refused is tried again (worker/worker.ts), and so is a runner
      // that stopped by itself.
      pool ??= queuePool(connectionString, logger, concurrency);
      stopping = false;
      const begin = async () => {
        const current = await run({
          pgPool: pool,
          concurrency,
          noHandleSignals: true,
          logger: graphileLogger(logger),
          taskList: { publish: async (payload) => task((payload as { postId: string }).postId) },
          // Jobs are fetched a batch at a time (one query for many, instead of every slot polling).
          preset: {
            worker: {
              completeJobBatchDelay: 0,
              failJobBatchDelay: 0,
              pollInterval: 1000,
              localQueue: { size: 4 * concurrency },
            },
          },
        });
        runner = current;
        // graphile-worker stops its runner by itself when it judges its queue inconsistent (returning its local
        // queue's jobs, or marking jobs done, failed again and again while the database was cut off), and expects
        // the process to exit. Restarting it here keeps the worker's attempts in flight, which an exit would strand
        // until another worker takes them over.
        current.promise.then(() => restart(undefined), restart);
      };
      const restart = async (err: unknown) => {
        if (stopping) return;
        logger.error({ err }, 'the job queue stopped by itself: starting it again');
        for (let pause = 500; !stopping; pause = Math.min(2 * pause, RESTART_LONGEST_PAUSE_MS)) {
          await new Promise((resolve) => setTimeout(resolve, pause));
          if (stopping) return;
          try {
            await begin();
            logger.warn('the job queue runs again');
            return;
          } catch (startErr) {
            logger.warn({ err: (startErr as Error).message }, 'the job queue did not start again: trying later');
          }
        }
      };
      await begin();
    },
    async stop() {
      stopping = true;
      await runner?.stop().catch((err) => logger.warn({ err: (err as Error).message }, 'the job queue stopped badly'));
      // A connection the stopped runner never gave back would keep end() waiting: a stop waits 5 s at most.
      if (pool) await Promise.race([pool.end(), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
      pool = undefined;
    },
  };
}
