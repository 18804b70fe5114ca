// What counts against a workspace's plan, read from the counters that triggers keep (migration 0015): a few rows
// by primary key, however many posts, files, accounts and members the workspace has.
import type { Knex } from 'knex';
import { toCount } from './rows.ts';

export interface Usage {
  /** Connected accounts. */
  accounts: number;
  members: number;
  /** Bytes of stored files. */
  storageBytes: number;
  /** Posts counted in the month asked for. */
  posts: number;
}

/** The workspace's usage, with posts counted in `month` (YYYY-MM, workspace zone). Exact inside a transaction. */
export async function readUsage(q: Knex, workspaceId: string, month: string): Promise<Usage> {
  // Named: PostgreSQL parses and plans it once per connection (whoami runs it on every call).
  const rows: { counter: string; value: unknown }[] = await q('usage_counters')
    .where('workspace_id', workspaceId)
    .whereIn('period', ['', month])
    .select('counter', 'value')
    .options({ name: 'usage_read' });
  const value = (counter: string) => toCount(rows.find((row) => row.counter === counter)?.value);
  return {
    accounts: value('accounts'),
    members: value('members'),
    storageBytes: value('storage_bytes'),
    posts: value('posts'),
  };
}

/** One counter: 'posts' in `month`, or the others. */
export async function usageCounter(
  q: Knex,
  workspaceId: string,
  counter: 'accounts' | 'members' | 'storage_bytes' | 'posts',
  month = '',
): Promise<number> {
  const row = await q('usage_counters').where({ workspace_id: workspaceId, counter, period: month }).first('value');
  return toCount(row?.value);
}
