// A publishing worker: runs publish jobs, beats its heart, and watches for work nobody is doing.
// `herald serve` runs one (unless WORKER=off); on PostgreSQL `herald worker` processes add more. Each also sends
// webhook deliveries (worker/webhookDelivery.ts) and keeps the accounts' tokens alive (worker/tokenUpkeep.ts).
import { isPostgres } from '../db/connect.ts';
import { whenDatabaseAnswers } from '../db/databaseWait.ts';
import { heartbeat, orphanedAttempts, overduePosts, retireWorker, workersOn } from '../db/publishing/watchdog.ts';
import { randomBase62 } from '../domain/ids.ts';
import { PREPARE_AHEAD_MS } from '../db/jobs.ts';
import { connectorFor } from '../networks/connectors.ts';
import type { Services } from '../runtime/services.ts';
import { createPublisher } from './publishPost.ts';
import { startWebhookDelivery, type WebhookDelivery } from './webhookDelivery.ts';
import { renewTokens, UPKEEP_EVERY_MS } from './tokenUpkeep.ts';
import { isoAt, type Clock } from '../runtime/clock.ts';
import { processGone, processHost } from '../runtime/processHost.ts';

/** How often a worker beats its heart: on a timer of its own, so no watchdog pass holds a beat back. */
const HEARTBEAT_EVERY_MS = 2_000;
/**
 * A worker that has not beaten for this long is dead: another takes over its started attempts and settles them. Long,
 * because a worker only stalled (its event loop or its database slow) may still be inside a network call.
 */
export const STALE_WORKER_MS = 20_000;
/**
 * A worker silent for this long (three beats missed) loses its reservations: nothing was sent for them, so taking
 * them over is safe whatever it does (its start, conditioned on the lease, finds it gone).
 */
export const SILENT_WORKER_MS = 6_000;
/** A worker's own lease this late that none of its attempts holds is taken up again (a lease lost some other way). */
export const OVERDUE_MS = 60_000;
/**
 * A post's job is taken PREPARE_AHEAD_MS before the post is due and reserves it within milliseconds: a post still
 * unreserved this long after its job was taken lost the job (it failed, or the worker that took it died, and
 * graphile-worker keeps a dead worker's job locked for 4 hours), or waits for room in a worker with a backlog (a new
 * job lets a worker with room take it). A new job is safe: only one can reserve the post.
 */
export const LOST_JOB_MS = 6_000;
const WATCH_EVERY_MS = 2_000;
/**
 * A pass that left orphans past their time for want of room takes over more this soon rather than at the next tick:
 * the room frees as fast as the launcher starts what it took, and after a fault storm the dead workers' backlog drained
 * at one room's worth per worker every 2 s (100 posts/s in the chaos run) with the CPU half idle.
 */
const AGAIN_AFTER_MS = 250;
/** Attempts a worker takes over in a watchdog pass even when it has no room: the started ones come first. */
const ADOPT_AT_LEAST = 10;
/** Orphans a watchdog tick reads at most: those not yet due are all taken, whatever the room. */
export const ORPHANS_READ_AT_MOST = 1000;
/** Jobs prepared at once: a job only reserves and reads its post, then hands it to the launcher. */
export const PREPARE_CONCURRENCY = 16;

export interface WorkerOptions {
  concurrency?: number;
  retryDelaysMs?: number[];
  watchEveryMs?: number;
  /** How often webhook delivery looks for events and due deliveries (250 ms: a cheap look, and the lag it adds). */
  webhookEveryMs?: number;
  /** How often the token upkeep looks for tokens to renew (UPKEEP_EVERY_MS). */
  upkeepEveryMs?: number;
  /** Test hook: runs when a job is taken, before its post is reserved (test/stuckJob.test.ts kills a worker there). */
  jobTaken?: (postId: string) => Promise<void>;
}

/** What a test injects into `herald serve` or `herald worker`: its clock and the worker's pace (clockedHerald.ts). */
export interface ProcessOptions {
  clock?: Clock;
  worker?: WorkerOptions;
}

export interface RunningWorker {
  id: string;
  /** One watchdog pass: heartbeat, take over attempts nobody is running, re-enqueue overdue posts. */
  watch(): Promise<void>;
  /** Resolves once the jobs taken so far are prepared and every attempt due by the clock has ended. */
  idle(): Promise<void>;
  /** Webhook delivery: `pass()` dispatches and sends what is due now. */
  webhooks: WebhookDelivery;
  /** One token upkeep pass, after the one in progress. */
  renewTokens(): Promise<void>;
  stop(): Promise<void>;
}

