// Account health through GET /accounts: each account's token times (never the token) and its network's
// restrictions in force, as far as Herald knows them: TikTok's unaudited app with its places among 5 accounts a day
// (counted over every workspace), YouTube's unaudited project (the sandbox's SANDBOX_YOUTUBE_PROJECT, or live the
// latest upload YouTube made private). On both databases, with the clock the test moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../domain/ids.ts';
import type { Platform } from '../networks/rules.ts';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { manualClock } from './support/manualClock.ts';

const DAY_MS = 86_400_000;
const T0 = Date.parse('2026-11-29T09:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** A post the worker recorded as live on the account at `liveAt` (shown privately when YouTube made it so). */
async function livePost(env: TestEnv, ws: Seeded, accountId: string, platform: Platform, liveAt: number, priv = false) {
  const at = iso(liveAt);
  await env.services.db('posts').insert({
    id: `pst_${randomBase62(10)}`,
    workspace_id: ws.workspaceId,
    account_id: accountId,
    platform,
    status: 'live',
    text: 'Autumn sale',
    tags: '[]',
    media_ids: '[]',
    per_platform: '{}',
    created_via: 'api',
    created_at: at,
    updated_at: at,
    publish_at: at,
    live_at: at,
    shown_privately: priv,
  });
}

describe.each(DATABASES)('account health on %s', (kind) => {
  describe('in the sandbox: an unaudited TikTok app, a YouTube project in Testing', () => {
    const clock = manualClock(T0);
    let env: TestEnv;
    let ws: Seeded;
    let other: Seeded;
    const ids: Partial<Record<Platform, string>> = {};

    const listed = async (seeded = ws) => {
      const res = await call(env, 'get', '/v1/accounts', { key: seeded.readKey });
      expect(res.status).toBe(200);
      return res.body.accounts as { id: string; token: unknown; restrictions: unknown }[];
    };
    const of = async (platform: Platform) => (await listed()).find((a) => a.id === ids[platform])!;

    beforeAll(async () => {
      env = await startHerald(kind, { tiktokAudited: false, sandboxYoutubeProject: 'testing' }, { clock });
      ws = await seedWorkspace(env, { plan: 'agency' });
      other = await seedWorkspace(env, { plan: 'agency' });
      for (const p of ['youtube', 'threads', 'tiktok', 'bluesky', 'facebook'] as const)
        ids[p] = await addAccount(env, ws.workspaceId, p, `Acme ${p}`);
      // Threads' long-lived token: 60 days, renewed with itself.
      await env.services
        .db('accounts')
        .where({ id: ids.threads })
        .update({ token_expires_at: iso(T0 + 60 * DAY_MS) });
      clock.advance(DAY_MS);
    });
    afterAll(() => env.close());

    it('gives each account its last refresh, its access end and its renewal end, never the token', async () => {
      const refreshedAt = iso(T0);
      const accounts = await listed();
      expect(Object.fromEntries(accounts.map((a) => [a.id, a.token]))).toEqual({
        // A consent screen in Testing: the refresh token dies 7 days after consent.
        [ids.youtube!]: { refreshedAt, expiresAt: null, renewableUntil: iso(T0 + 7 * DAY_MS) },
        [ids.threads!]: { refreshedAt, expiresAt: iso(T0 + 60 * DAY_MS), renewableUntil: iso(T0 + 60 * DAY_MS) },
        [ids.tiktok!]: { refreshedAt, expiresAt: null, renewableUntil: iso(T0 + 180 * DAY_MS) },
        [ids.bluesky!]: { refreshedAt, expiresAt: null, renewableUntil: iso(T0 + 90 * DAY_MS) },
        // Facebook Page tokens do not end.
        [ids.facebook!]: { refreshedAt, expiresAt: null, renewableUntil: null },
      });
      expect(JSON.stringify(accounts)).not.toMatch(/token-|v1\./);
    });

    it('a renewal by the token upkeep moves the last refresh and the renewal end', async () => {
      // What db/accountTokens.ts storeRenewal writes.
      const renewedAt = T0 + 30 * DAY_MS;
      await env.services
        .db('accounts')
        .where({ id: ids.tiktok })
        .update({ token_refreshed_at: iso(renewedAt), token_expires_at: iso(renewedAt + 2 * 3600_000) });
      expect((await of('tiktok')).token).toEqual({
        refreshedAt: iso(renewedAt),
        expiresAt: iso(renewedAt + 2 * 3600_000),
        renewableUntil: iso(renewedAt + 180 * DAY_MS),
      });
    });

    it("names the restrictions: TikTok's places left today over every workspace, YouTube's project", async () => {
      const accounts = await listed();
      expect(Object.fromEntries(accounts.map((a) => [a.id, a.restrictions]))).toEqual({
        [ids.youtube!]: [{ code: 'youtube_unaudited_project' }],
        [ids.threads!]: [],
        [ids.tiktok!]: [{ code: 'tiktok_unaudited_app', usersLeft: 5 }],
        [ids.bluesky!]: [],
        [ids.facebook!]: [],
      });
      // Another workspace's TikTok account posted an hour ago: the app is the operator's, so one place fewer.
      const theirs = await addAccount(env, other.workspaceId, 'tiktok', 'Their TikTok');
      await livePost(env, other, theirs, 'tiktok', clock.now() - 3600_000);
      expect((await of('tiktok')).restrictions).toEqual([{ code: 'tiktok_unaudited_app', usersLeft: 4 }]);
      // A day later the place is free again.
      clock.advance(DAY_MS);
      expect((await of('tiktok')).restrictions).toEqual([{ code: 'tiktok_unaudited_app', usersLeft: 5 }]);
    });

    it("lists only the workspace's own accounts, each with its own token times", async () => {
      const theirs = await listed(other);
      expect(theirs.map((a) => a.id)).not.toContain(ids.youtube);
      expect(theirs).toHaveLength(1);
      expect(theirs[0]!.token).toMatchObject({ refreshedAt: iso(T0 + DAY_MS) });
    });
  });

  describe('live: what YouTube did to the latest upload, and an audited TikTok app', () => {
    let env: TestEnv;
    let ws: Seeded;
    let yt: string;
    let tt: string;
    const accounts = async () => (await call(env, 'get', '/v1/accounts', { key: ws.readKey })).body.accounts;
    const restrictions = async () =>
      Object.fromEntries((await accounts()).map((a: { id: string; restrictions: unknown }) => [a.id, a.restrictions]));

    beforeAll(async () => {
      env = await startHerald(kind, { networks: 'live', tiktokAudited: true, sandboxYoutubeProject: 'testing' });
      ws = await seedWorkspace(env, { plan: 'agency' });
      yt = await addAccount(env, ws.workspaceId, 'youtube', 'Acme TV');
      tt = await addAccount(env, ws.workspaceId, 'tiktok', 'Acme TikTok');
    });
    afterAll(() => env.close());

    it('YouTube is restricted while its latest upload came back private; the sandbox setting is ignored', async () => {
      expect(await restrictions()).toEqual({ [yt]: [], [tt]: [] });
      const now = Date.now();
      await livePost(env, ws, yt, 'youtube', now - 2 * 3600_000, true);
      expect(await restrictions()).toEqual({ [yt]: [{ code: 'youtube_unaudited_project' }], [tt]: [] });
      // Google audited the project: the next upload kept its visibility.
      await livePost(env, ws, yt, 'youtube', now - 3600_000);
      expect(await restrictions()).toEqual({ [yt]: [], [tt]: [] });
      // The live token life ignores the sandbox's Testing project: Google's six months unused.
      const { token } = (await accounts()).find((a: { id: string }) => a.id === yt);
      expect(Date.parse(token.renewableUntil) - Date.parse(token.refreshedAt)).toBe(180 * DAY_MS);
    });
  });
});
