// A busy month for the calendar's browser walk, written straight into a running server's SQLite file through the
// posts' own data layer (the API's hourly creation limit would take hours): six accounts of two clients (groups),
// 300 posts, half of them made three at a time by one creation, published before `now`, some failed, scheduled
// after it, and one hour of one day holding six posts.
import type { DateTime } from 'luxon';
import { openDatabase } from '../../db/connect.ts';
import { findWorkspace } from '../../db/identity.ts';
import { workspaceData } from '../../db/workspaceData.ts';
import type { Platform } from '../../networks/rules.ts';

const CLIENTS = [
  {
    name: 'Bakery Nord',
    accounts: [
      ['instagram', 'bakery.nord'],
      ['threads', 'bakery.nord'],
      ['facebook', 'Bakery Nord'],
    ],
  },
  {
    name: 'Studio Süd',
    accounts: [
      ['instagram', 'studio.sued'],
      ['youtube', 'Studio Süd'],
      ['threads', 'studio.sued'],
    ],
  },
] as const;

const TEXTS = [
  'Fresh sourdough out of the oven at seven, while it lasts',
  'Winter menu tasting this Friday: six courses, one table for twelve',
  'Behind the scenes of our latest shoot with the new lights',
  'Five ways to keep your plants happy through December',
  'Our team picks for the weekend, from cinnamon buns to rye',
  'New studio hours from Monday: open late on Thursdays',
];

/**
 * Runs `write` again while the server's own writes keep the file busy: a transaction of this process that read
 * before the server wrote cannot write (SQLITE_BUSY_SNAPSHOT) and must start over. Each write is all or nothing.
 */
async function retriedWhileBusy<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= 20 || !String((err as { code?: string }).code).startsWith('SQLITE_BUSY')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

export interface BusyMonth {
  accountIds: string[];
  groupIds: string[];
  posts: number;
  /** The day (ISO date) and hour in the zone that hold six posts. */
  busyDay: string;
  busyHour: number;
  /** Posts on busyDay. */
  busyDayPosts: number;
}

/**
 * Seeds `month` (its first day, in the workspace zone) of workspace `workspaceId`; posts before `now` are live
 * (every tenth failed), the others queued. The workspace moves to the Agency plan (six accounts, groups).
 */
export async function seedBusyMonth(
  dataDir: string,
  workspaceId: string,
  month: DateTime,
  now: DateTime,
  mediaId: string,
): Promise<BusyMonth> {
  const db = openDatabase({ dataDir });
  try {
    await db('workspaces').where({ id: workspaceId }).update({ plan: 'agency' });
    const ws = (await findWorkspace(db, workspaceId))!;
    // Each creation gets its own instant, as separate create requests would.
    let tick = now.minus({ days: 40 }).toMillis();
    const data = workspaceData(db, ws, { now: () => (tick += 1000), sleep: async () => {} });
    const accounts: { id: string; platform: Platform; client: number }[] = [];
    const groupIds: string[] = [];
    for (const [client, { name, accounts: list }] of CLIENTS.entries()) {
      const ids: string[] = [];
      for (const [platform, displayName] of list) {
        const externalId = `busy-${platform}-${client}-${ids.length}`;
        const { id } = await retriedWhileBusy(() =>
          data.accounts.add({ platform, displayName, status: 'ok', externalId, tokenSealed: null }),
        );
        ids.push(id);
        accounts.push({ id, platform, client });
      }
      groupIds.push((await retriedWhileBusy(() => data.groups.create(name, ids))).id);
    }

    const days = month.daysInMonth!;
    const busyDay = month.set({ day: 20 });
    const busyHour = 9;
    let made = 0;
    let busyDayPosts = 0;
    const create = async (at: DateTime, targets: typeof accounts, n: number) => {
      const text = `${TEXTS[n % TEXTS.length]} #${n}`;
      const created = await retriedWhileBusy(() =>
        data.posts.create({
          posts: targets.map((a) => ({
            accountId: a.id,
            platform: a.platform,
            status: 'queued',
            publishAt: at.toUTC().toISO()!,
            text,
            title: a.platform === 'youtube' ? `Studio diary ${n}` : null,
            tags: [],
            mediaIds: n % 2 === 0 ? [mediaId] : [],
            perPlatform: {},
          })),
          createdVia: 'dashboard',
          month: at.toFormat('yyyy-LL'),
          guard: () => {},
        }),
      );
      made += created.length;
      if (at.hasSame(busyDay, 'day')) busyDayPosts += created.length;
      if (at > now) return;
      const failed = n % 10 === 0;
      await retriedWhileBusy(() =>
        db('posts')
          .whereIn(
            'id',
            created.map((p) => p.id),
          )
          .update({
            status: failed ? 'failed' : 'live',
            due_at: null,
            live_at: failed ? null : at.toUTC().toISO(),
            error_code: failed ? 'media_rejected' : null,
            error_message: failed ? 'The network refused the picture.' : null,
            error_hint: failed ? 'Change the picture, then retry.' : null,
          }),
      );
    };
    // Six posts in one hour, each made on its own.
    for (let i = 0; i < 6; i++) await create(busyDay.set({ hour: busyHour, minute: i * 10 }), [accounts[i]!], i);
    // 50 creations of three posts (one client's accounts), then 144 single posts: 300 in all.
    for (let n = 0; n < 194; n++) {
      const day = 1 + ((n * 7) % days);
      const at = month.set({ day, hour: 7 + ((n * 5) % 14), minute: (n * 15) % 60 });
      const client = n % 2;
      const targets = n < 50 ? accounts.filter((a) => a.client === client) : [accounts[n % accounts.length]!];
      await create(at, targets, n + 6);
    }
    return {
      accountIds: accounts.map((a) => a.id),
      groupIds,
      posts: made,
      busyDay: busyDay.toISODate()!,
      busyHour,
      busyDayPosts,
    };
  } finally {
    await db.destroy();
  }
}
