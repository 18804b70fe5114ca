// How an attempt ends once the network answered or a step failed: live, failed, retried later, in review, settled.
import { DateTime } from 'luxon';
import { isDatabaseUnavailable } from '../db/connect.ts';
import type { Attempt } from '../db/publishing/attempts.ts';
import { awaitReview, markFailed, releaseForResend, retryLater, type LiveOutcome } from '../db/publishing/outcomes.ts';
import type { ErrorBody } from '../domain/errors.ts';
import { NetworkError, NotYetPublished, type Connector, type PublishJob } from '../networks/connector.ts';
import { accountStatusAfter, hintFor, isTemporary } from '../networks/failureGuidance.ts';
import { networkOf } from '../networks/index.ts';
import type { Platform } from '../networks/rules.ts';
import { isoAt } from '../runtime/clock.ts';
import type { PublishDeps } from './publishDeps.ts';

/** Thrown when this worker no longer holds the post's lease (the watchdog gave it to another). */
export class LeaseLost extends Error {}

/** An attempt's endings; `live` records a post as live (batched with the other attempts running together). */
export function attemptOutcomes(deps: PublishDeps, live: (outcome: LiveOutcome) => Promise<boolean>) {
  const { db, clock } = deps;

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
      networkMessage: err.message,
    };
    const retryAt = nextAttemptMs(a, err);
    if (retryAt !== undefined) await retryLater(db, deps.jobs, a, error, isoAt(retryAt), isoAt(clock.now()));
    else await markFailed(db, a, error, isoAt(clock.now()), accountStatusAfter(err.kind));
  }

  return { failure, settleWith };
}

function outcomeUnknown(platform: Platform, label: string): ErrorBody {
  return {
    code: `${platform}_outcome_unknown`,
    message: `The attempt to publish stopped midway and ${label} offers no way to tell whether the post went out.`,
    hint: `Check the ${label} account before retrying: retry only if the post is not there.`,
  };
}
