// One knex instance over SQLite (a file in DATA_DIR, the default) or PostgreSQL (DATABASE_URL).
import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite from 'better-sqlite3';
import knexFactory, { type Knex } from 'knex';
import { type ApiError, databaseUnavailable, insufficientStorage, isDiskFull } from '../domain/errors.ts';
import type { Logger } from '../runtime/logger.ts';

export type Db = Knex;

interface SqliteConnection {
  pragma(sql: string): unknown;
  function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): unknown;
  prepare(sql: string, ...rest: unknown[]): unknown;
  exec(sql: string): unknown;
}

/** Herald's own SQLite file in DATA_DIR. */
export const SQLITE_FILE = 'herald.sqlite';
/**
 * The sandbox networks' file beside it, attached to every connection as `sandbox`: a simulator is another
 * service, and when `herald sandbox serve` runs it in a process of its own, its writes must not wait for
 * Herald's write lock (nor Herald's for its). Its tables' names are unique, so queries name them unqualified.
 */
export const SANDBOX_FILE = 'sandbox.sqlite';

const STATEMENTS_KEPT = 500;

/** SQLite's lower() lowers only A to Z; this one lowers text as JavaScript (and PostgreSQL's lower()) do. */
export const SQLITE_LOWER = 'herald_lower';

/** The longest a query waits for a PostgreSQL connection. */
const PG_ACQUIRE_TIMEOUT_MS = 5000;

/** SQLite: how long a write waits for another process's write lock by default (the server's requests). */
export const SERVER_BUSY_TIMEOUT_MS = 5000;
/** An operator's command waits longer: the server may hold its lock for a while under load, and a person waits. */
export const COMMAND_BUSY_TIMEOUT_MS = 60_000;

/**
 * knex has better-sqlite3 prepare every statement anew, and preparing costs more than running the short queries
 * of a request: the connection keeps its most recently used statements by text and hands them out again.
 * knex runs a statement to completion (all or run) before it asks for the next, so sharing one is safe.
 */
function reusePreparedStatements(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  const kept = new Map<string, unknown>();
  conn.prepare = (sql, ...rest) => {
    if (rest.length) return prepare(sql, ...rest);
    let statement = kept.get(sql);
    if (statement) kept.delete(sql);
    else {
      statement = prepare(sql);
      if (kept.size >= STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
    }
    kept.set(sql, statement);
    return statement;
  };
}

export interface OpenOptions {
  databaseUrl?: string;
  dataDir: string;
  /**
   * SQLite: `thread` leaves the write-ahead logs' checkpoints to a thread the caller runs (db/walCheckpoints.ts)
   * instead of the commits.
   */
  checkpoints?: 'commit' | 'thread';
  /** Where knex's own notices go (a pooled connection found cut): else knex prints them, plain, to stdout. */
  logger?: Logger;
  /** SQLite: how long a write waits for another process's (SERVER_BUSY_TIMEOUT_MS unless said). */
  sqliteBusyTimeoutMs?: number;
}

/** knex's notices as log records, so a process's output stays one JSON line per event. */
function knexLog(logger: Logger | undefined): Knex.Config['log'] {
  if (!logger) return undefined;
  // knex hands each function its finished message (a deprecation's too).
  const note = (level: 'warn' | 'error' | 'debug') => (message: unknown) =>
    logger[level]({ source: 'knex' }, String(message));
  return { warn: note('warn'), error: note('error'), deprecate: note('warn'), debug: note('debug') };
}

export function openDatabase(opts: OpenOptions): Db {
  if (opts.databaseUrl) {
    if (!/^postgres(ql)?:\/\//.test(opts.databaseUrl)) throw new Error('DATABASE_URL must start with postgres://');
    return knexFactory({
      client: 'pg',
      connection: opts.databaseUrl,
      pool: { min: 0, max: 10 },
      // While PostgreSQL is out of reach, a request waiting for a connection is answered 503 after this long
      // rather than after knex's minute: a client retries, nothing hangs.
      acquireConnectionTimeout: PG_ACQUIRE_TIMEOUT_MS,
      log: knexLog(opts.logger),
    });
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const files = { main: path.join(opts.dataDir, SQLITE_FILE), sandbox: path.join(opts.dataDir, SANDBOX_FILE) };
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename: files.main },
    useNullAsDefault: true,
    log: knexLog(opts.logger),
    pool: {
      // better-sqlite3 runs one connection; WAL lets readers of other processes (CLI) proceed beside it.
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
        // A file name as an SQL string: single quotes doubled.
        conn.exec(`attach database '${files.sandbox.replaceAll("'", "''")}' as sandbox`);
        const thread = opts.checkpoints === 'thread';
        for (const schema of ['main', 'sandbox']) {
          conn.pragma(`${schema}.journal_mode = WAL`);
          conn.pragma(`${schema}.synchronous = NORMAL`);
          // A log that grew in a burst is cut back to this size when it starts over after a checkpoint.
          if (thread) conn.pragma(`${schema}.journal_size_limit = ${64 * 2 ** 20}`);
        }
        conn.pragma('foreign_keys = ON');
        conn.pragma(`busy_timeout = ${opts.sqliteBusyTimeoutMs ?? SERVER_BUSY_TIMEOUT_MS}`);
        if (thread) conn.pragma('wal_autocheckpoint = 0');
        conn.function(SQLITE_LOWER, { deterministic: true }, (value) =>
          typeof value === 'string' ? value.toLowerCase() : value,
        );
        reusePreparedStatements(conn);
        done(null, conn);
      },
    },
  });
}

export function isPostgres(db: Db): boolean {
  return db.client.config.client === 'pg';
}

/** Whether a query failed on a unique index: PostgreSQL's unique_violation or SQLite's UNIQUE constraint. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Runs `work` on the SQLite connection itself. better-sqlite3 is synchronous, so a transaction written here
 * is one step of the event loop, where knex takes a turn through its runner for each statement (BEGIN, each
 * query, COMMIT). The pool holds the one connection: this waits while knex uses it, and knex waits for this.
 */
export async function onSqliteConnection<T>(db: Db, work: (conn: BetterSqlite.Database) => T): Promise<T> {
  const conn: BetterSqlite.Database = await db.client.acquireConnection();
  try {
    return work(conn);
  } finally {
    await db.client.releaseConnection(conn);
  }
}

/**
 * PostgreSQL out of reach: its connection terminated (57P01 admin_shutdown and the driver's own words after it), the
 * server shutting down or starting up (57P02, 57P03), no connection to be had (class 08, a refused or reset socket,
 * the pool's wait running out).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const { code, name, message } = (err ?? {}) as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string' && (/^(57P0[123]|08...)$/.test(code) || ['ECONNREFUSED', 'ECONNRESET'].includes(code)))
    return true;
  return (
    name === 'KnexTimeoutError' ||
    /Connection terminated|Client has encountered a connection error|Client was closed/.test(String(message)) ||
    // knex's words for a query in a transaction already ended: a request's transaction ends early only when its
    // connection was lost (the chaos run's pg_terminate_backend between two of its writes), and is rolled back.
    /Transaction query already complete/.test(String(message))
  );
}

/** SQLite's "database is locked": another process held the write lock past the busy timeout. */
export function isDatabaseBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** The answer to a request the environment failed, not Herald: a full disk (507), the database out of reach (503). */
export function environmentFault(err: unknown): ApiError | undefined {
  if (isDiskFull(err)) return insufficientStorage();
  if (isDatabaseUnavailable(err)) return databaseUnavailable();
  return undefined;
}
