// Idempotency keys (the `Idempotency-Key` header): one row per workspace and key. The row is first a claim (a
// token and a lease), committed before the request runs, so a second request with the key, in any process, sees
// it; then the answer, written in the transaction of the request's own write, so the change and the answer the
// key replays commit together or not at all. Rows live 24 hours (the sweep deletes older ones by created_at).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('idempotency_keys', (t) => {
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('key', 255).notNullable();
    // A hash of the operation, its path and query and its body: the same key with another request is refused.
    t.string('fingerprint').notNullable();
    t.string('operation_id').notNullable();
    // The running request's claim: its token and when its lease ends; both null once the answer is stored.
    t.string('token');
    t.string('locked_until');
    t.integer('status');
    // {body, headers} of the answer, as JSON.
    t.text('response');
    t.string('created_at').notNullable();
    t.primary(['workspace_id', 'key']);
    t.index(['created_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('idempotency_keys');
}
