// The publish task: a due post goes live on its network exactly once, or fails with the network's
// own words and the spec's retry guidance. The attempt lease is taken before any network call and
// every step is recorded (checkpoint) before the call that could change something on the network,
// so an attempt that dies midway is settled from what the network says, never blindly resent.
import { DateTime } from 'luxon';
import { isDatabaseUnavailable, type Db } from '../db/connect.ts';
import { PREPARE_AHEAD_MS, type JobScheduler } from '../db/jobs.ts';
import { reservePosts, saveCheckpoints, startAttempts, type Attempt, type Lease } from '../db/publishing/attempts.ts';
import {
  awaitReview,
  markFailed,
  markLiveMany,
  releaseForResend,
  retryLater,
  type LiveOutcome,
} from '../db/publishing/outcomes.ts';
import { leasesOf, takeOverAttempts } from '../db/publishing/watchdog.ts';
import type { ErrorBody } from '../domain/errors.ts';
import { usableAccount } from '../networks/accountCredentials.ts';
import {
  NetworkError,
  NotYetPublished,
  type Checkpoint,
  type Connector,
  type PublishJob,
} from '../networks/connector.ts';
import { networkOf } from '../networks/index.ts';
import type { Platform } from '../networks/rules.ts';
import { isoAt, type Clock } from '../runtime/clock.ts';
import type { Keyring } from '../runtime/crypto.ts';
import type { Logger } from '../runtime/logger.ts';
import type { Storage } from '../storage/storage.ts';
import { batcher } from '../runtime/batcher.ts';
import { createLauncher, type Slot } from './launcher.ts';
import { publishMedia } from './publishMedia.ts';
import { accountStatusAfter, hintFor, isTemporary } from '../networks/failureGuidance.ts';

export interface PublishDeps {
  db: Db;
  jobs: JobScheduler;
  keyring: Keyring;
  storage: Storage;
  logger: Logger;
  connectorFor(platform: Platform): Connector | undefined;
  clock: Clock;
  workerId: string;
  retryDelaysMs: number[];
  /** Attempts running at once in this worker (network calls in flight). */
  concurrency: number;
}

export interface Publisher {
  /** The job's entry point: reserves the post if it is due soon, prepares it, and starts it at its time. */
  prepare(postId: string): Promise<void>;
  /**
   * For the watchdog: takes over attempts nobody is running (a dead worker's, or reservations left
   * past their time). A started one is settled from what the network says; an unstarted one is sent.
   */
  adopt(leases: Lease[]): Promise<number>;
  /**
   * For the watchdog: takes up again this worker's own leases that no attempt of it holds any more (the database
   * went out of reach while an attempt recorded its outcome, so the lease stayed), settling the started ones: all of
   * them after such a fault, else those due before `overdueBefore` (a lease lost some other way).
   */
  adoptStranded(overdueBefore: string): Promise<number>;
  /**
   * Resolves once the jobs handed over so far are prepared and every attempt due by the clock has ended:
   * the explicit moment a test checks that something did (or did not) happen.
   */
  idle(): Promise<void>;
  /** How many more attempts past their time this worker has room for (see worker/launcher.ts). */
  freeRoom(): number;
  /** Takes no more posts: jobs waiting for room end without reserving theirs (a stopping worker, before its queue). */
  close(): void;
  /** Waits for running attempts and gives the prepared, unstarted ones back to the queue. */
  stop(): Promise<void>;
}

/** Thrown when this worker no longer holds the post's lease (the watchdog gave it to another). */
class LeaseLost extends Error {}

