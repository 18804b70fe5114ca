// Migrations are imported modules (no file-system discovery), so they run the same under tsx, tests and CI.
import { Logger, runMigrations } from 'graphile-worker';
import type { Knex } from 'knex';
import pg from 'pg';
import { ApiError } from '../domain/errors.ts';
import { HERALD_VERSION } from '../runtime/version.ts';
import { isPostgres, type Db } from './connect.ts';
import * as foundation from './migrations/0001_foundation.ts';
import * as media from './migrations/0002_media.ts';
import * as posts from './migrations/0003_posts.ts';
import * as publishing from './migrations/0004_publishing.ts';
import * as sandbox from './migrations/0005_sandbox.ts';
import * as analytics from './migrations/0006_analytics.ts';
import * as oauth from './migrations/0007_oauth.ts';
import * as members from './migrations/0008_members.ts';
import * as disconnectedAccounts from './migrations/0009_disconnected_accounts.ts';
import * as postsListOrder from './migrations/0013_posts_list_order.ts';
import * as sandboxAccounts from './migrations/0014_sandbox_accounts.ts';
import * as usageCounters from './migrations/0015_usage_counters.ts';
import * as sandboxFile from './migrations/0016_sandbox_file.ts';
import * as postsUnusedIndexes from './migrations/0017_posts_unused_indexes.ts';
import * as postsListSeek from './migrations/0018_posts_list_seek.ts';
import * as idempotencyKeys from './migrations/0019_idempotency_keys.ts';
import * as events from './migrations/0020_events.ts';
import * as webhooks from './migrations/0021_webhooks.ts';
import * as reviewSince from './migrations/0022_review_since.ts';
import * as postBatches from './migrations/0023_post_batches.ts';
import * as approvals from './migrations/0024_approvals.ts';
import * as postingQueue from './migrations/0025_posting_queue.ts';
import * as workerHost from './migrations/0026_worker_host.ts';
import * as tokenUpkeep from './migrations/0027_token_upkeep.ts';
import * as liveNote from './migrations/0028_live_note.ts';
import * as shownPrivately from './migrations/0029_shown_privately.ts';
import * as eventsObject from './migrations/0030_events_object.ts';
import * as webhookHistory from './migrations/0031_webhook_history.ts';
import * as pendingChange from './migrations/0032_pending_change.ts';
import * as eventFacts from './migrations/0033_event_facts.ts';

const MIGRATIONS: Record<string, Knex.Migration> = {
  '0001_foundation': foundation,
  '0002_media': media,
  '0003_posts': posts,
  '0004_publishing': publishing,
  '0005_sandbox': sandbox,
  '0006_analytics': analytics,
  '0007_oauth': oauth,
  '0008_members': members,
  '0009_disconnected_accounts': disconnectedAccounts,
  '0013_posts_list_order': postsListOrder,
  '0014_sandbox_accounts': sandboxAccounts,
  '0015_usage_counters': usageCounters,
  '0016_sandbox_file': sandboxFile,
  '0017_posts_unused_indexes': postsUnusedIndexes,
  '0018_posts_list_seek': postsListSeek,
  '0019_idempotency_keys': idempotencyKeys,
  '0020_events': events,
  '0021_webhooks': webhooks,
  '0022_review_since': reviewSince,
  '0023_post_batches': postBatches,
  '0024_approvals': approvals,
  '0025_posting_queue': postingQueue,
  '0026_worker_host': workerHost,
  '0027_token_upkeep': tokenUpkeep,
  '0028_live_note': liveNote,
  '0029_shown_privately': shownPrivately,
  '0030_events_object': eventsObject,
  '0031_webhook_history': webhookHistory,
  '0032_pending_change': pendingChange,
  '0033_event_facts': eventFacts,
};

/** Every migration this version knows, oldest first. Migrations only go forward: none is ever edited or removed. */
export const MIGRATION_NAMES = Object.keys(MIGRATIONS);

const sourceOf = (names: string[]): Knex.MigrationSource<string> => ({
  getMigrations: async () => names,
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name]!,
});

// graphile-worker narrates its migrations on the console; operator commands print one JSON object.
const quietGraphileLogger = new Logger(() => (level, message) => {
  if (level === 'error') process.stderr.write(`graphile-worker: ${message}\n`);
});

/** Migrations the database has had, by name (none for an empty database); reads without creating anything. */
export async function appliedMigrations(db: Db): Promise<string[]> {
  if (!(await db.schema.hasTable('knex_migrations'))) return [];
  return (await db('knex_migrations').orderBy('id').select('name')).map((row) => row.name as string);
}

/** What `migrate` would apply, and a refusal when a newer Herald has migrated the database. */
export async function migrationPlan(db: Db): Promise<{ applied: string[]; pending: string[] }> {
  const applied = await appliedMigrations(db);
  const unknown = applied.filter((name) => !MIGRATION_NAMES.includes(name));
  if (unknown.length) {
    throw new ApiError(
      409,
      'database_newer',
      `This database was migrated by a newer Herald than ${HERALD_VERSION}: ` +
        `it has had migrations this version does not know (${unknown.join(', ')}).`,
      'Run the Herald version that migrated it, or a newer one; migrations only go forward. ' +
        'To go back, restore a backup taken before the upgrade.',
    );
  }
  return { applied, pending: MIGRATION_NAMES.filter((name) => !applied.includes(name)) };
}

/**
 * Applies pending migrations (up to and including `to`, tests only); returns the names applied by this call.
 * Refuses a database migrated by a newer Herald, rather than run against a schema it does not know.
 */
export async function migrate(db: Db, opts: { to?: string } = {}): Promise<string[]> {
  const { pending } = await migrationPlan(db);
  const names = opts.to ? MIGRATION_NAMES.slice(0, MIGRATION_NAMES.indexOf(opts.to) + 1) : MIGRATION_NAMES;
  // Nothing to apply (every start but an upgrade's): knex's migration lock is not taken, so a process killed at
  // that moment cannot leave it held and keep every later start from migrating.
  const [, applied] = pending.some((name) => names.includes(name))
    ? ((await db.migrate.latest({ migrationSource: sourceOf(names) })) as [number, string[]])
    : [0, [] as string[]];
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
