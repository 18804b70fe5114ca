// The publish task: a due post goes live on its network exactly once, or fails with the network's
// own words and the spec's retry guidance. The attempt lease is taken before any network call and
// every step is recorded (checkpoint) before the call that could change something on the network,
// so an attempt that dies midway is settled from what the network says, never blindly resent.
import type { Db } from '../db/connect.ts';
import type { JobScheduler } from '../db/jobs.ts';
import {
  claimDuePost, loadAttempt, markFailed, markLive, recordEvent, releaseForResend, retryLater, saveCheckpoint, storeCredentials, type Attempt,
} from '../db/publishing.ts';
import type { ErrorBody } from '../domain/errors.ts';
import { NetworkError, readCredentials, type Connector, type PublishJob } from '../networks/connector.ts';
import { networkOf } from '../networks/index.ts';
import type { Platform } from '../networks/rules.ts';
import type { Keyring } from '../runtime/crypto.ts';
import type { Logger } from '../runtime/logger.ts';
import type { Storage } from '../storage/storage.ts';
import { publishMedia } from './publishMedia.ts';
import { accountStatusAfter, hintFor, isTemporary } from '../networks/failureGuidance.ts';

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

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
}

/** Refresh an access token this long before it expires. */
const REFRESH_AHEAD_MS = 10 * 60_000;

/** Thrown when this worker no longer holds the post's lease (the watchdog gave it to another). */
class LeaseLost extends Error {}

const iso = (ms: number) => new Date(ms).toISOString();

/** The job's entry point: publish the post if it is due and nobody is sending it. */
export async function publishDuePost(deps: PublishDeps, postId: string): Promise<void> {
  const attemptId = await claimDuePost(deps.db, postId, deps.workerId, iso(deps.clock.now()));
  if (attemptId) await runAttempt(deps, postId, attemptId, 'publish');
}

/** For the watchdog: finish a dead worker's attempt, after taking over its lease. */
export async function settleAttempt(deps: PublishDeps, postId: string, attemptId: string): Promise<void> {
  await runAttempt(deps, postId, attemptId, 'settle');
}

async function runAttempt(deps: PublishDeps, postId: string, attemptId: string, mode: 'publish' | 'settle'): Promise<void> {
  const { db } = deps;
  const a = await loadAttempt(db, postId, attemptId);
  if (!a) return;
  const label = networkOf(a.platform).label;
  const connector = deps.connectorFor(a.platform);
  if (!connector) {
    await markFailed(db, a, { code: `${a.platform}_unavailable`, message: `Publishing to ${label} is not available in this version.`,
      hint: `Remove the ${label} account from the post's targets.` });
    return;
  }
  if (a.account.status !== 'ok' || !a.account.tokenSealed) {
    await markFailed(db, a, { code: `${a.platform}_token_rejected`, message: `The ${label} account ${a.account.displayName} is ${a.account.status}; its token no longer works.`,
      hint: hintFor('token_rejected', label) });
    return;
  }
  let job: PublishJob | undefined;
  try {
    job = await buildJob(deps, a, connector);
    if (mode === 'settle') {
      await settle(deps, a, connector, job, label);
      return;
    }
    if (!a.checkpoint) await recordEvent(db, a, { kind: 'publishing', message: `Sending to ${label}.` });
    const published = await connector.publish(job);
    await markLive(db, a, published, `Published on ${label}.`);
  } catch (err) {
    if (err instanceof LeaseLost) return;
    if (err instanceof NetworkError) {
      await handleRefusal(deps, a, err, label);
      return;
    }
    // Our own fault or an answer we could not read: whether the network acted is unknown, so ask it.
    deps.logger.error({ err, postId }, 'publish attempt stopped unexpectedly');
    if (job && mode === 'publish') {
      try {
        await settle(deps, a, connector, job, label, (err as Error).message);
        return;
      } catch (settleErr) {
        deps.logger.error({ err: settleErr, postId }, 'settling after an unexpected stop failed');
      }
    }
    await markFailed(db, a, outcomeUnknown(a.platform, label));
  }
}

async function buildJob(deps: PublishDeps, a: Attempt, connector: Connector): Promise<PublishJob> {
  let credentials = readCredentials(deps.keyring.decrypt(a.account.tokenSealed!));
  const account = { id: a.account.id, externalId: a.account.externalId, displayName: a.account.displayName, credentials };
  if (connector.refresh && credentials.expiresAt && Date.parse(credentials.expiresAt) - deps.clock.now() < REFRESH_AHEAD_MS) {
    const fresh = await connector.refresh(account);
    // A network that returns no new refresh token keeps the old one valid: never lose it.
    credentials = { ...fresh, refreshToken: fresh.refreshToken ?? credentials.refreshToken };
    account.credentials = credentials;
    await storeCredentials(deps.db, a.account.id, deps.keyring.encrypt(JSON.stringify(credentials)), credentials.expiresAt ?? null);
  }
  const job: PublishJob = {
    postId: a.postId, text: a.text, title: a.title, tags: a.tags, settings: a.settings, account,
    media: a.media.map((m) => publishMedia(deps.storage, m)),
    marker: `herald-${a.postId}`,
    checkpoint: a.checkpoint,
    async saveCheckpoint(checkpoint) {
      if (!(await saveCheckpoint(deps.db, a, checkpoint))) throw new LeaseLost();
      job.checkpoint = checkpoint;
    },
    sleep: (ms) => deps.clock.sleep(ms),
  };
  return job;
}

/** After an attempt stopped midway: live, resend, or fail with "check the account" — never a blind resend. */
async function settle(deps: PublishDeps, a: Attempt, connector: Connector, job: PublishJob, label: string, cause?: string): Promise<void> {
  const outcome = job.checkpoint ? await connector.settle(job) : 'not_published';
  if (outcome === 'unknown') {
    await markFailed(deps.db, a, outcomeUnknown(a.platform, label));
  } else if (outcome !== 'not_published') {
    await markLive(deps.db, a, outcome, `Published on ${label} (confirmed after the attempt stopped midway).`);
  } else if (cause !== undefined) {
    // It did not go out because of our own fault: count it as a temporary failure, so a fault that
    // repeats ends in `failed` instead of a loop.
    await handleRefusal(deps, a, new NetworkError(a.platform, 'unavailable', `Herald could not complete the request: ${cause}`), label);
  } else {
    await releaseForResend(deps.db, deps.jobs, a);
  }
}

async function handleRefusal(deps: PublishDeps, a: Attempt, err: NetworkError, label: string): Promise<void> {
  const error: ErrorBody = { code: err.code, message: `${label} answered: "${err.message}"`, hint: hintFor(err.kind, label) };
  const delay = deps.retryDelaysMs[a.workerRetries];
  if (isTemporary(err.kind) && delay !== undefined) {
    const wait = Math.max(delay, (err.retryAfterSeconds ?? 0) * 1000);
    await retryLater(deps.db, deps.jobs, a, error, iso(deps.clock.now() + wait));
  } else {
    await markFailed(deps.db, a, error, accountStatusAfter(err.kind));
  }
}

function outcomeUnknown(platform: Platform, label: string): ErrorBody {
  return {
    code: `${platform}_outcome_unknown`,
    message: `The attempt to publish stopped midway and ${label} offers no way to tell whether the post went out.`,
    hint: `Check the ${label} account before retrying: retry only if the post is not there.`,
  };
}
