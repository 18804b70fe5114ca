// What the publishing worker reads and writes. The worker acts on posts by id, across workspaces, so
// these queries are not workspace-scoped; nothing here is reachable from a request handler. Every
// change after the claim is conditioned on the attempt id: only the holder of a post's attempt lease
// can move it, and a worker that lost its lease (declared dead) writes nothing.
import type { Knex } from 'knex';
import { newId } from '../domain/ids.ts';
import type { ErrorBody } from '../domain/errors.ts';
import type { Checkpoint } from '../networks/connector.ts';
import type { Platform } from '../networks/rules.ts';
import type { Db } from './connect.ts';
import type { JobScheduler } from './jobs.ts';
import { toMediaRecord, type MediaRecord } from './mediaData.ts';
import { insertPostEvents, type NewEvent } from './postsData.ts';
import { nowIso } from './rows.ts';

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
  attemptStartedAt: string;
}

/** Takes the attempt lease of a due, queued post that nobody is sending; undefined when not ours to send. */
export async function claimDuePost(db: Db, postId: string, workerId: string, now: string): Promise<string | undefined> {
  const attemptId = newId('att');
  const claimed = await db('posts').where({ id: postId, status: 'queued' }).whereNull('attempt_id').where('due_at', '<=', now)
    .update({ attempt_id: attemptId, attempt_worker: workerId, attempt_started_at: now });
  return claimed ? attemptId : undefined;
}

export async function loadAttempt(db: Db, postId: string, attemptId: string): Promise<Attempt | undefined> {
  const row = await db('posts').join('accounts', 'accounts.id', 'posts.account_id').join('workspaces', 'workspaces.id', 'posts.workspace_id')
    .where({ 'posts.id': postId, 'posts.attempt_id': attemptId })
    .first('posts.*', 'workspaces.tz as workspace_tz', 'accounts.external_id', 'accounts.display_name', 'accounts.status as account_status', 'accounts.token_sealed');
  if (!row) return undefined;
  const settings = JSON.parse(row.per_platform) as Record<string, unknown>;
  // The post's files, then a file a setting names (a YouTube thumbnail), as PublishJob.media says.
  const named = typeof settings.thumbnailMediaId === 'string' ? [settings.thumbnailMediaId] : [];
  const mediaIds = [...(JSON.parse(row.media_ids) as string[]), ...named];
  const mediaRows = mediaIds.length ? await db('media').where({ workspace_id: row.workspace_id }).whereIn('id', mediaIds) : [];
  const media = mediaIds.flatMap((id) => mediaRows.filter((m) => m.id === id).map(toMediaRecord));
  return {
    postId, attemptId, workspaceId: row.workspace_id, workspaceTz: row.workspace_tz, platform: row.platform, text: row.text, title: row.title ?? null,
    tags: JSON.parse(row.tags), settings, media,
    account: { id: row.account_id, externalId: row.external_id, displayName: row.display_name, status: row.account_status, tokenSealed: row.token_sealed },
    checkpoint: row.checkpoint ? JSON.parse(row.checkpoint) : null, workerRetries: Number(row.worker_retries), attemptStartedAt: row.attempt_started_at,
  };
}

function leased(q: Knex, a: Pick<Attempt, 'postId' | 'attemptId'>) {
  return q('posts').where({ id: a.postId, attempt_id: a.attemptId });
}

/** Writes progress before a network call; false when the lease was lost (the caller must stop). */
export async function saveCheckpoint(db: Db, a: Attempt, checkpoint: Checkpoint): Promise<boolean> {
  return (await leased(db, a).update({ checkpoint: JSON.stringify(checkpoint) })) > 0;
}

export async function recordEvent(db: Db, a: Attempt, event: NewEvent): Promise<void> {
  await insertPostEvents(db, a.workspaceId, a.postId, [event], nowIso());
}

export async function markLive(db: Db, a: Attempt, published: { externalId: string; externalUrl: string; notes?: string[] }, message: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const now = nowIso();
    const n = await leased(trx, a).update({ status: 'live', external_id: published.externalId, external_url: published.externalUrl, live_at: now, attempt_id: null, attempt_worker: null,
      attempt_started_at: null, checkpoint: null, due_at: null, error_code: null, error_message: null, error_hint: null, updated_at: now });
    if (n) await insertPostEvents(trx, a.workspaceId, a.postId, [{ kind: 'live', message, ...(published.notes?.length ? { notes: published.notes } : {}) }], now);
    return n > 0;
  });
}

