// One knex instance over SQLite (a file in DATA_DIR, the default) or PostgreSQL (DATABASE_URL).
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';

export type Db = Knex;

export function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Db {
  if (opts.databaseUrl) {
    if (!/^postgres(ql)?:\/\//.test(opts.databaseUrl)) throw new Error('DATABASE_URL must start with postgres://');
    return knexFactory({ client: 'pg', connection: opts.databaseUrl, pool: { min: 0, max: 10 } });
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename: path.join(opts.dataDir, 'herald.sqlite') },
    useNullAsDefault: true,
    pool: {
      // better-sqlite3 runs one connection; WAL lets readers of other processes (CLI) proceed beside it.
      afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('journal_mode = WAL');
        conn.pragma('synchronous = NORMAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        done(null, conn);
      },
    },
  });
}

export function isPostgres(db: Db): boolean {
  return db.client.config.client === 'pg';
}
