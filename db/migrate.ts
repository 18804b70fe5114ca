// Migrations are imported modules (no file-system discovery), so they run the same under tsx, tests and CI.
import type { Knex } from 'knex';
import type { Db } from './connect.ts';
import * as foundation from './migrations/0001_foundation.ts';
import * as media from './migrations/0002_media.ts';
import * as posts from './migrations/0003_posts.ts';
import * as publishing from './migrations/0004_publishing.ts';
import * as sandbox from './migrations/0005_sandbox.ts';

const MIGRATIONS: Record<string, Knex.Migration> = {
  '0001_foundation': foundation,
  '0002_media': media,
  '0003_posts': posts,
  '0004_publishing': publishing,
  '0005_sandbox': sandbox,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name]!,
};

/** Applies pending migrations; returns the names applied by this call. */
export async function migrate(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource: source })) as [number, string[]];
  return applied;
}
