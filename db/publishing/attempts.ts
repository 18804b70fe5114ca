// An attempt's start: due posts reserved for a worker and loaded, started (the network may be called), checkpointed.
// The worker acts on posts by id, across workspaces, so these queries are not workspace-scoped; nothing here is
// reachable from a request handler. Every change after the claim is conditioned on the attempt id: only the holder
// of a post's attempt lease can move it, and a worker that lost its lease (declared dead) writes nothing. The states
// set and matched are the state table's (domain/postStates.ts); `now` is the worker's clock.
import type { Knex } from 'knex';
import { newId } from '../../domain/ids.ts';
import { storedStatus, systemMove } from '../../domain/postStates.ts';
import type { Checkpoint } from '../../networks/connector.ts';
import { filesNamedBySettings } from '../../networks/index.ts';
import type { Platform } from '../../networks/rules.ts';
import type { Db } from '../connect.ts';
import { toMediaRecord, type MediaRecord } from '../mediaData.ts';
import { eventRows } from '../postEvents.ts';
import { besideBatch, joinRows, returned, updateLeased, updateLeasedRecording, type Row } from './leasedBatch.ts';

// What a worker's action sets and matches, from the state table.
const START = systemMove('start');
/** The stored status of the posts a worker may reserve and start (queued). */
export const STARTABLE = storedStatus(START.from[0]!);

export interface Attempt {
  postId: string;
  attemptId: string;
  workspaceId: string;
  workspaceTz: string;
  platform: Platform;
  text: string;
  title: string | null;
  tags: string[];
  settings: Record<string, unknown>;
  media: MediaRecord[];
  account: { id: string; externalId: string; displayName: string; status: string; tokenSealed: string | null };
  checkpoint: Checkpoint | null;
  workerRetries: number;
  /** When the post is due (ISO instant): an attempt is reserved ahead of it and starts at it. */
  dueAt: string;
  /** The time the post was promised for (ISO instant): its due time, or earlier once it was retried. */
  publishAt: string;
  /** Whether the attempt has started: from then on the network may have been called. */
  started: boolean;
  /** Whether a change to the post waits for approval: its start drops it, for only approved content goes out. */
  changeWaiting: boolean;
  /**
   * Whether the post's latest timeline row is a `publishing` event: an attempt that resumes one cut short (its
   * worker stopped, or settling found nothing sent) says nothing new; any other start is an attempt of its own.
   */
  announced: boolean;
}

/** A post's attempt lease; `started: false` when it was found a reservation (nothing sent). */
export interface Lease {
  postId: string;
  attemptId: string;
  started?: boolean;
}

/**
 * Reserves due posts for this worker: the attempt lease of each queued post due by `horizon` that
 * nobody holds, in one statement. The attempt has not started: a person may still change the post,
 * which takes the reservation back. Answers the loaded attempt, or undefined when not ours to send.
 */
export async function reservePosts(
  db: Db,
  postIds: string[],
  workerId: string,
  horizon: string,
): Promise<(Attempt | undefined)[]> {
  const ids = [...new Set(postIds)];
  const v = joinRows(
    db,
    ['v_attempt'],
    ids.map((id) => [id, newId('att')]),
  );
  const result = await db.raw(
    `update posts set attempt_id = v.v_attempt, attempt_worker = ? from ${v.from}
    where ${v.match} and ${besideBatch(db, 'posts.status')} = ? and posts.attempt_id is null
      and ${besideBatch(db, 'posts.due_at')} <= ? returning id, attempt_id`,
    [workerId, ...v.fromBindings, ...v.matchBindings, STARTABLE, horizon],
  );
  const attempts = await loadAttempts(
    db,
    returned(result).map((r) => ({ postId: r.id, attemptId: r.attempt_id })),
  );
  // A post asked for twice in one batch (two of its jobs prepared at once: a retry's and the watchdog's, say) goes to
  // its first caller only: two callers holding one lease would both send it.
  const handed = new Set<string>();
  return postIds.map((id) => {
    if (handed.has(id)) return undefined;
    handed.add(id);
    return attempts.find((a) => a.postId === id);
  });
}

