// What the publishing worker reads and writes. The worker acts on posts by id, across workspaces, so
// these queries are not workspace-scoped; nothing here is reachable from a request handler. Every
// change after the claim is conditioned on the attempt id: only the holder of a post's attempt lease
// can move it, and a worker that lost its lease (declared dead) writes nothing. The states set and
// matched are the state table's (domain/postStates.ts); `now` is the worker's clock.
import type { Knex } from 'knex';
import { newId } from '../domain/ids.ts';
import type { ErrorBody } from '../domain/errors.ts';
import { storedStatus, systemMove } from '../domain/postStates.ts';
import type { Checkpoint } from '../networks/connector.ts';
import { filesNamedBySettings } from '../networks/index.ts';
import type { Platform } from '../networks/rules.ts';
import { isPostgres, onSqliteConnection, type Db } from './connect.ts';
import type { JobScheduler } from './jobs.ts';
import { recordEvents } from './events.ts';
import { toMediaRecord, type MediaRecord } from './mediaData.ts';
import { eventRows, eventsOfTimeline, insertPostEvents } from './postsData.ts';

// What a worker's action sets and matches, from the state table.
const START = systemMove('start');
const SUCCEED = systemMove('succeed');
const FAIL = systemMove('fail');
/** The stored status of the posts a worker may reserve and start (queued). */
const STARTABLE = storedStatus(START.from[0]!);

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

type Row = Record<string, any>;

/**
 * Rows as a derived table `v` joined to posts by `v_id`, from one JSON parameter (so a batch is one
 * short statement to plan, whatever its size). Column names start with `v_` so they never clash with
 * the updated table's in RETURNING. On PostgreSQL the ids are also given as an array, so the posts
 * are found through their primary key whatever the planner believes about the table's size.
 */
function joinRows(q: Knex, columns: string[], rows: (string | null)[][]) {
  const all = ['v_id', ...columns];
  if (isPostgres(q)) {
    const objects = rows.map((row) => Object.fromEntries(all.map((c, i) => [c, row[i]])));
    return {
      from: `(select * from json_to_recordset(?::json) as t(${all.map((c) => `${c} text`).join(', ')})) as v`,
      fromBindings: [JSON.stringify(objects)],
      // Ids are prefixed base62 (domain/ids.ts): safe inside an array literal.
      match: 'posts.id = v.v_id and posts.id = any(?::text[])',
      matchBindings: [`{${rows.map((row) => row[0]).join(',')}}`],
    };
  }
  return {
    from: `(select ${all.map((c, i) => `json_extract(value, '$[${i}]') as ${c}`).join(', ')} from json_each(?)) as v`,
    fromBindings: [JSON.stringify(rows)],
    match: 'posts.id = v.v_id',
    matchBindings: [] as string[],
  };
}

/**
 * A posts column in a condition beside a batch join. A planner may walk that column's index (SQLite's
 * always; PostgreSQL's whenever its statistics lag behind a burst of new posts, taking the thousands
 * queued for a few) and test every post it finds against the batch: quadratic once thousands are queued.
 * A no-op on the value (`+` on SQLite, appending '' to PostgreSQL's text) keeps the column out of index
 * use, so each post of the batch is found by its primary key.
 */
const besideBatch = (q: Knex, column: string) => (isPostgres(q) ? `(${column} || '')` : `+${column}`);

/** `returning` rows from knex.raw: an array on SQLite, `{rows}` on PostgreSQL. */
function returned(result: any): Row[] {
  return Array.isArray(result) ? result : result.rows;
}

/**
 * An update of the posts named by `rows` (`v_id`, `v_attempt`, then `columns`) whose lease matches. `set`
 * may use `v.<column>` and `?` (bound by `setBindings`); `where` adds conditions on `posts`.
 */
interface LeasedUpdate {
  set: string;
  setBindings: string[];
  columns: string[];
  rows: (string | null)[][];
  where?: string;
}

function leasedUpdateSql(q: Knex, u: LeasedUpdate): { sql: string; bindings: string[] } {
  const v = joinRows(q, ['v_attempt', ...u.columns], u.rows);
  return {
    sql: `update posts set ${u.set} from ${v.from}
      where ${v.match} and posts.attempt_id = v.v_attempt ${u.where ?? ''} returning id`,
    bindings: [...u.setBindings, ...v.fromBindings, ...v.matchBindings],
  };
}

