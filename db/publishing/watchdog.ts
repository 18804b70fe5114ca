// The watchdog's part: workers' heartbeats, attempts of workers gone taken over, posts overdue without a job.
import { newId } from '../../domain/ids.ts';
import type { Db } from '../connect.ts';
import { loadAttempts, STARTABLE, type Attempt, type Lease } from './attempts.ts';
import { updateLeased } from './leasedBatch.ts';

/** A worker as the workers table has it: `host` (runtime/processHost.ts) says where its pid means it. */
export interface WorkerRow {
  id: string;
  startedAt: string;
  host: string | null;
}

/** Worker liveness: a worker whose heartbeat is older than the watchdog's limit is dead. */
export async function heartbeat(db: Db, worker: WorkerRow, now: string): Promise<void> {
  await db('workers')
    .insert({ id: worker.id, started_at: worker.startedAt, heartbeat_at: now, pid: process.pid, host: worker.host })
    .onConflict('id')
    .merge(['heartbeat_at']);
}

/** Other workers recorded on `host`, with their pids: the caller tells which processes are gone. */
export async function workersOn(db: Db, host: string, except: string): Promise<{ id: string; pid: number }[]> {
  const rows = await db('workers').where({ host }).whereNot({ id: except }).select('id', 'pid');
  return rows.map((r) => ({ id: r.id, pid: Number(r.pid) }));
}

export async function retireWorker(db: Db, workerId: string): Promise<void> {
  await db('workers').where({ id: workerId }).delete();
}

/**
 * Attempts to take over: those held by workers gone or silent since `staleBefore`, and reservations (not started:
 * nothing was sent for them, so another worker may take them whatever their holder does) of workers silent since
 * `silentBefore` or whose process is `gone`. A live worker's reservations stay its own however late they run (a backlog
 * waiting for its turn): taking them would only pass the backlog back and forth between workers, each start losing
 * its lease to the other.
 */
export async function orphanedAttempts(
  db: Db,
  limits: { staleBefore: string; silentBefore: string; gone: string[]; limit: number },
): Promise<(Lease & { dueAt: string })[]> {
  // attempt_worker is set and cleared with attempt_id: its index finds the few held posts among millions.
  const rows = await db('posts')
    .leftJoin('workers', 'workers.id', 'posts.attempt_worker')
    .whereNotNull('posts.attempt_worker')
    .whereNotNull('posts.attempt_id')
    .where((w) =>
      w
        .whereNull('workers.id')
        .orWhere('workers.heartbeat_at', '<', limits.staleBefore)
        .orWhere((x) =>
          x
            .whereNull('posts.attempt_started_at')
            .where((y) =>
              y.where('workers.heartbeat_at', '<', limits.silentBefore).orWhereIn('workers.id', limits.gone),
            ),
        ),
    )
    .select('posts.id', 'posts.attempt_id', 'posts.due_at', 'posts.attempt_started_at')
    // Started attempts first (they wait to be settled), then the posts promised earliest (a retry's due time is later).
    .orderByRaw('posts.attempt_started_at is null, coalesce(posts.publish_at, posts.due_at)')
    .limit(limits.limit);
  return rows.map((r) => ({
    postId: r.id,
    attemptId: r.attempt_id,
    dueAt: r.due_at,
    started: r.attempt_started_at !== null,
  }));
}

/**
 * The leases a worker holds, as the database has them (its own view is what it holds in memory); with `dueBefore`,
 * only those due before it.
 */
export async function leasesOf(db: Db, workerId: string, dueBefore?: string): Promise<Lease[]> {
  const query = db('posts').where({ attempt_worker: workerId }).whereNotNull('attempt_id');
  if (dueBefore) query.where('due_at', '<', dueBefore);
  const rows = await query.select('id', 'attempt_id');
  return rows.map((r) => ({ postId: r.id, attemptId: r.attempt_id }));
}

/**
 * Moves leases to this worker under new attempt ids, in one statement;
 * answers the attempts it took (others were taken first). A lease found a reservation is taken only while it still
 * is one: a silent holder may have come back and started it meanwhile, and is sending it.
 */
export async function takeOverAttempts(db: Db, leases: Lease[], workerId: string): Promise<Attempt[]> {
  const moves = leases.map((l) => [l.postId, l.attemptId, newId('att'), l.started === false ? 'reserved' : null]);
  const taken = await updateLeased(db, {
    set: 'attempt_id = v.v_new, attempt_worker = ?',
    setBindings: [workerId],
    columns: ['v_new', 'v_reserved'],
    rows: moves,
    where: 'and (v.v_reserved is null or posts.attempt_started_at is null)',
  });
  return loadAttempts(
    db,
    moves
      .filter(([postId]) => taken.has(postId!))
      .map(([postId, , attemptId]) => ({ postId: postId!, attemptId: attemptId! })),
  );
}

/** Queued posts due before `overdueBefore` that no worker reserved (of `among`, if given): maybe lost their job. */
export async function overduePosts(db: Db, overdueBefore: string, among?: string[]): Promise<string[]> {
  const query = db('posts').where({ status: STARTABLE }).whereNull('attempt_id').where('due_at', '<', overdueBefore);
  if (among) query.whereIn('id', among);
  return (await query.select('id').limit(500)).map((r) => r.id);
}
