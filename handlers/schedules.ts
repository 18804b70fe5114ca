// GET/PUT /accounts/{accountId}/schedule: an account's weekly posting times (the posting queue).
import type { WorkspaceData } from '../db/workspaceData.ts';
import { notFound } from '../domain/errors.ts';
import { freeTimes, weekOrder, type Slot } from '../domain/postingQueue.ts';
import { isoNow, type Clock } from '../runtime/clock.ts';
import type { Handler } from './types.ts';

async function scheduleOf(data: WorkspaceData, clock: Clock, accountId: string, zone: string) {
  const now = isoNow(clock);
  const slots = (await data.schedules.slots([accountId])).get(accountId)!;
  const taken = (await data.schedules.takenTimes([accountId], now)).get(accountId)!;
  const next = freeTimes(slots, zone, Date.parse(now), taken, 10).map((ms) => new Date(ms).toISOString());
  return { accountId, timezone: zone, slots, next };
}

async function assertAccount(data: WorkspaceData, accountId: string): Promise<void> {
  if (!(await data.accounts.get(accountId))) throw notFound('account', accountId);
}

export const getAccountSchedule: Handler<'getAccountSchedule'> = async ({ cred, data, params, services }) => {
  await assertAccount(data, params.accountId);
  return { status: 200, body: await scheduleOf(data, services.clock, params.accountId, cred.workspace.tz) };
};

export const setAccountSchedule: Handler<'setAccountSchedule'> = async ({ cred, data, params, body, services }) => {
  await assertAccount(data, params.accountId);
  await data.schedules.set(params.accountId, weekOrder(body.slots as Slot[]));
  return { status: 200, body: await scheduleOf(data, services.clock, params.accountId, cred.workspace.tz) };
};
