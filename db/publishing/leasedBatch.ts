// One statement for a batch of posts by id, each change conditioned on the post's attempt lease.
import type { Knex } from 'knex';
import { isPostgres, onSqliteConnection, type Db } from '../connect.ts';
import { type eventRows, eventsOfTimeline } from '../postEvents.ts';

export type Row = Record<string, any>;

/**
 * Rows as a derived table `v` joined to posts by `v_id`, from one JSON parameter (so a batch is one
 * short statement to plan, whatever its size). Column names start with `v_` so they never clash with
 * the updated table's in RETURNING. On PostgreSQL the ids are also given as an array, so the posts
 * are found through their primary key whatever the planner believes about the table's size.
 */
export function joinRows(q: Knex, columns: string[], rows: (string | null)[][]) {
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
export const besideBatch = (q: Knex, column: string) => (isPostgres(q) ? `(${column} || '')` : `+${column}`);

/** `returning` rows from knex.raw: an array on SQLite, `{rows}` on PostgreSQL. */
export function returned(result: any): Row[] {
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
export async function updateLeased(q: Knex, u: LeasedUpdate): Promise<Set<string>> {
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
export async function updateLeasedRecording(db: Db, u: LeasedUpdate, events: EventRow[]): Promise<Set<string>> {
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