export async function startWorker(services: Services, options: WorkerOptions = {}): Promise<RunningWorker> {
  const { db, jobs, logger } = services;
  const { clock } = services;
  const id = `wkr_${randomBase62(12)}`;
  const me = { id, startedAt: new Date(clock.now()).toISOString(), host: processHost() ?? null };
  const concurrency = options.concurrency ?? services.config.workerConcurrency;
  const publisher = createPublisher({
    db,
    jobs,
    keyring: services.keyring,
    storage: services.storage,
    logger,
    clock,
    workerId: id,
    concurrency,
    connectorFor: (platform) => connectorFor(platform, services.config, services.clock),
    retryDelaysMs: options.retryDelaysMs ?? services.config.workerRetryDelaysMs,
  });
  await whenDatabaseAnswers(logger, 'starting the publishing worker', () => heartbeat(db, me, isoAt(clock.now())));
  // One process owns a SQLite database: any other worker row is from before a restart, so dead.
  if (!isPostgres(db)) await db('workers').whereNot({ id }).delete();

  let watching: Promise<void> = Promise.resolve();
  let again: NodeJS.Timeout | undefined;
  let stopped = false;
  /**
   * Workers of this machine whose process is gone (killed, say, and started again): their reservations are taken at
   * once. Their started attempts still wait STALE_WORKER_MS, for a call the network may still be answering.
   */
  async function goneWorkers(): Promise<string[]> {
    if (!me.host) return [];
    return (await workersOn(db, me.host, id)).filter((w) => processGone(w.pid)).map((w) => w.id);
  }
  /** Comes back for more orphans soon (AGAIN_AFTER_MS), for a pass that takes only what its room holds. */
  function comeAgain(): void {
    if (stopped) return;
    again ??= setTimeout(() => {
      again = undefined;
      void serially(() => adoptOrphans(true));
    }, AGAIN_AFTER_MS);
  }
  /**
   * Takes over attempts nobody is running, as many as its room holds; comes again soon when it left some. A quick
   * pass reads no more orphans than its room holds, and none while the room is full (as it is most of the time while
   * a backlog drains): the watchdog's tick still takes a few whatever the room, the started ones first.
   */
  async function adoptOrphans(quick = false): Promise<void> {
    // Of those past their time, as many as this worker has room for: a dead worker's backlog is shared by the live
    // ones, not all taken by whichever looks first.
    let room = Math.max(quick ? 0 : ADOPT_AT_LEAST, publisher.freeRoom());
    if (!room) return comeAgain();
    const limit = quick ? room : ORPHANS_READ_AT_MOST;
    const orphans = await orphanedAttempts(db, {
      staleBefore: isoAt(clock.now() - STALE_WORKER_MS),
      silentBefore: isoAt(clock.now() - SILENT_WORKER_MS),
      gone: await goneWorkers(),
      limit,
    });
    const now = clock.now();
    const taking = orphans.filter((o) => Date.parse(o.dueAt) > now || room-- > 0);
    const adopted = await publisher.adopt(taking);
    if (adopted) logger.warn({ attempts: adopted }, 'took over the attempts of dead workers (or left past their time)');
    if (taking.length < orphans.length || orphans.length === limit) comeAgain();
  }
  async function watchOnce(): Promise<void> {
    await heartbeat(db, me, isoAt(clock.now()));
    await adoptOrphans();
    const resumed = await publisher.adoptStranded(isoAt(clock.now() - OVERDUE_MS));
    if (resumed) logger.warn({ attempts: resumed }, 'took up again attempts that could not record their end');
    const now = clock.now();
    const dueBefore = isoAt(now + PREPARE_AHEAD_MS - LOST_JOB_MS);
    const jobless = await jobs.postsWithoutJob(await overduePosts(db, dueBefore), isoAt(now - LOST_JOB_MS));
    // Read again: a job that finished meanwhile reserved its post before it went.
    for (const postId of jobless.length ? await overduePosts(db, dueBefore, jobless) : []) {
      logger.warn(
        { postId },
        'post still unreserved after its job was taken (its worker died, or had no room): enqueued again',
      );
      await db.transaction((trx) => jobs.schedule(trx, postId, isoAt(now)));
    }
  }
  /** Runs a watchdog pass after the one in progress, never two at once. */
  const serially = (pass: () => Promise<void>) =>
    (watching = watching.then(pass, pass).catch((err) => logger.error({ err }, 'watchdog pass failed')));
  const watch = () => serially(watchOnce);

  const { jobTaken } = options;
  const task = async (postId: string) => {
    await jobTaken?.(postId);
    await publisher.prepare(postId);
  };
  await whenDatabaseAnswers(logger, 'starting its job queue', () =>
    jobs.start(task, { concurrency: PREPARE_CONCURRENCY, workerId: id }),
  );
  await watch();
  const timer = setInterval(() => void watch(), options.watchEveryMs ?? WATCH_EVERY_MS);
  let beating = false;
  const beat = async () => {
    if (beating) return;
    beating = true;
    try {
      await heartbeat(db, me, isoAt(clock.now()));
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'heartbeat not written');
    } finally {
      beating = false;
    }
  };
  const beater = setInterval(() => void beat(), HEARTBEAT_EVERY_MS);
  const webhooks = startWebhookDelivery(services, options.webhookEveryMs);
  let renewing: Promise<void> = Promise.resolve();
  const upkeep = () =>
    (renewing = renewing
      .then(async () => {
        const { renewed, refused } = await renewTokens(services);
        if (renewed || refused) logger.info({ renewed, refused }, 'token upkeep');
      })
      .catch((err) => logger.error({ err }, 'token upkeep pass failed')));
  void upkeep();
  const upkeeper = setInterval(() => void upkeep(), options.upkeepEveryMs ?? UPKEEP_EVERY_MS);
  logger.info({ workerId: id }, 'publishing worker started');

  return {
    id,
    watch,
    idle: () => publisher.idle(),
    webhooks,
    renewTokens: upkeep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(upkeeper);
      clearTimeout(again);
      clearInterval(beater);
      while (beating) await new Promise((resolve) => setTimeout(resolve, 10));
      await webhooks.stop();
      await watching;
      await renewing;
      publisher.close();
      await jobs.stop();
      await publisher.stop();
      await retireWorker(db, id);
      logger.info({ workerId: id }, 'publishing worker stopped');
    },
  };
}
