// Folders and media. A file lies in exactly one folder; each workspace has a root folder ("Library").
// Byte sizes are bigint (PostgreSQL answers them as strings; repositories convert).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('folders', (t) => {
    t.string('id').primary();
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('parent_id').references('folders.id');
    t.string('name').notNullable();
    t.integer('is_root').notNullable().defaultTo(0);
    t.string('created_at').notNullable();
    t.index(['workspace_id', 'parent_id']);
  });
  await db.schema.createTable('media', (t) => {
    t.string('id').primary();
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('folder_id').notNullable().references('folders.id');
    t.string('status').notNullable();
    t.text('fail_reason');
    t.string('filename').notNullable();
    t.string('mime').notNullable();
    t.bigInteger('size').notNullable();
    /** Bytes held in storage now; what counts toward the plan's storage limit. */
    t.bigInteger('stored_bytes').notNullable().defaultTo(0);
    t.string('storage_key');
    t.string('kind');
    t.integer('width');
    t.integer('height');
    t.double('duration_seconds');
    t.double('frame_rate');
    t.string('video_codec');
    t.string('audio_codec');
    t.string('thumbnail_key');
    t.integer('pinned').notNullable().defaultTo(0);
    /** Until when the reservation holds storage and its upload address works. */
    t.string('upload_expires_at');
    /** The https address a from-url file was fetched from; null for uploads. */
    t.text('source_url');
    t.string('uploaded_at');
    t.string('bytes_deleted_at');
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    t.index(['workspace_id', 'folder_id', 'created_at']);
    t.index(['workspace_id', 'status']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('media');
  await db.schema.dropTableIfExists('folders');
}
