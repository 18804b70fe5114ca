// The posting queue: each account's weekly posting times, in the workspace zone. `when: "queue"` gives a
// post the account's next time with no queued post of that account at that instant.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('account_schedules', (t) => {
    t.string('account_id').primary().references('accounts.id').onDelete('CASCADE');
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    // [{day, time}], in week order.
    t.text('slots').notNullable();
    t.string('updated_at').notNullable();
  });
  // The free-time search reads an account's queued times from now on.
  await db.schema.alterTable('posts', (t) => t.index(['account_id', 'status', 'publish_at']));
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => t.dropIndex(['account_id', 'status', 'publish_at']));
  await db.schema.dropTable('account_schedules');
}
