// Migrations are imported modules (no file-system discovery), so they run the same under tsx, tests and CI.
import { Logger, runMigrations } from 'graphile-worker';
import type { Knex } from 'knex';
import pg from 'pg';
import { isPostgres, type Db } from './connect.ts';
import * as foundation from './migrations/0001_foundation.ts';
import * as media from './migrations/0002_media.ts';
import * as posts from './migrations/0003_posts.ts';
import * as publishing from './migrations/0004_publishing.ts';
import * as sandbox from './migrations/0005_sandbox.ts';
import * as analytics from './migrations/0006_analytics.ts';
import * as oauth from './migrations/0007_oauth.ts';

const MIGRATIONS: Record<string, Knex.Migration> = {
  '0001_foundation': foundation,
  '0002_media': media,
  '0003_posts': posts,
  '0004_publishing': publishing,
  '0005_sandbox': sandbox,
  '0006_analytics': analytics,
  '0007_oauth': oauth,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name]!,
};

// graphile-worker narrates its migrations on the console; operator commands print one JSON object.
const quietGraphileLogger = new Logger(() => (level, message) => {
  if (level === 'error') process.stderr.write(`graphile-worker: ${message}\n`);
});

/** Applies pending migrations; returns the names applied by this call. */
export async function migrate(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource: source })) as [number, string[]];
  // On PostgreSQL, publish jobs live in graphile-worker's schema, which it migrates itself.
  if (isPostgres(db)) {
    const pool = new pg.Pool({ ...(db.client.connectionSettings as pg.PoolConfig), max: 2 });
    // Broken connections surface as errors of the query that used them; these handlers keep them off the console.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    try {
      await runMigrations({ pgPool: pool, logger: quietGraphileLogger });
    } finally {
      await pool.end();
    }
  }
  return applied;
}
