// A live post's id on its network (insights are read by it) and the cached insight counters of
// posts and accounts.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => {
    t.text('external_id');
  });
  await db.schema.createTable('analytics', (t) => {
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    /** `post` or `account`. */
    t.string('target_kind').notNullable();
    t.string('target_id').notNullable();
    t.text('metrics').notNullable();
    t.string('fetched_at').notNullable();
    t.primary(['target_kind', 'target_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('analytics');
  await db.schema.alterTable('posts', (t) => t.dropColumn('external_id'));
}
