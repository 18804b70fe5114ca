// Workspace events: what changed, for the feed (GET /v1/events) and the dashboard's stream. Each row is written in
// the transaction of the change it reports, so an event exists exactly when its change committed.
//
// Reading in order: on SQLite one writer commits at a time, so `seq` is commit order. On PostgreSQL a row with a
// smaller `seq` may commit after one with a larger, so a reader that remembered the largest `seq` it saw would skip
// it. Rows are ordered by their writing transaction's id (`tx`) and then `seq`, and a read returns only rows of
// transactions older than every transaction still running that may write here (SETTLED_BELOW): any row that
// commits later has a larger `tx` than every row already returned, so a position (tx, seq) is never passed over.
import type { Knex } from 'knex';
import { newId } from '../domain/ids.ts';
import { isPostgres, type Db } from './connect.ts';

export const EVENT_TYPES = [
  'post.created',
  'post.queued',
  'post.publishing',
  'post.live',
  'post.failed',
  'post.retried_by_worker',
  'post.cancelled',
  'post.rescheduled',
  'post.updated',
  'post.deleted',
  'post.approval_requested',
  'post.approved',
  'post.rejected',
  'media.ready',
  'media.failed',
  'account.needs_reconnect',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Days the feed reaches back; the media sweep deletes older rows. */
export const EVENT_DAYS = 30;

export interface NewWorkspaceEvent {
  workspaceId: string;
  type: EventType;
  objectId: string;
  /** A snapshot of the object, only where it cannot be read later (a deleted post). */
  payload?: unknown;
}

/** Where a reader is: (tx, seq); tx is '0' on SQLite, where seq alone is commit order. */
export interface EventPosition {
  tx: string;
  seq: number;
}

export interface StoredEvent {
  position: EventPosition;
  id: string;
  workspaceId: string;
  type: EventType;
  objectId: string;
  payload: unknown;
  createdAt: string;
}

/** Rows for the events table, as insert takes them. */
export function workspaceEventRows(events: NewWorkspaceEvent[], at: string) {
  return events.map((e) => ({
    id: newId('wev'),
    workspace_id: e.workspaceId,
    type: e.type,
    object_id: e.objectId,
    payload: e.payload === undefined ? null : JSON.stringify(e.payload),
    created_at: at,
  }));
}

/** Records events inside the caller's transaction. */
export async function recordEvents(q: Knex, events: NewWorkspaceEvent[], at: string): Promise<void> {
  if (events.length) await q('events').insert(workspaceEventRows(events, at));
}

export const isAfter = (a: EventPosition, b: EventPosition) => {
  const ta = BigInt(a.tx);
  const tb = BigInt(b.tx);
  return ta > tb || (ta === tb && a.seq > b.seq);
};

export const START: EventPosition = { tx: '0', seq: 0 };

function toStored(row: Record<string, any>): StoredEvent {
  return {
    position: { tx: String(row.tx_text ?? '0'), seq: Number(row.seq) },
    id: row.id,
    workspaceId: row.workspace_id,
    type: row.type,
    objectId: row.object_id,
    payload: row.payload ? JSON.parse(row.payload) : null,
    createdAt: row.created_at,
  };
}

/**
 * The transaction id below which every event row is final: the oldest transaction still running that may write
 * here, or the next id when none runs. Transactions of other databases of the cluster (another application's long
 * report, a test database being dropped) cannot write here: ignoring them keeps the feed from stalling behind them.
 * A running transaction is taken as another database's only when pg_stat_activity says so; when in doubt it counts.
 */
const SETTLED_BELOW = `(select coalesce((select min(x) from pg_snapshot_xip(s) as x where not exists (
    select 1 from pg_stat_activity a where a.backend_xid::text::bigint = x::text::bigint % 4294967296
      and a.datid <> (select oid from pg_database where datname = current_database()))),
  pg_snapshot_xmax(s)) from pg_current_snapshot() as s)`;

/** Only rows whose position is final: on PostgreSQL, of transactions older than every one still running here. */
function settled(db: Db) {
  const q = db('events');
  if (!isPostgres(db)) return q.select('*');
  return q.select('*', db.raw('tx::text as tx_text')).whereRaw(`tx < ${SETTLED_BELOW}`);
}

function inOrder(db: Db, q: Knex.QueryBuilder, direction: 'asc' | 'desc') {
  return isPostgres(db)
    ? q.orderBy([
        { column: 'tx', order: direction },
        { column: 'seq', order: direction },
      ])
    : q.orderBy('seq', direction);
}

export interface EventQuery {
  /** One workspace's events; every workspace's when left out (the stream's shared tail). */
  workspaceId?: string;
  after: EventPosition;
  types?: readonly string[];
  /** Only events created at or after this instant. */
  since?: string;
  limit: number;
}

/** Settled events after a position, oldest first. */
export async function readEvents(db: Db, query: EventQuery): Promise<StoredEvent[]> {
  const q = settled(db);
  if (query.workspaceId) q.where('workspace_id', query.workspaceId);
  if (query.types?.length) q.whereIn('type', query.types);
  if (query.since) q.where('created_at', '>=', query.since);
  if (isPostgres(db)) q.where(db.raw('(tx, seq) > (?::xid8, ?)', [query.after.tx, query.after.seq]));
  else q.where('seq', '>', query.after.seq);
  return (await inOrder(db, q, 'asc').limit(query.limit)).map(toStored);
}

/**
 * The posts as their `post.deleted` events keep them, by post id, of one workspace: what the feed and deliveries
 * show of a post that is gone, for its earlier events too.
 */
export async function deletedPosts(db: Db, workspaceId: string, postIds: string[]): Promise<Map<string, unknown>> {
  if (!postIds.length) return new Map();
  const rows = await db('events')
    .where({ workspace_id: workspaceId, type: 'post.deleted' })
    .whereIn('object_id', postIds)
    .whereNotNull('payload')
    .select('object_id', 'payload');
  return new Map(rows.map((r) => [r.object_id as string, JSON.parse(r.payload)]));
}

/** Events by their ids, settled or not (webhook deliveries name their events). */
export async function findEvents(db: Db, ids: string[]): Promise<StoredEvent[]> {
  if (!ids.length) return [];
  const q = db('events').whereIn('id', ids);
  return (await (isPostgres(db) ? q.select('*', db.raw('tx::text as tx_text')) : q.select('*'))).map(toStored);
}

/** The position after every settled event: a reader starting here sees only what comes later. */
export async function headPosition(db: Db): Promise<EventPosition> {
  const row = await inOrder(db, settled(db), 'desc').first();
  return row ? toStored(row).position : START;
}

/** Deletes events older than EVENT_DAYS, a batch at a time; answers how many. */
export async function forgetOldEvents(db: Db, nowMs: number, batch = 5000): Promise<number> {
  const cutoff = new Date(nowMs - EVENT_DAYS * 86400_000).toISOString();
  let total = 0;
  for (;;) {
    const n = await db('events')
      .whereIn('id', db('events').where('created_at', '<', cutoff).select('id').limit(batch))
      .delete();
    total += n;
    if (n < batch) return total;
  }
}
