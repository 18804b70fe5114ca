// Posts made by one creation request share a batch id, so lists can show them together. Posts from before it
// are grouped as they were made: one request stamped all its posts with the same creation time.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => t.string('batch_id'));
  await db.raw(`update posts set batch_id = 'bat_' || substr(
    (select min(same.id) from posts same
      where same.workspace_id = posts.workspace_id and same.created_at = posts.created_at
        and same.created_via = posts.created_via), 5)`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => t.dropColumn('batch_id'));
}
