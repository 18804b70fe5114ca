// What a network's per-app limits count across every workspace of this Herald: TikTok lets an unaudited
// app's posts come from at most 5 accounts in 24 hours, whichever workspace they belong to; YouTube makes
// every upload of an unaudited project private, whichever workspace made it.
import type { Knex } from 'knex';
import { toBool } from './rows.ts';
import type { Clock } from '../runtime/clock.ts';
import type { AppUsage } from '../networks/connector.ts';
import type { Platform } from '../networks/rules.ts';

const DAY_MS = 24 * 3600_000;

export const appUsage = (db: Knex, clock: Clock): AppUsage => ({
  async recentPosters(platform: Platform) {
    const since = new Date(clock.now() - DAY_MS).toISOString();
    const rows: { id: string }[] = await db('posts')
      .join('accounts', 'accounts.id', 'posts.account_id')
      .where('posts.platform', platform)
      .where((q) => q.where('posts.live_at', '>', since).orWhere('posts.attempt_started_at', '>', since))
      .distinct('accounts.external_id as id');
    return rows.map((r) => r.id);
  },
  async latestShownPrivately(platform: Platform) {
    const latest = await db('posts')
      .where({ platform, status: 'live' })
      .orderBy('live_at', 'desc')
      .first('shown_privately');
    return toBool(latest?.shown_privately);
  },
});
