// An attempt made ready for its time: its job built, then at its time the network's call, its start recorded.
import { isDatabaseUnavailable } from '../db/connect.ts';
import { markFailed, markLiveMany, type LiveOutcome } from '../db/publishing/outcomes.ts';
import { saveCheckpoints, startAttempts, type Attempt } from '../db/publishing/attempts.ts';
import { usableAccount } from '../networks/accountCredentials.ts';
import type { Checkpoint, Connector, PublishJob } from '../networks/connector.ts';
import { hintFor } from '../networks/failureGuidance.ts';
import { networkOf } from '../networks/index.ts';
import { batcher } from '../runtime/batcher.ts';
import { isoAt } from '../runtime/clock.ts';
import { attemptOutcomes, LeaseLost } from './attemptOutcomes.ts';
import type { Slot } from './launcher.ts';
import type { PublishDeps } from './publishDeps.ts';
import { publishMedia } from './publishMedia.ts';

/** An attempt ready to run: what to do at its due time, holding a launcher slot. */
export interface Prepared {
  attempt: Attempt;
  run(slot: Slot): Promise<void>;
}

/** Makes attempts ready: `publish` sends the post, `settle` asks the network what an attempt cut short did. */
export function attemptPreparer(deps: PublishDeps): (a: Attempt, mode: 'publish' | 'settle') => Promise<Prepared> {
  const { db, clock } = deps;
  // Group commit: the writes of attempts running together go to the database as one statement each.
  const start = batcher((items: { attempt: Attempt; message: string; checkpoint?: Checkpoint }[]) =>
    startAttempts(db, items, isoAt(clock.now())),
  );
  const checkpoint = batcher((items: { attempt: Attempt; checkpoint: Checkpoint }[]) => saveCheckpoints(db, items));
  const live = batcher((outcomes: LiveOutcome[]) => markLiveMany(db, outcomes, isoAt(clock.now())));
  const { failure, settleWith } = attemptOutcomes(deps, live);

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
        if (err instanceof LeaseLost) return;
        // A refusal before the first checkpoint still follows a `publishing` event in the timeline.
        if (!(await began(a))) {
          // Not started now: a person changed the post, or a start whose answer the database cut lost went through
          // (an attempt starts once), and that one is settled from its lease (the watchdog's stranded pass).
          if (isDatabaseUnavailable(err)) throw err;
          return;
        }
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

  return prepareAttempt;
}