export async function loadAttempts(db: Db, leases: Lease[]): Promise<Attempt[]> {
  if (!leases.length) return [];
  const rows: Row[] = await db('posts')
    .join('accounts', 'accounts.id', 'posts.account_id')
    .join('workspaces', 'workspaces.id', 'posts.workspace_id')
    .whereIn(
      'posts.id',
      leases.map((l) => l.postId),
    )
    .select(
      'posts.*',
      'workspaces.tz as workspace_tz',
      'accounts.external_id',
      'accounts.display_name',
      'accounts.status as account_status',
      'accounts.token_sealed',
      // The timeline's latest row (its insertion order, which the post's one lease at a time keeps), by its index.
      db.raw(
        '(select kind from post_events where post_events.post_id = posts.id order by seq desc limit 1) as last_kind',
      ),
    );
  const held = rows.filter((row) => leases.some((l) => l.postId === row.id && l.attemptId === row.attempt_id));
  // The posts' files, then the files its settings name (a YouTube thumbnail), as PublishJob.media says.
  const mediaIdsOf = (row: Row, settings: Record<string, unknown>) => [
    ...(JSON.parse(row.media_ids) as string[]),
    ...filesNamedBySettings(row.platform, settings),
  ];
  const parsed = held.map((row) => ({ row, settings: JSON.parse(row.per_platform) as Record<string, unknown> }));
  const wanted = parsed.flatMap(({ row, settings }) => mediaIdsOf(row, settings));
  const mediaRows: Row[] = wanted.length ? await db('media').whereIn('id', [...new Set(wanted)]) : [];
  return parsed.map(({ row, settings }) => ({
    postId: row.id,
    attemptId: row.attempt_id,
    workspaceId: row.workspace_id,
    workspaceTz: row.workspace_tz,
    platform: row.platform,
    text: row.text,
    title: row.title ?? null,
    tags: JSON.parse(row.tags),
    settings,
    media: mediaIdsOf(row, settings).flatMap((id) =>
      mediaRows.filter((m) => m.id === id && m.workspace_id === row.workspace_id).map(toMediaRecord),
    ),
    account: {
      id: row.account_id,
      externalId: row.external_id,
      displayName: row.display_name,
      status: row.account_status,
      tokenSealed: row.token_sealed,
    },
    checkpoint: row.checkpoint ? JSON.parse(row.checkpoint) : null,
    workerRetries: Number(row.worker_retries),
    dueAt: row.due_at,
    publishAt: row.publish_at ?? row.due_at,
    started: row.attempt_started_at !== null,
    changeWaiting: row.pending_change !== null && row.pending_change !== undefined,
    announced: row.last_kind === 'publishing',
  }));
}

export function leased(q: Knex, a: Pick<Attempt, 'postId' | 'attemptId'>) {
  return q('posts').where({ id: a.postId, attempt_id: a.attemptId });
}

export const leaseOf = (a: Pick<Attempt, 'postId' | 'attemptId'>) => [a.postId, a.attemptId];

const CHANGE_DROPPED =
  'The change that waited for approval was dropped: its time came first, so the approved content is published.';

/**
 * Starts reserved attempts, each with its first checkpoint when it has one, and their `publishing` events,
 * atomically: from here on the network may show the post, and a person can no longer change it. Attempts
 * whose post changed meanwhile (its reservation taken back) are not started. A change waiting for approval beside
 * the post is dropped, and its event says so: what goes out is what was approved. Answers whether each started.
 */
export async function startAttempts(
  db: Db,
  items: { attempt: Attempt; message: string; checkpoint?: Checkpoint }[],
  now: string,
): Promise<boolean[]> {
  // A post named twice in a batch (two holders of its attempt, or a lease beside the one that replaced it) is started
  // for its first item only, and only if that item's lease is the post's: never both.
  const firstOf = new Map<string, (typeof items)[number]>();
  for (const i of items) if (!firstOf.has(i.attempt.postId)) firstOf.set(i.attempt.postId, i);
  const firsts = [...firstOf.values()];
  const started = await updateLeasedRecording(
    db,
    {
      set: `attempt_started_at = ?, updated_at = ?, checkpoint = coalesce(v.v_checkpoint, posts.checkpoint),
        pending_change = null, approval_state = null, approval_requested_by = null, approval_requested_at = null,
        approval_wanted_at = null`,
      setBindings: [now, now],
      columns: ['v_checkpoint'],
      rows: firsts.map((i) => [...leaseOf(i.attempt), i.checkpoint ? JSON.stringify(i.checkpoint) : null]),
      // Started once: a second start of the same lease (its first answer lost, or a second holder) is refused, so
      // the network is called by one of them only, and what the first did is settled, never sent again blindly.
      where: `and ${besideBatch(db, 'posts.status')} = '${STARTABLE}' and posts.attempt_started_at is null`,
    },
    // Every attempt's start is a `publishing` event, a worker's retry that keeps its progress too; a resend of an
    // attempt already told (its latest event) keeps that one.
    eventRows(
      firsts
        .filter((i) => !i.attempt.announced)
        .map((i) => ({
          workspaceId: i.attempt.workspaceId,
          postId: i.attempt.postId,
          event: {
            kind: 'publishing',
            message: i.attempt.changeWaiting ? `${i.message} ${CHANGE_DROPPED}` : i.message,
          },
        })),
      now,
    ),
  );
  return items.map((i) => firstOf.get(i.attempt.postId) === i && started.has(i.attempt.postId));
}

/** Writes progress before network calls; false for an attempt whose lease was lost (it must stop). */
export async function saveCheckpoints(
  db: Db,
  items: { attempt: Attempt; checkpoint: Checkpoint }[],
): Promise<boolean[]> {
  const saved = await updateLeased(db, {
    set: 'checkpoint = v.v_checkpoint',
    setBindings: [],
    columns: ['v_checkpoint'],
    rows: items.map((i) => [...leaseOf(i.attempt), JSON.stringify(i.checkpoint)]),
  });
  return items.map((i) => saved.has(i.attempt.postId));
}
