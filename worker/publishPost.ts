// The publish task: a due post goes live on its network exactly once, or fails with the network's
// own words and the spec's retry guidance. The attempt lease is taken before any network call and
// every step is recorded (checkpoint) before the call that could change something on the network,
// so an attempt that dies midway is settled from what the network says, never blindly resent.
import { PREPARE_AHEAD_MS } from '../db/jobs.ts';
import { reservePosts, type Attempt, type Lease } from '../db/publishing/attempts.ts';
import { releaseForResend } from '../db/publishing/outcomes.ts';
import { leasesOf, takeOverAttempts } from '../db/publishing/watchdog.ts';
import { batcher } from '../runtime/batcher.ts';
import { isoAt } from '../runtime/clock.ts';
import { attemptPreparer, type Prepared } from './attemptRun.ts';
import { createLauncher } from './launcher.ts';
import { leaseBook } from './leaseBook.ts';
import type { PublishDeps } from './publishDeps.ts';

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

export function createPublisher(deps: PublishDeps): Publisher {
  const { db, clock } = deps;
  // Group commit: the reservations of jobs prepared together go to the database as one statement.
  // Twice the lead: a job the queue runs a little early by this worker's clock still reserves its post.
  const reserve = batcher((ids: string[]) =>
    reservePosts(db, ids, deps.workerId, isoAt(clock.now() + 2 * PREPARE_AHEAD_MS)),
  );
  const book = leaseBook(deps.logger);
  const prepareAttempt = attemptPreparer(deps);

  const launcher = createLauncher<Prepared>(
    clock,
    deps.concurrency,
    async (prepared, slot) => {
      try {
        await prepared.run(slot);
      } catch (err) {
        book.strand(prepared.attempt.postId, err);
      } finally {
        book.letGo(prepared.attempt.postId);
      }
    },
    // Of the attempts past their time, the post promised earliest goes first: the lateness that counts is the post's.
    (prepared) => Date.parse(prepared.attempt.publishAt),
  );

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
        book.strand(a.postId, err);
        book.letGo(a.postId);
      }
      throw err;
    }
  }

  /** Moves `leases` to this worker and launches them; answers how many it took. */
  async function takeOver(leases: Lease[]): Promise<number> {
    if (!leases.length) return 0;
    book.hold(leases.map((l) => l.postId));
    let attempts: Attempt[];
    try {
      attempts = await takeOverAttempts(db, leases, deps.workerId);
    } catch (err) {
      // The move may have been written before the answer was lost.
      book.markStranded();
      for (const l of leases) book.letGo(l.postId);
      throw err;
    }
    for (const l of leases) if (!attempts.some((a) => a.postId === l.postId)) book.letGo(l.postId);
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
          book.hold([postId]);
          let handed = false;
          try {
            const a = await reserve(postId);
            if (a) {
              launcher.add(Date.parse(a.dueAt), await prepareAttempt(a, 'publish'));
              handed = true;
            }
          } catch (err) {
            // The reservation may have been written before the answer was lost.
            book.markStranded();
            throw err;
          } finally {
            if (!handed) book.letGo(postId);
          }
        })(),
      ),
    // Never its own attempts in hand: its heartbeat may have gone stale (the database out of reach) while it runs them,
    // and taking one over under a new id would settle it while its network call may still land.
    adopt: (leases) => takeOver(leases.filter((l) => !book.holds(l.postId))),
    async adoptStranded(overdueBefore) {
      const all = book.takeStranded();
      try {
        const mine = await leasesOf(db, deps.workerId, all ? undefined : overdueBefore);
        return await takeOver(mine.filter((l) => !book.holds(l.postId)));
      } catch (err) {
        if (all) book.markStranded();
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
        book.letGo(prepared.attempt.postId);
        await releaseForResend(db, deps.jobs, prepared.attempt, isoAt(clock.now()));
      }
    },
  };
}
