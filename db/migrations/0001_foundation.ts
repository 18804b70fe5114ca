// Identity, accounts and groups. Instants are ISO 8601 UTC strings written by the app (never DB defaults),
// booleans are integers 0/1, JSON is text: one representation on SQLite and PostgreSQL alike.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('workspaces', (t) => {
    t.string('id').primary();
    t.string('slug').notNullable().unique();
    t.string('name').notNullable();
    t.string('plan').notNullable();
    t.string('currency').notNullable();
    t.string('tz').notNullable();
    t.string('created_at').notNullable();
  });
  await db.schema.createTable('users', (t) => {
    t.string('id').primary();
    t.string('name').notNullable();
    t.string('email').unique();
    t.string('password_hash');
    t.string('created_at').notNullable();
  });
  await db.schema.createTable('members', (t) => {
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('role').notNullable();
    t.string('created_at').notNullable();
    t.primary(['workspace_id', 'user_id']);
  });
  await db.schema.createTable('api_keys', (t) => {
    t.string('id').primary();
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('user_id').notNullable().references('users.id');
    t.string('name').notNullable();
    t.string('display_prefix').notNullable();
    t.string('secret_hash').notNullable().unique();
    t.string('scopes').notNullable();
    t.string('created_at').notNullable();
    t.string('last_used_at');
    t.string('revoked_at');
    t.index(['workspace_id']);
  });
  await db.schema.createTable('sessions', (t) => {
    t.string('id').primary();
    t.string('token_hash').notNullable().unique();
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('created_at').notNullable();
    t.string('expires_at').notNullable();
  });
  await db.schema.createTable('accounts', (t) => {
    t.string('id').primary();
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('platform').notNullable();
    t.string('display_name').notNullable();
    t.string('status').notNullable();
    t.string('external_id').notNullable();
    t.text('token_sealed');
    t.string('token_expires_at');
    t.string('created_at').notNullable();
    t.index(['workspace_id']);
  });
  await db.schema.createTable('groups', (t) => {
    t.string('id').primary();
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('name').notNullable();
    t.string('created_at').notNullable();
    t.index(['workspace_id']);
  });
  await db.schema.createTable('group_accounts', (t) => {
    t.string('group_id').notNullable().references('groups.id').onDelete('CASCADE');
    t.string('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.primary(['group_id', 'account_id']);
  });
  // Fixed-window request counters shared by every server process (PostgreSQL mode).
  await db.schema.createTable('rate_counters', (t) => {
    t.string('bucket').notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('hits').notNullable();
    t.primary(['bucket', 'window_start']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of [
    'rate_counters',
    'group_accounts',
    'groups',
    'accounts',
    'sessions',
    'api_keys',
    'members',
    'users',
    'workspaces',
  ]) {
    await db.schema.dropTableIfExists(table);
  }
}