export function createPublisher(deps: PublishDeps): Publisher {
  const { db, clock } = deps;
  // Group commit: the writes of attempts running together go to the database as one statement each.
  // Twice the lead: a job the queue runs a little early by this worker's clock still reserves its post.
  const reserve = batcher((ids: string[]) =>
    reservePosts(db, ids, deps.workerId, isoAt(clock.now() + 2 * PREPARE_AHEAD_MS)),
  );
  const start = batcher((items: { attempt: Attempt; message: string; checkpoint?: Checkpoint }[]) =>
    startAttempts(db, items, isoAt(clock.now())),
  );
  const checkpoint = batcher((items: { attempt: Attempt; checkpoint: Checkpoint }[]) => saveCheckpoints(db, items));
  const live = batcher((outcomes: LiveOutcome[]) => markLiveMany(db, outcomes, isoAt(clock.now())));

  /**
   * Posts this worker holds in memory (being reserved or taken over, prepared, running), counted: a lease of this
   * worker's on any other post was left behind by an attempt that could not record its end.
   */
  const inHand = new Map<string, number>();
  const hold = (postIds: string[]) => {
    for (const id of postIds) inHand.set(id, (inHand.get(id) ?? 0) + 1);
  };
  const letGo = (postId: string) => {
    const n = (inHand.get(postId) ?? 1) - 1;
    if (n > 0) inHand.set(postId, n);
    else inHand.delete(postId);
  };
  /** Set when an attempt ended without recording its end: the watchdog's next pass looks for stranded leases. */
  let stranded = false;
  /** An attempt that stopped on an error it could not record: its lease stays, for adoptStranded to take up. */
  function strand(postId: string, err: unknown): void {
    stranded = true;
    if (isDatabaseUnavailable(err))
      deps.logger.warn(
        { postId, err: (err as Error).message },
        'the database went out of reach during a publish attempt: it is settled again once the database answers',
      );
    else deps.logger.error({ err, postId }, 'publish attempt failed; it is settled again by the watchdog');
  }

  const launcher = createLauncher<Prepared>(
    clock,
    deps.concurrency,
    async (prepared, slot) => {
      try {
        await prepared.run(slot);
      } catch (err) {
        strand(prepared.attempt.postId, err);
      } finally {
        letGo(prepared.attempt.postId);
      }
    },
    // Of the attempts past their time, the post promised earliest goes first: the lateness that counts is the post's.
    (prepared) => Date.parse(prepared.attempt.publishAt),
  );

  /** An attempt ready to run: what to do at its due time, holding a launcher slot. */
  interface Prepared {
    attempt: Attempt;
    run(slot: Slot): Promise<void>;
  }

  async function prepareAttempt(a: Attempt, mode: 'publish' | 'settle'): Promise<Prepared> {
    /** The slot the attempt holds once it runs: given back while it waits (job.sleep). */
    let held: Slot | undefined;
    const outcome = (run: (slot: Slot) => Promise<unknown>): Prepared => ({
      attempt: a,
      run: async (slot) => {
        held = slot;
        await run(slot);
      },
    });
    const label = networkOf(a.platform).label;
    const connector = deps.connectorFor(a.platform);
    if (!connector) {
      return outcome(() =>
        markFailed(
          db,
          a,
          {
            code: `${a.platform}_unavailable`,
            message: `Publishing to ${label} is not available in this version.`,
            hint: `Remove the ${label} account from the post's targets.`,
          },
          isoAt(clock.now()),
        ),
      );
    }
    if (a.account.status !== 'ok' || !a.account.tokenSealed) {
      return outcome(() =>
        markFailed(
          db,
          a,
          {
            code: `${a.platform}_token_rejected`,
            message: `The ${label} account ${a.account.displayName} is ${a.account.status}; its token no longer works.`,
            hint: hintFor('token_rejected', label),
          },
          isoAt(clock.now()),
        ),
      );
    }
    // A wait (for the network to process a file, before trying a step again) makes no call: its slot serves another.
    const sleep = async (ms: number) => {
      held?.release();
      try {
        await clock.sleep(ms);
      } finally {
        await held?.take();
      }
    };
    let job: PublishJob;
    try {
      job = await buildJob(a, connector, sleep);
    } catch (err) {
      return outcome(() => failure(a, connector, undefined, label, mode, err));
    }
    if (mode === 'settle')
      return outcome(() =>
        settleWith(a, connector, job, label).catch((err) => failure(a, connector, job, label, mode, err)),
      );
    return outcome(async (slot) => {
      try {
        const published = await connector.publish(job);
        // The network calls are over: the next attempt may start while this one's outcome is written.
        slot.release();
        if (!(await began(a))) {
          // Visible calls follow a checkpoint: an answer without one is an earlier attempt's post, found again.
          deps.logger.error(
            { postId: a.postId, externalUrl: published.externalUrl },
            'published on the network, but the post was changed before its attempt was recorded',
          );
          throw new LeaseLost();
        }
        await live({ attempt: a, published, message: `Published on ${label}.` });
      } catch (err) {
        // A refusal before the first checkpoint still follows a `publishing` event in the timeline.
        if (err instanceof LeaseLost || !(await began(a))) return;
        await failure(a, connector, job, label, mode, err);
      }
    });
  }

  /**
   * Records an attempt's start (its first checkpoint, if any, in the same write) unless it is recorded;
   * false when a person changed the post meanwhile, so it must not go on.
   */
  async function began(a: Attempt, checkpoint?: Checkpoint): Promise<boolean> {
    if (a.started) return true;
    a.started = await start({ attempt: a, message: `Sending to ${networkOf(a.platform).label}.`, checkpoint });
    return a.started;
  }

  async function buildJob(a: Attempt, connector: Connector, sleep: PublishJob['sleep']): Promise<PublishJob> {
    const account = await usableAccount(deps, connector, { ...a.account, tokenSealed: a.account.tokenSealed! });
    const job: PublishJob = {
      postId: a.postId,
      text: a.text,
      title: a.title,
      tags: a.tags,
      settings: a.settings,
      account,
      media: a.media.map((m) => publishMedia(deps.storage, m)),
      marker: `herald-${a.postId}`,
      checkpoint: a.checkpoint,
      async saveCheckpoint(next) {
        // The first checkpoint starts the attempt: calls before it change nothing a person would see.
        const saved = a.started ? await checkpoint({ attempt: a, checkpoint: next }) : await began(a, next);
        if (!saved) throw new LeaseLost();
        job.checkpoint = next;
      },
      sleep,
    };
    return job;
  }

  /** A failed step: the network's refusal, or our own fault, after which the network is asked what happened. */
  async function failure(
    a: Attempt,
    connector: Connector,
    job: PublishJob | undefined,
    label: string,
    mode: 'publish' | 'settle',
    err: unknown,
  ): Promise<void> {
    if (err instanceof LeaseLost) return;
    if (err instanceof NetworkError) return handleRefusal(a, err, label);
    if (err instanceof NotYetPublished) {
      await awaitReview(db, deps.jobs, a, err.note, isoAt(clock.now() + err.checkAgainInMs), isoAt(clock.now()));
      return;
    }
    // The database went out of reach midway (a write cut, say): what the network did is settled once it answers
    // again (the lease stays, and the watchdog takes it up), never failed unpublished, never resent blindly.
    if (isDatabaseUnavailable(err)) throw err;
    // Our own fault or an answer we could not read: whether the network acted is unknown, so ask it.
    deps.logger.error({ err, postId: a.postId }, 'publish attempt stopped unexpectedly');
    if (job && mode === 'publish') {
      try {
        return await settleWith(a, connector, job, label, (err as Error).message);
      } catch (settleErr) {
        // The network could not be asked now: a temporary failure, and the next attempt asks it first.
        if (settleErr instanceof NetworkError) return handleRefusal(a, settleErr, label);
        if (isDatabaseUnavailable(settleErr)) throw settleErr;
        deps.logger.error({ err: settleErr, postId: a.postId }, 'settling after an unexpected stop failed');
      }
    }
    await markFailed(db, a, outcomeUnknown(a.platform, label), isoAt(clock.now()));
  }

  /** After an attempt stopped midway: live, resend, or fail with "check the account" — never a blind resend. */
  async function settleWith(
    a: Attempt,
    connector: Connector,
    job: PublishJob,
    label: string,
    cause?: string,
  ): Promise<void> {
    const outcome = job.checkpoint ? await connector.settle(job) : 'not_published';
    if (outcome === 'unknown') {
      await markFailed(db, a, outcomeUnknown(a.platform, label), isoAt(clock.now()));
    } else if (outcome !== 'not_published') {
      await live({
        attempt: a,
        published: outcome,
        message: `Published on ${label} (confirmed after the attempt stopped midway).`,
      });
    } else if (cause !== undefined) {
      // It did not go out because of our own fault: count it as a temporary failure, so a fault that
      // repeats ends in `failed` instead of a loop.
      await handleRefusal(
        a,
        new NetworkError(a.platform, 'unavailable', `Herald could not complete the request: ${cause}`),
        label,
      );
    } else {
      await releaseForResend(db, deps.jobs, a, isoAt(clock.now()));
    }
  }

  /**
   * When the worker tries a temporary failure again, while it has retries left: a spent daily quota at
   * its reset, a rate limit once the window the network names has passed, otherwise after the next of
   * the delays (1, 5 and 15 minutes).
   */
  function nextAttemptMs(a: Attempt, err: NetworkError): number | undefined {
    const delay = deps.retryDelaysMs[a.workerRetries];
    if (!isTemporary(err.kind) || delay === undefined) return undefined;
    const resetZone = networkOf(a.platform).quotaResetZone;
    if (err.kind === 'quota_exceeded' && resetZone)
      return DateTime.fromMillis(clock.now(), { zone: resetZone }).plus({ days: 1 }).startOf('day').toMillis();
    return clock.now() + (err.retryAfterSeconds ? err.retryAfterSeconds * 1000 : delay);
  }

  async function handleRefusal(a: Attempt, err: NetworkError, label: string): Promise<void> {
    const error: ErrorBody = {
      code: err.code,
      message: `${label} answered: "${err.message}"`,
      hint: err.hint ?? hintFor(err.kind, label),
    };
    const retryAt = nextAttemptMs(a, err);
    if (retryAt !== undefined) await retryLater(db, deps.jobs, a, error, isoAt(retryAt), isoAt(clock.now()));
    else await markFailed(db, a, error, isoAt(clock.now()), accountStatusAfter(err.kind));
  }

  const preparing = new Set<Promise<void>>();
  /** Counts a preparation in `preparing` until it ends. */
  function tracked(work: Promise<void>): Promise<void> {
    const done = work.finally(() => preparing.delete(done));
    preparing.add(done);
    return done;
  }

  /** Prepares taken-over attempts (started ones to be settled) and hands them to the launcher. */
  async function launchTakenOver(attempts: Attempt[]): Promise<void> {
    let i = 0;
    try {
      for (; i < attempts.length; i++) {
        const a = attempts[i]!;
        launcher.add(
          a.started ? clock.now() : Date.parse(a.dueAt),
          await prepareAttempt(a, a.started ? 'settle' : 'publish'),
        );
      }
    } catch (err) {
      // Not handed over: their leases are this worker's, for the next pass to take up again.
      for (const a of attempts.slice(i)) {
        strand(a.postId, err);
        letGo(a.postId);
      }
      throw err;
    }
  }

  /** Moves `leases` to this worker and launches them; answers how many it took. */
  async function takeOver(leases: Lease[]): Promise<number> {
    if (!leases.length) return 0;
    hold(leases.map((l) => l.postId));
    let attempts: Attempt[];
    try {
      attempts = await takeOverAttempts(db, leases, deps.workerId);
    } catch (err) {
      // The move may have been written before the answer was lost.
      stranded = true;
      for (const l of leases) letGo(l.postId);
      throw err;
    }
    for (const l of leases) if (!attempts.some((a) => a.postId === l.postId)) letGo(l.postId);
    await launchTakenOver(attempts);
    return attempts.length;
  }

  return {
    prepare: (postId) =>
      tracked(
        (async () => {
          // A worker with a full waiting room leaves the post's job waiting in the queue, where another worker with
          // room can take it.
          if (!(await launcher.room())) return;
          hold([postId]);
          let handed = false;
          try {
            const a = await reserve(postId);
            if (a) {
              launcher.add(Date.parse(a.dueAt), await prepareAttempt(a, 'publish'));
              handed = true;
            }
          } catch (err) {
            // The reservation may have been written before the answer was lost.
            stranded = true;
            throw err;
          } finally {
            if (!handed) letGo(postId);
          }
        })(),
      ),
    adopt: takeOver,
    async adoptStranded(overdueBefore) {
      const all = stranded;
      stranded = false;
      try {
        const mine = await leasesOf(db, deps.workerId, all ? undefined : overdueBefore);
        return await takeOver(mine.filter((l) => !inHand.has(l.postId)));
      } catch (err) {
        stranded ||= all;
        throw err;
      }
    },
    async idle() {
      while (preparing.size) await Promise.allSettled(preparing);
      await launcher.idle();
    },
    freeRoom: () => launcher.freeRoom(),
    close: () => launcher.close(),
    async stop() {
      for (const prepared of await launcher.stop()) {
        letGo(prepared.attempt.postId);
        await releaseForResend(db, deps.jobs, prepared.attempt, isoAt(clock.now()));
      }
    },
  };
}

function outcomeUnknown(platform: Platform, label: string): ErrorBody {
  return {
    code: `${platform}_outcome_unknown`,
    message: `The attempt to publish stopped midway and ${label} offers no way to tell whether the post went out.`,
    hint: `Check the ${label} account before retrying: retry only if the post is not there.`,
  };
}
