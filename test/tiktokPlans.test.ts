// Plans of TikTok posts against each account as TikTok reports it now (creator_info, read at plan time
// through the simulator over real HTTP): a privacy level the account does not offer, an interaction the
// account switched off, a video longer than the account may post; and the unaudited app's private-only
// rule (HERALD_TIKTOK_AUDITED), which the sandbox's audited app does not have. GET /accounts/{id}/posting-options
// answers the same creator_info from the plan's cache, for compose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creatorIssues, type CreatorInfo } from '../networks/tiktok/creatorChecks.ts';
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

describe('an unaudited app posts privately only', () => {
  const creator: CreatorInfo = {
    creator_username: 'acmeshop',
    privacy_level_options: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
    comment_disabled: false,
    duet_disabled: false,
    stitch_disabled: false,
    max_video_post_duration_sec: 600,
  };
  const post = (privacyLevel: string) => ({
    text: '',
    title: null,
    tags: [],
    media: [],
    settings: { privacyLevel },
    settingFiles: {},
  });

  it('HERALD_TIKTOK_AUDITED is false by default with live networks, true in the sandbox', () => {
    expect(loadConfig({ NETWORKS: 'live' }).tiktokAudited).toBe(false);
    expect(loadConfig({}).tiktokAudited).toBe(true);
    expect(loadConfig({ NETWORKS: 'live', HERALD_TIKTOK_AUDITED: 'true' }).tiktokAudited).toBe(true);
    expect(() => loadConfig({ HERALD_TIKTOK_AUDITED: 'yes' })).toThrow('HERALD_TIKTOK_AUDITED');
  });

  it('says why only private posts are possible, and lets SELF_ONLY through', () => {
    expect(creatorIssues(creator, post('FOLLOWER_OF_CREATOR'), false)).toEqual([
      {
        code: 'setting_invalid',
        message:
          "perPlatform.tiktok.privacyLevel FOLLOWER_OF_CREATOR: until TikTok audits Herald's app, TikTok takes " +
          'private posts only.',
        hint:
          'Set perPlatform.tiktok.privacyLevel to SELF_ONLY, or have TikTok audit the app and set ' +
          'HERALD_TIKTOK_AUDITED=true.',
      },
    ]);
    expect(creatorIssues(creator, post('SELF_ONLY'), false)).toEqual([]);
    expect(creatorIssues(creator, post('FOLLOWER_OF_CREATOR'), true)).toEqual([]);
  });
});