export async function markFailed(db: Db, a: Attempt, error: ErrorBody, accountStatus?: 'expired' | 'revoked'): Promise<boolean> {
  return db.transaction(async (trx) => {
    const now = nowIso();
    const n = await leased(trx, a).update({ status: 'failed', error_code: error.code, error_message: error.message, error_hint: error.hint,
      attempt_id: null, attempt_worker: null, attempt_started_at: null, checkpoint: null, due_at: null, updated_at: now });
    if (!n) return false;
    await insertPostEvents(trx, a.workspaceId, a.postId, [{ kind: 'failed', error }], now);
    if (accountStatus) await trx('accounts').where({ id: a.account.id, status: 'ok' }).update({ status: accountStatus });
    return true;
  });
}

/** A temporary failure: the post stays queued and its job runs again at `dueAt`; progress is kept. */
export async function retryLater(db: Db, jobs: JobScheduler, a: Attempt, error: ErrorBody, dueAt: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const now = nowIso();
    const n = await leased(trx, a).update({ due_at: dueAt, worker_retries: a.workerRetries + 1, attempt_id: null, attempt_worker: null,
      attempt_started_at: null, updated_at: now });
    if (!n) return false;
    await insertPostEvents(trx, a.workspaceId, a.postId, [{ kind: 'retriedByWorker', error, publishAt: dueAt,
      message: `Retrying by itself at ${dueAt} after a temporary failure.` }], now);
    await jobs.schedule(trx, a.postId, dueAt);
    return true;
  });
}

/** Settling found the post did not go out: send it again now, keeping what the attempt recorded. */
export async function releaseForResend(db: Db, jobs: JobScheduler, a: Attempt): Promise<void> {
  await db.transaction(async (trx) => {
    const now = nowIso();
    const n = await leased(trx, a).update({ attempt_id: null, attempt_worker: null, attempt_started_at: null, due_at: now });
    if (n) await jobs.schedule(trx, a.postId, now);
  });
}

export async function storeCredentials(db: Db, accountId: string, sealed: string, expiresAt: string | null): Promise<void> {
  await db('accounts').where({ id: accountId }).update({ token_sealed: sealed, token_expires_at: expiresAt });
}

/** Worker liveness: a worker whose heartbeat is older than the watchdog's limit is dead. */
export async function heartbeat(db: Db, workerId: string, startedAt: string): Promise<void> {
  await db('workers').insert({ id: workerId, started_at: startedAt, heartbeat_at: nowIso(), pid: process.pid })
    .onConflict('id').merge(['heartbeat_at']);
}

export async function retireWorker(db: Db, workerId: string): Promise<void> {
  await db('workers').where({ id: workerId }).delete();
}

/** Attempts held by workers that stopped beating (or are gone): their posts must be settled. */
export async function orphanedAttempts(db: Db, staleBefore: string): Promise<{ postId: string; attemptId: string }[]> {
  const rows = await db('posts').leftJoin('workers', 'workers.id', 'posts.attempt_worker').whereNotNull('posts.attempt_id')
    .where((w) => w.whereNull('workers.id').orWhere('workers.heartbeat_at', '<', staleBefore))
    .select('posts.id', 'posts.attempt_id').limit(100);
  return rows.map((r) => ({ postId: r.id, attemptId: r.attempt_id }));
}

/** Moves a dead worker's lease to this worker; undefined when another worker took it first. */
export async function takeOverAttempt(db: Db, postId: string, oldAttemptId: string, workerId: string): Promise<string | undefined> {
  const attemptId = newId('att');
  const n = await db('posts').where({ id: postId, attempt_id: oldAttemptId }).update({ attempt_id: attemptId, attempt_worker: workerId });
  return n ? attemptId : undefined;
}

/** Queued posts overdue by more than `graceMs` with nobody sending them: candidates for a lost job. */
export async function overduePosts(db: Db, overdueBefore: string): Promise<string[]> {
  return (await db('posts').where({ status: 'queued' }).whereNull('attempt_id').where('due_at', '<', overdueBefore).select('id').limit(500)).map((r) => r.id);
}
