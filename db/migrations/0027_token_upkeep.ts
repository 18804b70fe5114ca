// Token upkeep (worker/tokenUpkeep.ts): when an account's token was last issued (connect or refresh), so the upkeep
// knows its age, and a claim on the row while one instance refreshes it, so no other uses the same token meanwhile.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.string('token_refreshed_at');
    t.string('token_refresh_claim');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.dropColumn('token_refreshed_at');
    t.dropColumn('token_refresh_claim');
  });
}
