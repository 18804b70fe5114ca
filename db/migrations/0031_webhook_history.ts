// Webhooks: when each webhook was off (`webhook_pauses`, so a lagging dispatcher never delivers an event
// from a period the webhook was disabled), every secret of the last 24 hours (`retired_secrets`, a JSON list of
// {sealed, until}, replacing the single previous secret, whose columns are emptied here), and a delivery's attempts
// across redeliveries (`attempt_log`, a JSON list; `retry_base`, the attempts made before the current round of
// retries began).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhook_pauses', (t) => {
    t.increments('id');
    t.string('webhook_id').notNullable().references('webhooks.id').onDelete('CASCADE');
    t.string('from').notNullable();
    // Null while the webhook is still off.
    t.string('until');
    t.index(['webhook_id']);
  });
  await db.schema.alterTable('webhooks', (t) => {
    t.text('retired_secrets');
  });
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.text('attempt_log');
    t.integer('retry_base').notNullable().defaultTo(0);
  });
  // A webhook off now is taken as off since it was made: the dispatcher never gave it what happened while it was off.
  const off = await db('webhooks').where({ enabled: false }).select('id', 'created_at');
  for (const hook of off) await db('webhook_pauses').insert({ webhook_id: hook.id, from: hook.created_at });
  const rotated = await db('webhooks')
    .whereNotNull('previous_secret_sealed')
    .select('id', 'previous_secret_sealed', 'previous_secret_until');
  for (const hook of rotated)
    await db('webhooks')
      .where({ id: hook.id })
      .update({
        retired_secrets: JSON.stringify([{ sealed: hook.previous_secret_sealed, until: hook.previous_secret_until }]),
        previous_secret_sealed: null,
        previous_secret_until: null,
      });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('retry_base');
    t.dropColumn('attempt_log');
  });
  await db.schema.alterTable('webhooks', (t) => {
    t.dropColumn('retired_secrets');
  });
  await db.schema.dropTable('webhook_pauses');
}
