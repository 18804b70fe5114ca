// Accounts' weekly posting times (the posting queue) and the instants their queued posts hold.
import type { Knex } from 'knex';
import { freeTimes, type Slot } from '../domain/postingQueue.ts';
import { isoNow, type Clock } from '../runtime/clock.ts';
import type { Db } from './connect.ts';

/** The instants (ms) queued posts of `accountIds` hold from `fromIso` on, by account; post `except` holds none. */
export async function takenTimes(q: Knex, workspaceId: string, accountIds: string[], fromIso: string, except?: string) {
  const query = q('posts')
    .where({ workspace_id: workspaceId, status: 'queued' })
    .whereIn('account_id', accountIds)
    .where('publish_at', '>=', fromIso);
  if (except) query.whereNot('id', except);
  const rows = await query.select('account_id', 'publish_at');
  const taken = new Map(accountIds.map((id) => [id, new Set<number>()]));
  for (const row of rows) taken.get(row.account_id)!.add(Date.parse(row.publish_at));
  return taken;
}

async function readSlots(q: Knex, workspaceId: string, accountIds: string[]): Promise<Map<string, Slot[]>> {
  const rows = await q('account_schedules').where({ workspace_id: workspaceId }).whereIn('account_id', accountIds);
  const found = new Map(rows.map((r) => [r.account_id as string, JSON.parse(r.slots) as Slot[]]));
  return new Map(accountIds.map((id) => [id, found.get(id) ?? []]));
}

/**
 * The posting queue's one picker (plan, create and reschedule all use it): `take(accountId)` gives that account's
 * next free posting time in `zone` after `nowIso` (ms), and holds it, so that posts given times together get
 * different ones; undefined when the account has none within a year. Post `except` (one being moved) leaves its
 * own time free for itself. Read under the workspace lock, the times taken stay free until the writer commits.
 */
export async function queuePicker(
  q: Knex,
  workspaceId: string,
  accountIds: string[],
  zone: string,
  nowIso: string,
  except?: string,
) {
  const [slots, taken] = await Promise.all([
    readSlots(q, workspaceId, accountIds),
    takenTimes(q, workspaceId, accountIds, nowIso, except),
  ]);
  return (accountId: string): number | undefined => {
    const [next] = freeTimes(slots.get(accountId)!, zone, Date.parse(nowIso), taken.get(accountId)!, 1);
    if (next !== undefined) taken.get(accountId)!.add(next);
    return next;
  };
}

export function schedulesData(db: Db, workspaceId: string, clock: Clock) {
  return {
    /** Each account's slots (none when it has no schedule), by account id. */
    slots: (accountIds: string[], q: Knex = db): Promise<Map<string, Slot[]>> => readSlots(q, workspaceId, accountIds),

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

    /** The queue picker outside a transaction (a plan: what a create or a move would take now). */
    picker: (accountIds: string[], zone: string, nowIso: string, except?: string) =>
      queuePicker(db, workspaceId, accountIds, zone, nowIso, except),
  };
}
