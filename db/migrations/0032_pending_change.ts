// A change to a queued post that needs approval waits beside the post, which keeps its time and approved content:
// the approval columns (who asked, when, the time wanted) say that it waits, and this column holds what it changes.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => {
    // JSON: the content fields the change sets, and `publishAt` when it moves the time (null: publish now).
    t.text('pending_change');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => {
    t.dropColumn('pending_change');
  });
}
