// The sandbox networks' own accounts (NETWORKS=sandbox): who exists on a simulated network, under which
// name, and whether its tokens still work. A simulator is the network, not Herald: it keeps these itself
// instead of reading Herald's accounts. Sandbox accounts made before this version are copied in once.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('sandbox_accounts', (t) => {
    t.string('network').notNullable();
    /** The account's id on the network, as its tokens name it. */
    t.string('id').notNullable();
    t.string('name').notNullable();
    /** ok, expired or revoked: what the network answers a call with the account's tokens. */
    t.string('tokens').notNullable();
    t.string('created_at').notNullable();
    t.primary(['network', 'id']);
  });
  const now = new Date().toISOString();
  const existing = await db('accounts')
    .where('external_id', 'like', 'sandbox-%')
    .select('platform', 'external_id', 'display_name', 'status');
  const unique = new Map(existing.map((a) => [`${a.platform} ${a.external_id}`, a]));
  for (const a of unique.values()) {
    await db('sandbox_accounts').insert({
      network: a.platform,
      id: a.external_id,
      name: a.display_name,
      tokens: a.status,
      created_at: now,
    });
  }
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('sandbox_accounts');
}
