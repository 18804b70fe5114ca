// Accounts' weekly posting times (the posting queue, issue 29) and the instants their queued posts hold.
import type { Knex } from 'knex';
import type { Slot } from '../domain/postingQueue.ts';
import { isoNow, type Clock } from '../runtime/clock.ts';
import type { Db } from './connect.ts';

/** The instants (ms) queued posts of `accountIds` hold from `fromIso` on, by account. */
export async function takenTimes(q: Knex, workspaceId: string, accountIds: string[], fromIso: string) {
  const rows = await q('posts')
    .where({ workspace_id: workspaceId, status: 'queued' })
    .whereIn('account_id', accountIds)
    .where('publish_at', '>=', fromIso)
    .select('account_id', 'publish_at');
  const taken = new Map(accountIds.map((id) => [id, new Set<number>()]));
  for (const row of rows) taken.get(row.account_id)!.add(Date.parse(row.publish_at));
  return taken;
}

export function schedulesData(db: Db, workspaceId: string, clock: Clock) {
  return {
    /** Each account's slots (none when it has no schedule), by account id. */
    slots: async (accountIds: string[], q: Knex = db): Promise<Map<string, Slot[]>> => {
      const rows = await q('account_schedules').where({ workspace_id: workspaceId }).whereIn('account_id', accountIds);
      const found = new Map(rows.map((r) => [r.account_id as string, JSON.parse(r.slots) as Slot[]]));
      return new Map(accountIds.map((id) => [id, found.get(id) ?? []]));
    },

    /** Replaces an account's slots (the caller checked the account is this workspace's). */
    set: async (accountId: string, slots: Slot[]): Promise<void> => {
      const row = { account_id: accountId, workspace_id: workspaceId, slots: JSON.stringify(slots) };
      await db('account_schedules')
        .insert({ ...row, updated_at: isoNow(clock) })
        .onConflict('account_id')
        .merge();
    },

    takenTimes: (accountIds: string[], fromIso: string, q: Knex = db) =>
      takenTimes(q, workspaceId, accountIds, fromIso),
  };
}
