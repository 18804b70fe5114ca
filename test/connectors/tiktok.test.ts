// The TikTok connector against its simulator over real HTTP, on both databases: a video through
// FILE_UPLOAD (one piece, and in chunks with Content-Range) and a photo carousel through content/init,
// each shown at its address; every error code with TikTok's words; what the creator's account allows;
// moderation that ends hours later (NotYetPublished, then live from the same publish_id); crashes
// between chunks and after init settled without a second post; token refresh and the counters. And what
// TikTok's pages say and Herald once missed (networks/tiktok/FACTS.md): a private post is never named, so it
// is live at the creator's profile; an unaudited app takes posts from private accounts only, and from 5
// accounts a day; an expired upload_url answers 403; photos are at most 1080p.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotYetPublished, type Checkpoint, type Connector, type ConnectorAccount } from '../../networks/connector.ts';
import { registerSandboxAccount, sandboxState, sandboxToken, type Scenario } from '../../networks/sandbox/state.ts';
import { startConnectorSuite, type ConnectorSuite, type FileName } from '../support/connectorSuite.ts';
import { DATABASES } from '../support/harness.ts';
import { makeImage, tempDir, upload } from '../support/mediaFiles.ts';
import { UNAUDITED_PRIVATE, UNAUDITED_USERS } from '../../networks/tiktok/api.ts';
import { connectorJob, networkError, postPage, publishable, resumed, type TestJob } from '../support/network.ts';

