// A disconnected account keeps its row (its posts keep their account) but leaves every list, count and check.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.string('disconnected_at');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => t.dropColumn('disconnected_at'));
}
