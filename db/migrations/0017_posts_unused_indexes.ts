// Drops the two posts indexes that no query reads since the list indexes of 0013: every posts row the
// worker moves (reserve, live) paid an entry in each. Calendar ranges (`from`, `to`) read the list indexes,
// as db/postReads.ts's list also states each bound in their terms, `((publish_at is null), publish_at)`.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw('drop index posts_status_publish_at_index');
  await db.raw('drop index posts_workspace_id_status_publish_at_index');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('create index posts_workspace_id_status_publish_at_index on posts (workspace_id, status, publish_at)');
  await db.raw('create index posts_status_publish_at_index on posts (status, publish_at)');
}
