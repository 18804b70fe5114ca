// Serializes the writers of one workspace inside a transaction: a PostgreSQL row lock on the
// workspace; SQLite already has a single writer. Checks that count before they insert (quotas,
// "is this file in use") stay true until the transaction ends.
import type { Knex } from 'knex';
import { isPostgres } from './connect.ts';

export async function lockWorkspace(trx: Knex.Transaction, workspaceId: string): Promise<void> {
  if (isPostgres(trx)) await trx('workspaces').where({ id: workspaceId }).forUpdate().first('id');
}
