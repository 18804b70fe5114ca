// Webhooks: addresses a workspace's events are POSTed to, signed with a secret Herald made (sealed with
// HERALD_SECRET; during a rotation the previous one too, until `previous_secret_until`). `webhook_deliveries` holds
// one row per (event, webhook), created by the dispatcher in the transaction that moves its single position row
// (`webhook_dispatch`), so two processes never create the same delivery; the unique (webhook_id, event_id) pair is the
// last guard. A delivery is claimed by a lease (`lease_until`), kept with its last answer, and lives 30 days.
import type { Knex } from 'knex';
import { isPostgres } from '../connect.ts';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhooks', (t) => {
    t.string('id').primary();
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('url').notNullable();
    // The subscribed event types, as a JSON array.
    t.text('events').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('disabled_reason');
    t.text('secret_sealed').notNullable();
    t.text('previous_secret_sealed');
    t.string('previous_secret_until');
    t.string('created_at').notNullable();
    t.index(['workspace_id', 'created_at']);
  });
  await db.schema.createTable('webhook_deliveries', (t) => {
    t.string('id').primary();
    t.string('webhook_id').notNullable().references('webhooks.id').onDelete('CASCADE');
    t.string('workspace_id').notNullable();
    // The event's id (sent as webhook-id on every attempt); a test event has an id of its own and its payload here.
    t.string('event_id').notNullable();
    t.string('type').notNullable();
    t.text('payload');
    t.string('status').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('next_attempt_at');
    // A sender's claim: until then no other process sends this delivery.
    t.string('lease_until');
    t.integer('response_status');
    t.text('response_body');
    t.integer('duration_ms');
    t.string('created_at').notNullable();
    t.unique(['webhook_id', 'event_id']);
    t.index(['status', 'next_attempt_at']);
    t.index(['webhook_id', 'created_at', 'id']);
    t.index(['created_at']);
  });
  // The dispatcher's position in the events (db/events.ts): one row, moved in the transaction that writes deliveries.
  await db.schema.createTable('webhook_dispatch', (t) => {
    t.integer('id').primary();
    t.string('tx').notNullable();
    t.bigInteger('seq').notNullable();
  });
  // Events written before webhooks existed are not delivered: the dispatcher starts after the last one.
  const pg = isPostgres(db);
  const last = await db('events')
    .select(pg ? db.raw('tx::text as tx') : db.raw("'0' as tx"), 'seq')
    .orderBy(
      pg
        ? [
            { column: 'tx', order: 'desc' },
            { column: 'seq', order: 'desc' },
          ]
        : [{ column: 'seq', order: 'desc' }],
    )
    .first();
  await db('webhook_dispatch').insert({ id: 1, tx: String(last?.tx ?? '0'), seq: Number(last?.seq ?? 0) });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('webhook_dispatch');
  await db.schema.dropTable('webhook_deliveries');
  await db.schema.dropTable('webhooks');
}
