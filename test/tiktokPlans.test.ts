// Plans of TikTok posts against each account as TikTok reports it now (creator_info, read at plan time
// through the simulator over real HTTP): a privacy level the account does not offer, an interaction the
// account switched off, a video longer than the account may post; and the unaudited app's private-only
// rule (HERALD_TIKTOK_AUDITED), which the sandbox's audited app does not have. GET /accounts/{id}/posting-options
// answers the same creator_info from the plan's cache, for compose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUDITED_PRIVATE, UNAUDITED_USERS } from '../networks/tiktok/api.ts';
import { registerSandboxAccount } from '../networks/sandbox/state.ts';
import { PRIVACY_LEVELS } from '../networks/tiktok/rules.ts';
import { loadConfig } from '../runtime/config.ts';
import { call, seedWorkspace, type Seeded } from './support/harness.ts';
import { listeningHerald, sandboxAccount } from './support/network.ts';
import { seedMedia } from './support/posts.ts';

describe('tiktok plans read the creator_info of each account (SQLite)', () => {
  let env: Awaited<ReturnType<typeof listeningHerald>>;
  let ws: Seeded;
  beforeAll(async () => {
    env = await listeningHerald('sqlite');
    ws = await seedWorkspace(env, { plan: 'agency' });
  });
  afterAll(() => env.close());

  async function account(name: string): Promise<string> {
    const a = await sandboxAccount(env, ws.workspaceId, 'tiktok');
    await registerSandboxAccount(env.services.db, 'tiktok', { id: a.externalId, name, tokens: 'ok' });
    return a.id;
  }
  async function plan(accountId: string, settings: Record<string, unknown>, seconds = 30) {
    const video = await seedMedia(env, ws.workspaceId, { kind: 'video', durationSeconds: seconds });
    const res = await call(env, 'post', '/v1/posts/plan', {
      key: ws.readKey,
      body: {
        targets: { accountIds: [accountId] },
        mediaIds: [video],
        text: 'Autumn drop',
        perPlatform: { tiktok: settings },
        when: 'now',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.rows[0] as { ok: boolean; issues: { code: string; message: string }[] };
  }

  it('passes what the account offers; refuses a level it does not offer, naming its levels', async () => {
    expect((await plan(await account('Acme Shop'), { privacyLevel: 'PUBLIC_TO_EVERYONE' })).ok).toBe(true);
    const row = await plan(await account('Private Shop'), { privacyLevel: 'PUBLIC_TO_EVERYONE' });
    expect(row.ok).toBe(false);
    expect(row.issues).toEqual([
      expect.objectContaining({
        code: 'setting_invalid',
        message:
          'perPlatform.tiktok.privacyLevel PUBLIC_TO_EVERYONE is not among the levels this account offers: ' +
          'FOLLOWER_OF_CREATOR, SELF_ONLY.',
      }),
    ]);
  });

  it('refuses comments asked for on an account that turned them off; leaving them out passes', async () => {
    const id = await account('No Comments Shop');
    const row = await plan(id, { privacyLevel: 'SELF_ONLY', disableComment: false });
    expect(row.issues.map((i) => i.message)).toEqual([
      'perPlatform.tiktok.disableComment is false, but the account turned comments off in TikTok.',
    ]);
    expect((await plan(id, { privacyLevel: 'SELF_ONLY' })).ok).toBe(true);
  });

  const options = (id: string, key = ws.readKey) => call(env, 'get', `/v1/accounts/${id}/posting-options`, { key });

  it("posting options: nickname, avatar, levels and interactions switched off, from the plan's cache", async () => {
    const { id, externalId } = await sandboxAccount(env, ws.workspaceId, 'tiktok');
    const rename = (name: string) =>
      registerSandboxAccount(env.services.db, 'tiktok', { id: externalId, name, tokens: 'ok' });
    await rename('Private No Comments Shop');
    await plan(id, { privacyLevel: 'SELF_ONLY' });
    // The account changes on TikTok after the plan read it: the options still answer from the plan's cache.
    await rename('Acme Shop');
    const res = await options(id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      accountId: id,
      platform: 'tiktok',
      nickname: 'Private No Comments Shop',
      avatarUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/.+\.svg$/),
      privacyLevels: ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
      commentDisabled: true,
      duetDisabled: false,
      stitchDisabled: false,
      maxVideoSeconds: 600,
    });
    const fresh = await options(await account('Acme Open'));
    expect(fresh.body).toMatchObject({ nickname: 'Acme Open', privacyLevels: PRIVACY_LEVELS, commentDisabled: false });
  });

  it('posting options: auth, another workspace, unknown ids, other networks, a network that refuses', async () => {
    const id = await account('Acme Errors');
    expect((await options(id, '')).body.code).toBe('unauthenticated');
    expect((await options(id, ws.writeKey)).status).toBe(200);
    const other = await seedWorkspace(env, { plan: 'agency' });
    const theirs = await sandboxAccount(env, other.workspaceId, 'tiktok');
    for (const missing of [theirs.id, 'acc_0000000000']) {
      const res = await options(missing);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const instagram = await sandboxAccount(env, ws.workspaceId, 'instagram');
    const refused = await options(instagram.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'invalid_state',
      message: 'Instagram has no posting options of its own per account.',
      hint: 'Use the Instagram settings the contract describes under perPlatform.instagram.',
    });
    const revoked = await sandboxAccount(env, ws.workspaceId, 'tiktok', 'revoked');
    const rejected = await options(revoked.id);
    expect(rejected.status).toBe(502);
    expect(rejected.body.code).toBe('tiktok_token_rejected');
    expect(rejected.body.hint).toMatch(/^Reconnect the TikTok account in the dashboard/);
  });

  it("refuses a video longer than the account's limit (video_too_long)", async () => {
    const row = await plan(await account('Acme Long'), { privacyLevel: 'SELF_ONLY' }, 601);
    expect(row.issues).toEqual([
      expect.objectContaining({
        code: 'video_too_long',
        message: 'mediaIds[0] is 10 minutes 1 seconds; this TikTok account may post videos up to 10 minutes.',
      }),
    ]);
  });
});

describe("an unaudited app: TikTok's content-sharing guidelines, in plans and posting options (SQLite)", () => {
  let env: Awaited<ReturnType<typeof listeningHerald>>;
  let ws: Seeded;
  beforeAll(async () => {
    env = await listeningHerald('sqlite', { tiktokAudited: false });
    ws = await seedWorkspace(env, { plan: 'agency' });
  });
  afterAll(() => env.close());

  async function account(name: string) {
    const a = await sandboxAccount(env, ws.workspaceId, 'tiktok');
    await registerSandboxAccount(env.services.db, 'tiktok', { id: a.externalId, name, tokens: 'ok' });
    return a;
  }
  const body = async (accountId: string, privacyLevel: string) => ({
    targets: { accountIds: [accountId] },
    mediaIds: [await seedMedia(env, ws.workspaceId, { kind: 'video', durationSeconds: 30 })],
    text: 'Autumn drop',
    perPlatform: { tiktok: { privacyLevel } },
    when: 'now',
  });
  async function plan(accountId: string, privacyLevel = 'SELF_ONLY') {
    const res = await call(env, 'post', '/v1/posts/plan', {
      key: ws.readKey,
      body: await body(accountId, privacyLevel),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.rows[0] as { ok: boolean; issues: { code: string; message: string; hint: string }[] };
  }
  const options = async (id: string) =>
    (await call(env, 'get', `/v1/accounts/${id}/posting-options`, { key: ws.readKey })).body;

  it('HERALD_TIKTOK_AUDITED is false by default with live networks, true in the sandbox', () => {
    expect(loadConfig({ NETWORKS: 'live' }).tiktokAudited).toBe(false);
    expect(loadConfig({}).tiktokAudited).toBe(true);
    expect(loadConfig({ NETWORKS: 'live', HERALD_TIKTOK_AUDITED: 'true' }).tiktokAudited).toBe(true);
    expect(() => loadConfig({ HERALD_TIKTOK_AUDITED: 'yes' })).toThrow('HERALD_TIKTOK_AUDITED');
  });

  it('a public account is refused even for a SELF_ONLY post: the account itself must be private', async () => {
    const open = await account('Acme Open');
    expect((await plan(open.id)).issues).toEqual([
      {
        code: 'setting_invalid',
        message:
          "This TikTok account is public: until TikTok audits Herald's app, TikTok takes posts only from " +
          'accounts set to private.',
        hint: UNAUDITED_PRIVATE,
        limit: 'private',
        actual: 'public',
      },
    ]);
    expect(await options(open.id)).toMatchObject({
      privacyLevels: ['SELF_ONLY'],
      unauditedApp: { accountPrivate: false, usersLeft: 5, postedToday: false },
    });
    const closed = await account('Acme Private');
    expect((await plan(closed.id)).ok).toBe(true);
    expect((await plan(closed.id, 'FOLLOWER_OF_CREATOR')).issues.map((i) => i.message)).toEqual([
      "perPlatform.tiktok.privacyLevel FOLLOWER_OF_CREATOR: until TikTok audits Herald's app, TikTok takes " +
        'private posts only.',
    ]);
  });

  it('5 accounts a day: the places left are told, and a sixth account is refused in words', async () => {
    const posted = [];
    for (let i = 1; i <= 5; i++) {
      const a = await account(`Acme Private ${i}`);
      const created = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: { ...(await body(a.id, 'SELF_ONLY')), confirm: true },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      // Gone live an hour ago, in any workspace: the app is the operator's.
      await env.services
        .db('posts')
        .where({ id: created.body.posts[0].id })
        .update({ live_at: new Date(Date.now() - 3600_000).toISOString() });
      posted.push(a);
      expect((await options(a.id)).unauditedApp).toEqual({ accountPrivate: true, usersLeft: 5 - i, postedToday: true });
    }
    const sixth = await account('Acme Private 6');
    expect((await options(sixth.id)).unauditedApp).toEqual({ accountPrivate: true, usersLeft: 0, postedToday: false });
    expect((await plan(sixth.id)).issues).toEqual([
      {
        code: 'setting_invalid',
        message:
          'TikTok lets 5 accounts a day post through an unaudited app, and 5 other accounts have posted in the last ' +
          '24 hours.',
        hint: UNAUDITED_USERS,
        limit: 5,
        actual: 5,
      },
    ]);
    // An account among the five keeps its place.
    expect((await plan(posted[0]!.id)).ok).toBe(true);
  });
});
