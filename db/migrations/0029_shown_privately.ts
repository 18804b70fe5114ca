// A live post the network shows to its account only, whatever visibility was asked (YouTube locks every upload of
// an API project it has not audited to private): its status line says so.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => {
    t.boolean('shown_privately').notNullable().defaultTo(false);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => {
    t.dropColumn('shown_privately');
  });
}
