// Posts (one publication to one account), their files, their timeline, and the creation log that
// the hourly creation limit counts.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('posts', (t) => {
    t.string('id').primary();
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('platform').notNullable();
    t.string('status').notNullable();
    t.string('publish_at');
    t.text('text').notNullable();
    t.text('title');
    t.text('tags').notNullable();
    t.text('media_ids').notNullable();
    t.text('per_platform').notNullable();
    t.string('created_via').notNullable();
    t.text('external_url');
    t.string('error_code');
    t.text('error_message');
    t.text('error_hint');
    /** The workspace-zone month (YYYY-MM) whose quota this post counts toward; null when it counts toward none. */
    t.string('quota_month');
    t.string('live_at');
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    t.index(['workspace_id', 'status', 'publish_at']);
    t.index(['workspace_id', 'quota_month']);
    t.index(['status', 'publish_at']);
  });
  await db.schema.createTable('post_media', (t) => {
    t.string('post_id').notNullable().references('posts.id').onDelete('CASCADE');
    t.string('media_id').notNullable().references('media.id');
    t.string('workspace_id').notNullable();
    t.integer('position').notNullable();
    t.primary(['post_id', 'position']);
    t.index(['media_id']);
  });
  await db.schema.createTable('post_events', (t) => {
    // Insertion order is the timeline's order, even for events written in the same millisecond.
    t.increments('seq');
    t.string('id').notNullable().unique();
    t.string('post_id').notNullable().references('posts.id').onDelete('CASCADE');
    t.string('workspace_id').notNullable();
    t.string('kind').notNullable();
    t.string('at').notNullable();
    t.text('message');
    t.text('error');
    t.text('notes');
    t.string('publish_at');
    t.index(['post_id', 'seq']);
  });
  await db.schema.createTable('post_creations', (t) => {
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('at').notNullable();
    t.index(['workspace_id', 'at']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['post_creations', 'post_events', 'post_media', 'posts'])
    await db.schema.dropTableIfExists(table);
}
