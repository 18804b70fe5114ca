// Members and their invitations, password resets and the audit trail. Invitation and reset links are
// signed with the secret (never stored); a row only records whether a link was used. Roles live on
// `members` since 0001.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('invites', (t) => {
    t.string('id').primary();
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('email').notNullable();
    t.string('role').notNullable();
    t.string('invited_by').notNullable().references('users.id').onDelete('CASCADE');
    t.string('created_at').notNullable();
    t.string('expires_at').notNullable();
    /** Set once: accepted, or withdrawn by an administrator. A pending invite has neither. */
    t.string('accepted_at');
    t.string('cancelled_at');
    t.index(['workspace_id']);
  });
  await db.schema.createTable('password_resets', (t) => {
    t.string('id').primary();
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('created_at').notNullable();
    t.string('expires_at').notNullable();
    t.string('used_at');
  });
  await db.schema.createTable('audit_events', (t) => {
    t.string('id').primary();
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('at').notNullable();
    /** Who acted: null for the operator's command line. */
    t.string('user_id');
    t.string('action').notNullable();
    /** JSON: what was acted on, in words a settings page can show. */
    t.text('detail').notNullable();
    t.index(['workspace_id', 'at']);
  });
  await db.schema.alterTable('sessions', (t) => {
    t.index(['user_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('sessions', (t) => t.dropIndex(['user_id']));
  for (const table of ['audit_events', 'password_resets', 'invites']) await db.schema.dropTableIfExists(table);
}
