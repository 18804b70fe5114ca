// Indexes in the order of the posts list (publish time with drafts last, then id), with and without the status
// filter, so a page of a large workspace and a page deep behind a cursor read only their own rows.
// The expression `(publish_at is null)` must match db/postReads.ts's ORDER BY and cursor exactly.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw('create index posts_list_order on posts (workspace_id, (publish_at is null), publish_at, id)');
  await db.raw(
    'create index posts_list_status_order on posts (workspace_id, status, (publish_at is null), publish_at, id)',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index posts_list_status_order');
  await db.raw('drop index posts_list_order');
}
