// What counts against a workspace's plan, read from the counters that triggers keep (migration 0015): a few rows
// by primary key, however many posts, files, accounts and members the workspace has.
import type { Knex } from 'knex';
import { batchedRead } from './batchedReads.ts';
import type { Db } from './connect.ts';
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

interface CounterRow {
  workspace_id: string;
  counter: string;
  period: string;
  value: unknown;
}

const counterRows = batchedRead(
  (db, keys: { workspaceId: string; month: string }[]): Promise<CounterRow[]> =>
    db('usage_counters')
      .whereIn('workspace_id', [...new Set(keys.map((k) => k.workspaceId))])
      .whereIn('period', ['', ...new Set(keys.map((k) => k.month))])
      .select('workspace_id', 'counter', 'period', 'value'),
  (row) => row.workspace_id,
  (key) => key.workspaceId,
);

/** The workspace's usage, with posts counted in `month` (YYYY-MM, workspace zone), read with other requests'. */
export async function readUsage(db: Db, workspaceId: string, month: string): Promise<Usage> {
  const rows = await counterRows(db, { workspaceId, month });
  const value = (counter: string, period = '') =>
    toCount(rows.find((row) => row.counter === counter && row.period === period)?.value);
  return {
    accounts: value('accounts'),
    members: value('members'),
    storageBytes: value('storage_bytes'),
    posts: value('posts', month),
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
