// Serializes the writers of one workspace inside a transaction: a PostgreSQL row lock on the
// workspace; SQLite already has a single writer. Checks that count before they insert (quotas,
// "is this file in use") stay true until the transaction ends.
import type { Knex } from 'knex';
import { isPostgres } from './connect.ts';

export async function lockWorkspace(trx: Knex.Transaction, workspaceId: string): Promise<void> {
  // FOR NO KEY UPDATE, not FOR UPDATE: every row inserted for the workspace (a worker's timeline event, say) takes a
  // key-share lock on it through its foreign key, which FOR UPDATE blocks. A worker holding a post's row would then
  // wait on a request holding this lock and about to change that post: a deadlock, which PostgreSQL ends by failing
  // one of them.
  if (isPostgres(trx)) await trx('workspaces').where({ id: workspaceId }).forNoKeyUpdate().first('id');
}
