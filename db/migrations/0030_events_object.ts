// Events by their object: a deleted post's earlier events find the snapshot its `post.deleted` event keeps
// (db/events.ts deletedPosts) without reading the workspace's whole feed.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('events', (t) => t.index(['object_id', 'type'], 'events_object'));
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('events', (t) => t.dropIndex(['object_id', 'type'], 'events_object'));
}