/** Runs a leased update in one statement; answers the ids it changed. */
async function updateLeased(q: Knex, u: LeasedUpdate): Promise<Set<string>> {
  if (!u.rows.length) return new Set();
  const { sql, bindings } = leasedUpdateSql(q, u);
  return new Set(returned(await q.raw(sql, bindings)).map((r) => r.id as string));
}

type EventRow = ReturnType<typeof eventRows>[number];

/**
 * A leased update and the timeline events of the posts it changed, atomically. On PostgreSQL it is one
 * statement (a data-modifying CTE): one round trip instead of four, which is most of a batch's time when
 * thousands of posts fall due at once. On SQLite, in-process, it is one synchronous transaction.
 */
async function updateLeasedRecording(db: Db, u: LeasedUpdate, events: EventRow[]): Promise<Set<string>> {
  if (!events.length) return updateLeased(db, u);
  const { sql, bindings } = leasedUpdateSql(db, u);
  // The workspace events the timeline rows report go beside them (db/events.ts), in the same statement.
  const announced = eventsOfTimeline(events);
  const names = Object.keys(events[0]!);
  const columns = names.join(', ');
  const announcedNames = Object.keys(announced[0]!);
  const announcedColumns = announcedNames.join(', ');
  const values = (n: string[]) => `values (${n.map(() => '?').join(', ')})`;
  if (!isPostgres(db))
    return onSqliteConnection(db, (conn) =>
      conn.transaction(() => {
        const changed = new Set((conn.prepare(sql).all(...bindings) as Row[]).map((r) => r.id as string));
        const insert = conn.prepare(`insert into post_events (${columns}) ${values(names)}`);
        for (const e of events) if (changed.has(e.post_id)) insert.run(...Object.values(e));
        const announce = conn.prepare(`insert into events (${announcedColumns}) ${values(announcedNames)}`);
        for (const e of announced) if (changed.has(e.object_id)) announce.run(...Object.values(e));
        return changed;
      })(),
    );
  const result = await db.raw(
    `with changed as (${sql}),
    recorded as (insert into post_events (${columns}) select ${columns}
      from json_populate_recordset(null::post_events, ?::json) where post_id in (select id from changed)),
    announced as (insert into events (${announcedColumns}) select ${announcedColumns}
      from json_populate_recordset(null::events, ?::json) where object_id in (select id from changed))
    select id from changed`,
    [...bindings, JSON.stringify(events), JSON.stringify(announced)],
  );
  return new Set(returned(result).map((r) => r.id as string));
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

async function loadAttempts(db: Db, leases: Lease[]): Promise<Attempt[]> {
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

function leased(q: Knex, a: Pick<Attempt, 'postId' | 'attemptId'>) {
  return q('posts').where({ id: a.postId, attempt_id: a.attemptId });
}

const leaseOf = (a: Pick<Attempt, 'postId' | 'attemptId'>) => [a.postId, a.attemptId];

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
  const started = await updateLeasedRecording(
    db,
    {
      set: `attempt_started_at = ?, updated_at = ?, checkpoint = coalesce(v.v_checkpoint, posts.checkpoint),
        pending_change = null, approval_state = null, approval_requested_by = null, approval_requested_at = null,
        approval_wanted_at = null`,
      setBindings: [now, now],
      columns: ['v_checkpoint'],
      rows: items.map((i) => [...leaseOf(i.attempt), i.checkpoint ? JSON.stringify(i.checkpoint) : null]),
      where: `and ${besideBatch(db, 'posts.status')} = '${STARTABLE}'`,
    },
    // Every attempt's start is a `publishing` event, a worker's retry that keeps its progress too; a resend of an
    // attempt already told (its latest event) keeps that one.
    eventRows(
      items
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
  return items.map((i) => started.has(i.attempt.postId));
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
      due_at = null, error_code = null, error_message = null, error_hint = null, review_since = null, updated_at = ?`,
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
      attempt_id: null,
      attempt_worker: null,
      attempt_started_at: null,
      checkpoint: null,
      due_at: null,
      review_since: null,
      updated_at: now,
    });
    if (!n) return false;
    await insertPostEvents(trx, a.workspaceId, a.postId, [{ kind: 'failed', error }], now);
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

/** A post's attempt lease; `started: false` when it was found a reservation (nothing sent). */
export interface Lease {
  postId: string;
  attemptId: string;
  started?: boolean;
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
