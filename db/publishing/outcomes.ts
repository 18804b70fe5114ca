// An attempt's end, on the post it holds: live, failed, retried later, in the network's review, or given back.
import type { ErrorBody } from '../../domain/errors.ts';
import { storedStatus, systemMove } from '../../domain/postStates.ts';
import type { Db } from '../connect.ts';
import { recordEvents } from '../events.ts';
import type { JobScheduler } from '../jobs.ts';
import { eventRows, insertPostEvents, type NewEvent } from '../postEvents.ts';
import { leased, leaseOf, type Attempt } from './attempts.ts';
import { updateLeasedRecording } from './leasedBatch.ts';

// What a worker's action sets and matches, from the state table.
const SUCCEED = systemMove('succeed');
const FAIL = systemMove('fail');

export interface LiveOutcome {
  attempt: Attempt;
  published: {
    externalId: string;
    externalUrl: string;
    notes?: string[];
    liveNote?: string;
    shownPrivately?: boolean;
  };
  message: string;
}

/** Records posts as live, with their `live` events, atomically; false where the lease was lost. */
export async function markLiveMany(db: Db, outcomes: LiveOutcome[], now: string): Promise<boolean[]> {
  const live = await updateLeasedRecording(
    db,
    {
      set: `status = '${storedStatus(SUCCEED.to)}', external_id = v.v_external_id,
      external_url = v.v_external_url, live_note = v.v_live_note, shown_privately = (v.v_shown_privately = 'true'),
      live_at = ?, attempt_id = null, attempt_worker = null, attempt_started_at = null, checkpoint = null,
      due_at = null, error_code = null, error_message = null, error_hint = null, error_network_message = null,
      review_since = null, updated_at = ?`,
      setBindings: [now, now],
      columns: ['v_external_id', 'v_external_url', 'v_live_note', 'v_shown_privately'],
      rows: outcomes.map((o) => [
        ...leaseOf(o.attempt),
        o.published.externalId,
        o.published.externalUrl,
        o.published.liveNote ?? null,
        String(o.published.shownPrivately === true),
      ]),
    },
    eventRows(
      outcomes.map((o) => ({
        workspaceId: o.attempt.workspaceId,
        postId: o.attempt.postId,
        event: {
          kind: 'live',
          message: o.message,
          ...(o.published.notes?.length || o.published.liveNote
            ? {
                notes: [...(o.published.notes ?? []), ...(o.published.liveNote ? [o.published.liveNote] : [])],
              }
            : {}),
        },
      })),
      now,
    ),
  );
  return outcomes.map((o) => live.has(o.attempt.postId));
}

const CHANGE_DROPPED: NewEvent = {
  kind: 'rejected',
  message: 'The change that waited for approval was dropped: the post failed before it was sent.',
  reason: 'leftQueue',
  change: true,
};

export async function markFailed(
  db: Db,
  a: Attempt,
  error: ErrorBody,
  now: string,
  accountStatus?: 'expired' | 'revoked',
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const n = await leased(trx, a).update({
      status: storedStatus(FAIL.to),
      error_code: error.code,
      error_message: error.message,
      error_hint: error.hint,
      error_network_message: error.networkMessage ?? null,
      attempt_id: null,
      attempt_worker: null,
      attempt_started_at: null,
      checkpoint: null,
      due_at: null,
      review_since: null,
      // A change waiting for approval beside the post (one that fails before its attempt starts still has it)
      // waits only beside a queued post: the post leaving the queue drops it, as a person's change does.
      pending_change: null,
      approval_state: null,
      approval_requested_by: null,
      approval_requested_at: null,
      approval_wanted_at: null,
      updated_at: now,
    });
    if (!n) return false;
    const events: NewEvent[] = [{ kind: 'failed', error }];
    if (a.changeWaiting && !a.started) events.push(CHANGE_DROPPED);
    await insertPostEvents(trx, a.workspaceId, a.postId, events, now);
    if (!accountStatus) return true;
    const changed = await trx('accounts').where({ id: a.account.id, status: 'ok' }).update({ status: accountStatus });
    if (changed)
      await recordEvents(
        trx,
        [{ workspaceId: a.workspaceId, type: 'account.needs_reconnect', objectId: a.account.id }],
        now,
      );
    return true;
  });
}

/** A temporary failure: the post stays queued and its job runs again at `dueAt`; progress is kept. */
export async function retryLater(
  db: Db,
  jobs: JobScheduler,
  a: Attempt,
  error: ErrorBody,
  dueAt: string,
  now: string,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const n = await leased(trx, a).update({
      due_at: dueAt,
      worker_retries: a.workerRetries + 1,
      attempt_id: null,
      attempt_worker: null,
      attempt_started_at: null,
      updated_at: now,
    });
    if (!n) return false;
    await insertPostEvents(
      trx,
      a.workspaceId,
      a.postId,
      [
        {
          kind: 'retriedByWorker',
          error,
          publishAt: dueAt,
          message: `Retrying by itself at ${dueAt} after a temporary failure.`,
        },
      ],
      now,
    );
    await jobs.schedule(trx, a.postId, dueAt);
    return true;
  });
}

/**
 * The network took the post and is still reviewing it: not a failure. The post stays queued with its
 * progress, its job runs again at `dueAt` to ask the network, and the first time its timeline gets `note`
 * (a `publishing` event) and the post the time its review started.
 */
export async function awaitReview(
  db: Db,
  jobs: JobScheduler,
  a: Attempt,
  note: string,
  dueAt: string,
  now: string,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const held = await leased(trx, a).first('review_since');
    if (!held) return false;
    await leased(trx, a).update({
      due_at: dueAt,
      review_since: held.review_since ?? now,
      attempt_id: null,
      attempt_worker: null,
      attempt_started_at: null,
      updated_at: now,
    });
    if (!held.review_since)
      await insertPostEvents(trx, a.workspaceId, a.postId, [{ kind: 'publishing', message: note }], now);
    await jobs.schedule(trx, a.postId, dueAt);
    return true;
  });
}

/**
 * Gives the post back to the queue, keeping what the attempt recorded: settling found it did not go
 * out, or its worker stops before the due time. It is sent at its due time, or now if that passed.
 */
export async function releaseForResend(db: Db, jobs: JobScheduler, a: Attempt, now: string): Promise<void> {
  await db.transaction(async (trx) => {
    const dueAt = a.dueAt > now ? a.dueAt : now;
    const n = await leased(trx, a).update({
      attempt_id: null,
      attempt_worker: null,
      attempt_started_at: null,
      due_at: dueAt,
    });
    if (n) await jobs.schedule(trx, a.postId, dueAt);
  });
}
