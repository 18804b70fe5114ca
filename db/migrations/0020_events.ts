// Workspace events (the feed of GET /v1/events, the dashboard's stream, later webhooks): one row per change,
// written in the transaction of the change. Rows name their object; the feed builds the object's answer when
// read, so the worker's hot path inserts a few short columns only. `payload` holds a snapshot where the
// object is gone (a deleted post). Rows live 30 days (the media sweep deletes older ones by created_at).
import type { Knex } from 'knex';
import { isPostgres } from '../connect.ts';

export async function up(db: Knex): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('events', (t) => {
    if (pg) t.bigIncrements('seq');
    else t.increments('seq');
    t.string('id').notNullable().unique();
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('type').notNullable();
    t.string('object_id').notNullable();
    t.text('payload');
    t.string('created_at').notNullable();
    t.index(['created_at']);
    if (!pg) t.index(['workspace_id', 'seq']);
  });
  if (!pg) return;
  // PostgreSQL hands out sequence numbers in call order, not commit order: a reader orders by the writing
  // transaction's id and reads only transactions older than every one still running (db/events.ts).
  await db.raw('alter table events add column tx xid8 not null default pg_current_xact_id()');
  await db.raw('create index events_tx on events (tx, seq)');
  await db.raw('create index events_workspace_tx on events (workspace_id, tx, seq)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('events');
}