describe.each(DATABASES)('tiktok connector on %s', (kind) => {
  let suite: ConnectorSuite;
  let tiktok: Connector;
  let env: ConnectorSuite['env'];
  /** An 11 MB video: two chunks of TikTok's smallest size, the second taking the rest. */
  let bigVideo: string;
  beforeAll(async () => {
    suite = await startConnectorSuite(kind, 'tiktok');
    ({ env, connector: tiktok } = suite);
    const file = path.join(tempDir(), 'noise.mp4');
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'nullsrc=s=640x360:r=25:d=3.2,geq=random(1)*255:128:128'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '20', '-pix_fmt', 'yuv420p', file],
    ]);
    bigVideo = (await upload(env, suite.ws.writeKey, file, 'video/mp4')).id;
  });
  afterAll(() => suite.close());

  const state = () => sandboxState(env.services.db, 'tiktok');
  const count = (a: ConnectorAccount, kind: string) => suite.count(a, kind);
  const files = (...names: FileName[]) => suite.files(...names);

  /** A sandbox account by its name on TikTok (the simulator reads what it allows from the name). */
  async function account(name = 'Acme Shop'): Promise<ConnectorAccount> {
    const a = await suite.account();
    await registerSandboxAccount(env.services.db, 'tiktok', { id: a.externalId, name, tokens: 'ok' });
    return { ...a, displayName: name };
  }
  const videoJob = async (a: ConnectorAccount, settings: Record<string, unknown> = {}) =>
    connectorJob({
      account: a,
      text: 'Autumn drop #fashion',
      media: await files('video'),
      settings: { privacyLevel: 'PUBLIC_TO_EVERYONE', ...settings },
    });
  const photoJob = async (a: ConnectorAccount) => {
    const job = connectorJob({
      account: a,
      text: 'Three looks for the week',
      media: await files('jpeg', 'png'),
      settings: { privacyLevel: 'PUBLIC_TO_EVERYONE', autoAddMusic: true },
    });
    job.title = 'Autumn looks';
    return job;
  };
  const publishOf = async (job: TestJob) => (await state().get(String(job.checkpoint!.publishId)))!;

  describe('publishing', () => {
    it('a video in one piece, with the settings TikTok takes, shown at its address', async () => {
      const a = await account('No Duets Shop');
      const job = await videoJob(a, { disableComment: true, isAigc: true, coverTimestampMs: 1000 });
      const published = await tiktok.publish(job);
      const username = 'noduetsshop';
      expect(published.externalUrl).toBe(`${env.base}/sandbox/tiktok/@${username}/video/${published.externalId}`);
      const info = (await publishOf(job)).data.postInfo;
      // The account switched duets and stitches off: they stay off whatever the post says.
      expect(info).toEqual({
        privacy_level: 'PUBLIC_TO_EVERYONE',
        disable_comment: true,
        brand_content_toggle: false,
        brand_organic_toggle: false,
        is_aigc: true,
        title: 'Autumn drop #fashion',
        disable_duet: true,
        disable_stitch: true,
        video_cover_timestamp_ms: 1000,
      });
      const page = await postPage(published.externalUrl);
      expect(page.status).toBe(200);
      expect(page.html).toContain('Autumn drop #fashion');
      expect(page.media).toHaveLength(1);
      expect((await fetch(page.media[0]!)).status).toBe(200);
      expect(await count(a, 'post')).toBe(1);
    });

    it('a video in 5 MB chunks with Content-Range, the last taking the rest, resumed after a crash', async () => {
      const a = await account();
      const job = connectorJob({
        account: a,
        text: 'Noise',
        media: await publishable(env, suite.ws.workspaceId, [bigVideo]),
        settings: { privacyLevel: 'SELF_ONLY' },
      });
      const size = job.media[0]!.size;
      expect(size).toBeGreaterThanOrEqual(10 * 1024 * 1024);
      const dead = await suite.diedAt(job, (cp) => cp.sent === 1);
      expect(dead.checkpoint).toMatchObject({
        chunkSize: 5 * 1024 * 1024,
        chunks: Math.floor(size / (5 * 1024 * 1024)),
        sent: 1,
      });
      expect((await publishOf(dead)).data.received).toBe(5 * 1024 * 1024);
      // settle asks TikTok by publish_id: the upload is unfinished, so nothing is out yet.
      expect(await tiktok.settle(resumed(dead))).toBe('not_published');
      const again = resumed(dead);
      const published = await tiktok.publish(again);
      expect(again.saved.map((cp) => cp.sent)).toContain(2);
      expect(again.saved.some((cp) => cp.sent === 1)).toBe(false);
      expect(await count(a, 'publish')).toBe(1);
      expect(await count(a, 'post')).toBe(1);
      expect((await publishOf(dead)).data.received).toBe(size);
      expect((await postPage(published.externalUrl)).status).toBe(200);
    });

    it('a photo carousel through content/init, PNG converted to JPEG, title and description apart', async () => {
      const a = await account();
      const job = await photoJob(a);
      const published = await tiktok.publish(job);
      expect(published.externalUrl).toBe(`${env.base}/sandbox/tiktok/@acmeshop/photo/${published.externalId}`);
      const data = (await publishOf(job)).data as Record<string, any>;
      expect(data.postInfo).toMatchObject({
        title: 'Autumn looks',
        description: 'Three looks for the week',
        auto_add_music: true,
      });
      expect(data.files.map((f: { mime: string }) => f.mime)).toEqual(['image/jpeg', 'image/jpeg']);
      const page = await postPage(published.externalUrl);
      expect(page.html).toContain('Autumn looks');
      expect(page.media).toHaveLength(2);
    });
  });

  describe("errors, each mapped to the spec's code with TikTok's own words", () => {
    const queued: [Scenario, string, string][] = [
      [
        'token_rejected',
        'tiktok_token_rejected',
        'The access token is invalid or not found in the request. (401 access_token_invalid)',
      ],
      [
        'permission_missing',
        'tiktok_permission_missing',
        'The user did not authorize the scope required for completing this request. (401 scope_not_authorized)',
      ],
      ['rate_limited', 'tiktok_rate_limited', 'API rate limit exceeded, please retry later. (429 rate_limit_exceeded)'],
      [
        'quota_exceeded',
        'tiktok_rate_limited',
        'The daily post cap from the API is reached for the current user. (403 spam_risk_too_many_posts) ' +
          "The account reached TikTok's daily limit of posts through apps.",
      ],
      ['unavailable', 'tiktok_unavailable', 'Something went wrong. Please try again later. (500 internal_error)'],
      [
        'unverified',
        'tiktok_rejected',
        'Unaudited clients can only post to a private account. ' +
          `(403 unaudited_client_can_only_post_to_private_accounts) ${UNAUDITED_PRIVATE}`,
      ],
      [
        'rejected',
        'tiktok_rejected',
        'TikTok could not publish the post (file_format_check_failed): TikTok could not read the file: export the ' +
          'video as MP4 (H.264 and AAC).',
      ],
    ];

    it.each(queued)('%s answers %s', async (scenario, code, message) => {
      expect(await suite.failOnce(scenario, code, (a) => videoJob(a), 'post')).toBe(message);
    });

    it('a privacy level the account does not offer, and a public post from an unaudited app', async () => {
      const mismatch = await networkError(
        tiktok.publish(await videoJob(await account('Private Shop'))),
        'tiktok_rejected',
      );
      expect(mismatch.message).toContain(
        '(400 privacy_level_option_mismatch) Choose a privacy level the account offers now',
      );
      const unaudited = await account('Unaudited Private Shop');
      await networkError(tiktok.publish(await videoJob(unaudited)), 'tiktok_rejected');
      // Private posts go through.
      await tiktok.publish(await videoJob(unaudited, { privacyLevel: 'SELF_ONLY' }));
      expect(await count(unaudited, 'post')).toBe(1);
    });
  });

  describe("TikTok's pages against Herald's first week", () => {
    it("a private post is never named: live at the creator's profile, saying TikTok shows it privately", async () => {
      const a = await account('Unaudited Private Shop');
      const job = await videoJob(a, { privacyLevel: 'SELF_ONLY' });
      const published = await tiktok.publish(job);
      expect(published).toEqual({
        externalId: job.checkpoint!.publishId,
        externalUrl: `${env.base}/sandbox/tiktok/@unauditedprivateshop`,
        liveNote:
          "TikTok shows it privately (visible to: only the creator) and gives no link to it; it is on the creator's " +
          'TikTok profile.',
        shownPrivately: true,
      });
      // Not waited for: no poll past the first, and no review recorded.
      expect(job.slept).toEqual([]);
      expect(job.checkpoint!.reviewSince).toBeUndefined();
      const page = await postPage(published.externalUrl);
      expect(page.status).toBe(200);
      expect(page.html).toContain('data-privacy="SELF_ONLY"');
      expect(await tiktok.settle(resumed(job))).toEqual(published);
      expect(await count(a, 'post')).toBe(1);
      const counters = await networkError(tiktok.postInsights(a, published.externalId), 'tiktok_rejected');
      expect(counters.message).toBe('TikTok gives no counters for a post it shows privately.');
    });

    it('a public post TikTok completed but has not named after 7 days is live at the profile, not failed', async () => {
      const a = await account('Review Shop');
      const job = await videoJob(a);
      expect(await tiktok.publish(job).catch((e: unknown) => e)).toBeInstanceOf(NotYetPublished);
      const weekAgo = new Date(Date.now() - 8 * 24 * 3600_000).toISOString();
      const later = resumed({ ...job, checkpoint: { ...job.checkpoint, reviewSince: weekAgo } });
      const published = await tiktok.publish(later);
      expect(published).toMatchObject({
        externalId: job.checkpoint!.publishId,
        externalUrl: `${env.base}/sandbox/tiktok/@reviewshop`,
        liveNote: expect.stringMatching(/^TikTok took the post 8 days ago and has not named it yet/),
      });
    });

    it('an unaudited app: the account itself must be private, whatever the post chooses', async () => {
      const open = await account('Unaudited Shop');
      const err = await networkError(
        tiktok.publish(await videoJob(open, { privacyLevel: 'SELF_ONLY' })),
        'tiktok_rejected',
      );
      expect(err.message).toBe(
        'Unaudited clients can only post to a private account. ' +
          `(403 unaudited_client_can_only_post_to_private_accounts) ${UNAUDITED_PRIVATE}`,
      );
      expect(await count(open, 'publish')).toBe(0);
    });

    it('an unaudited app: 5 accounts may post in 24 hours, a sixth is refused in words', async () => {
      // The day starts afresh: earlier tests' posts are a day old.
      await env.services
        .db('sandbox_items')
        .where({ network: 'tiktok' })
        .update({ created_at: '2000-01-01T00:00:00.000Z' });
      const accounts = [];
      for (let i = 1; i <= 6; i++) accounts.push(await account(`Unaudited Private ${i}`));
      for (const a of accounts.slice(0, 5)) await tiktok.publish(await videoJob(a, { privacyLevel: 'SELF_ONLY' }));
      const sixth = await networkError(
        tiktok.publish(await videoJob(accounts[5]!, { privacyLevel: 'SELF_ONLY' })),
        'tiktok_quota_exceeded',
      );
      expect(sixth.message).toBe(
        'The daily quota for active publishing users from your client is reached. (403 reached_active_user_cap) ' +
          UNAUDITED_USERS,
      );
      // One of the five keeps its place.
      await tiktok.publish(await videoJob(accounts[0]!, { privacyLevel: 'SELF_ONLY' }));
      expect(await count(accounts[5]!, 'publish')).toBe(0);
    });

    it('an upload_url that expired answers 403: a new upload session, one post', async () => {
      const a = await account();
      const dead = await suite.diedAt(await videoJob(a), (cp) => cp.publishId !== undefined);
      const first = await publishOf(dead);
      await state().update(first.id, { data: { ...first.data, uploadExpiresMs: Date.now() - 1 } });
      const again = resumed(dead);
      const published = await tiktok.publish(again);
      expect(again.checkpoint!.publishId).not.toBe(first.id);
      expect(await count(a, 'publish')).toBe(2);
      expect(await count(a, 'post')).toBe(1);
      expect((await postPage(published.externalUrl)).status).toBe(200);
    });

    it('a photo larger than 1080p is scaled down into 1080 by 1920, not refused by TikTok', async () => {
      const a = await account();
      const wide = (await upload(env, suite.ws.writeKey, await makeImage(tempDir(), 'jpeg', 3000, 2000), 'image/jpeg'))
        .id;
      const job = connectorJob({
        account: a,
        text: 'Wide',
        media: [...(await publishable(env, suite.ws.workspaceId, [wide])), ...(await files('jpeg'))],
        settings: { privacyLevel: 'PUBLIC_TO_EVERYONE' },
      });
      const published = await tiktok.publish(job);
      expect(published.externalUrl).toMatch(/\/photo\/\d+$/);
      const page = await postPage(published.externalUrl);
      const sharp = (await import('sharp')).default;
      const sizes = await Promise.all(
        page.media.map(async (src) => {
          const meta = await sharp(Buffer.from(await (await fetch(src)).arrayBuffer())).metadata();
          return [meta.width, meta.height];
        }),
      );
      expect(sizes).toEqual([
        [1620, 1080],
        [1080, 1350],
      ]);
    });

    it('photos TikTok cannot pull end FAILED with photo_pull_failed, named in words', async () => {
      const a = await account();
      const job = connectorJob({
        account: a,
        media: await files('jpeg', 'goneImage'),
        settings: { privacyLevel: 'SELF_ONLY' },
      });
      const err = await networkError(tiktok.publish(job), 'tiktok_rejected');
      expect(err.message).toContain('(photo_pull_failed): TikTok could not download a photo');
      expect(await count(a, 'post')).toBe(0);
    });
  });

  describe('moderation and exactly once', () => {
    it('a public post in review is not a failure: NotYetPublished, then live from the same publish_id', async () => {
      const a = await account('Review Shop');
      const job = await videoJob(a);
      const err = await tiktok.publish(job).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotYetPublished);
      expect((err as NotYetPublished).checkAgainInMs).toBe(60_000);
      expect(job.checkpoint).toMatchObject({ uploaded: true, reviewSince: expect.any(String) });
      // Polled within TikTok's 30 calls a minute, for three minutes of the job's clock.
      expect(Math.min(...job.slept)).toBeGreaterThanOrEqual(2000);
      expect(await count(a, 'post')).toBe(0);
      const item = await publishOf(job);
      await state().update(item.id, { data: { ...item.data, reviewUntilMs: Date.now() } });
      const later = resumed(job);
      const published = await tiktok.publish(later);
      expect(later.saved).toEqual([]);
      expect(await count(a, 'publish')).toBe(1);
      expect(await count(a, 'post')).toBe(1);
      expect(await tiktok.settle(resumed(job))).toEqual(published);
    });

    it('died after video/init: settle asks by publish_id, and the upload ends without a second publish', async () => {
      const a = await account();
      const dead = await suite.diedAt(await videoJob(a), (cp) => cp.publishId !== undefined);
      expect(await tiktok.settle(resumed(dead))).toBe('not_published');
      await tiktok.publish(resumed(dead));
      expect(await count(a, 'publish')).toBe(1);
      expect(await count(a, 'post')).toBe(1);
    });

    it('died before init answered: a video is not out; a photo post cannot be told, nor sent again', async () => {
      const a = await account();
      const beforeInit = (cp: Checkpoint) => cp.initAt !== undefined && cp.publishId === undefined;
      const video = await suite.diedAt(await videoJob(a), beforeInit);
      expect(await tiktok.settle(resumed(video))).toBe('not_published');
      const photos = await suite.diedAt(await photoJob(a), beforeInit);
      expect(await tiktok.settle(resumed(photos))).toBe('unknown');
      await networkError(tiktok.publish(resumed(photos)), 'tiktok_rejected');
      expect(await count(a, 'publish')).toBe(0);
    });

    it('died after content/init: settle answers the photo post, and publishing does not send it again', async () => {
      const a = await account();
      const dead = await suite.diedAt(await photoJob(a), (cp) => cp.publishId !== undefined);
      const published = await tiktok.settle(resumed(dead));
      expect(published).toMatchObject({ externalId: expect.any(String) });
      expect(await tiktok.publish(resumed(dead))).toEqual(published);
      expect(await count(a, 'publish')).toBe(1);
    });
  });

  describe('tokens and counters', () => {
    it('refresh: a 2-hour token and a refresh token used once; a revoked one is tiktok_token_rejected', async () => {
      const a = await account();
      const fresh = await tiktok.refresh!({
        ...a,
        credentials: { ...a.credentials, refreshToken: sandboxToken('refresh', a.externalId) },
      });
      expect(fresh.refreshToken).toMatch(/^sandbox-refresh\./);
      // https://developers.tiktok.com/docs/zh-Hans/oauth-user-access-token-management (read 2026-11-29): 2 hours.
      expect(Date.parse(fresh.expiresAt!) - Date.now()).toBeGreaterThan(7_000_000);
      await tiktok.publish(await videoJob({ ...a, credentials: fresh }, { privacyLevel: 'SELF_ONLY' }));
      // Refresh tokens rotate: the one a refresh answered works once.
      const again = await tiktok.refresh!({ ...a, credentials: fresh });
      await networkError(tiktok.refresh!({ ...a, credentials: fresh }), 'tiktok_token_rejected');
      await registerSandboxAccount(env.services.db, 'tiktok', {
        id: a.externalId,
        name: a.displayName,
        tokens: 'revoked',
      });
      const err = await networkError(tiktok.refresh!({ ...a, credentials: again }), 'tiktok_token_rejected');
      expect(err.message).toBe('Refresh token is invalid or expired. (400 invalid_grant)');
    });

    it("reads a post's and the account's counters (video/query, user/info)", async () => {
      const a = await account();
      const published = await tiktok.publish(await videoJob(a));
      await postPage(published.externalUrl);
      expect(await tiktok.postInsights(a, published.externalId)).toEqual({
        views: 1,
        likes: 0,
        comments: 0,
        shares: 0,
      });
      expect(await tiktok.accountInsights(a)).toEqual({ followers: 0, likes: 0, videos: 1 });
    });
  });
});
