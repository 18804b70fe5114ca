// State of the sandbox networks (NETWORKS=sandbox): what each simulator received and published, and
// the failures an operator queued with `herald sandbox fail`. Kept in the database so the CLI, the
// server and separate worker processes all see the same simulator.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('sandbox_items', (t) => {
    t.string('id').primary();
    t.string('network').notNullable();
    /** The account's id on the network (accounts.external_id). */
    t.string('account').notNullable();
    /** container, post, video, upload_session, ... as the network calls it. */
    t.string('kind').notNullable();
    t.string('status').notNullable();
    t.text('data').notNullable();
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    /** When the publish call arrived, in epoch ms (bench/publish measures lag against it). */
    t.bigInteger('published_ms');
    t.index(['network', 'account', 'kind']);
  });
  await db.schema.createTable('sandbox_failures', (t) => {
    t.increments('id');
    t.string('network').notNullable();
    t.string('account').notNullable();
    t.string('scenario').notNullable();
    t.integer('remaining').notNullable();
    t.string('created_at').notNullable();
    t.index(['network', 'account']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('sandbox_failures');
  await db.schema.dropTableIfExists('sandbox_items');
}
