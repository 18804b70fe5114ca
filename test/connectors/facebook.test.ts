// The Facebook Pages connector against its simulator over real HTTP, on both databases: text, link,
// photo, multi-photo, video, reel and story posts at addresses whose pages show them; reels published,
// never left as drafts; every error class with Facebook's own words; the 30-reels limit; media Facebook
// cannot fetch; settling after the worker died (by exact text since the attempt began, by the reel's
// video, by the story's media), never publishing twice; tokens and insights.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Checkpoint, Connector, ConnectorAccount, PublishMedia } from '../../networks/connector.ts';
import { sandboxState, type Scenario } from '../../networks/sandbox/state.ts';
import { startConnectorSuite, type ConnectorSuite, type FileName } from '../support/connectorSuite.ts';
import { DATABASES } from '../support/harness.ts';
import { connectorJob, networkError, postPage, resumed, type TestJob } from '../support/network.ts';

describe.each(DATABASES)('facebook connector on %s', (kind) => {
  let suite: ConnectorSuite;
  let facebook: Connector;
  let env: ConnectorSuite['env'];
  beforeAll(async () => {
    suite = await startConnectorSuite(kind, 'facebook');
    ({ env, connector: facebook } = suite);
  });
  afterAll(() => suite.close());

  const page = () => suite.account();
  const count = (a: ConnectorAccount, kind: string) => suite.count(a, kind);
  const files = (...names: FileName[]) => suite.files(...names);
  const diedAt = (job: TestJob, at: (cp: Checkpoint) => boolean) => suite.diedAt(job, at);
  const state = () => sandboxState(env.services.db, 'facebook');
  const textJob = (a: ConnectorAccount, extra: Partial<Parameters<typeof connectorJob>[0]> = {}) =>
    connectorJob({ account: a, text: 'Open on Sunday.', ...extra });
  const reelJob = async (a: ConnectorAccount) =>
    connectorJob({ account: a, text: 'Our new reel', media: await files('video'), settings: { contentType: 'reel' } });

  describe('publishing each content type', () => {
    const cases: [
      string,
      string,
      () => Promise<PublishMedia[]>,
      Record<string, unknown>,
      { kind: string; images: number; videos: number; text: string },
    ][] = [
      [
        'a text post',
        'Open on Sunday.',
        async () => [],
        {},
        { kind: 'post', images: 0, videos: 0, text: 'Open on Sunday.' },
      ],
      [
        'a link post',
        'Read the menu',
        async () => [],
        { link: 'https://example.com/menu' },
        { kind: 'post', images: 0, videos: 0, text: 'https://example.com/menu' },
      ],
      ['a photo post', 'One photo', () => files('png'), {}, { kind: 'post', images: 1, videos: 0, text: 'One photo' }],
      [
        'a post of two photos',
        'Two photos',
        () => files('jpeg', 'png'),
        {},
        { kind: 'post', images: 2, videos: 0, text: 'Two photos' },
      ],
      [
        'a video post',
        'A video',
        () => files('video'),
        { contentType: 'video' },
        { kind: 'post', images: 0, videos: 1, text: 'A video' },
      ],
      [
        'a reel',
        'Our new reel',
        () => files('video'),
        { contentType: 'reel' },
        { kind: 'reel', images: 0, videos: 1, text: 'Our new reel' },
      ],
      [
        'a 9:16 video of 3 seconds, a reel by default',
        'Short',
        () => files('video'),
        {},
        { kind: 'reel', images: 0, videos: 1, text: 'Short' },
      ],
      [
        'a photo story',
        '',
        () => files('jpeg'),
        { contentType: 'story' },
        { kind: 'story', images: 1, videos: 0, text: '' },
      ],
      [
        'a video story',
        '',
        () => files('video'),
        { contentType: 'story' },
        { kind: 'story', images: 0, videos: 1, text: '' },
      ],
    ];

    it.each(cases)('%s, shown at its address', async (_name, text, media, settings, expected) => {
      const a = await page();
      const published = await facebook.publish(connectorJob({ account: a, text, media: await media(), settings }));

      // A post's address is the permalink_url Facebook answers, not made up from its id.
      const [pageId, postId] = published.externalId.split('_');
      expect(published.externalUrl).toBe(
        postId
          ? `${env.base}/sandbox/facebook/${pageId}/posts/${postId}`
          : `${env.base}/sandbox/facebook/p/${published.externalId}`,
      );
      expect(await count(a, expected.kind)).toBe(1);
      expect((await state().get(published.externalId))?.publishedMs).toBeGreaterThan(0);
      const shown = await postPage(published.externalUrl);
      expect(shown.status).toBe(200);
      expect(shown.html).toContain(a.displayName);
      expect(shown.html).toContain(expected.text);
      expect(shown.html.match(/<img /g)?.length ?? 0).toBe(expected.images);
      expect(shown.html.match(/<video /g)?.length ?? 0).toBe(expected.videos);
      for (const src of shown.media) expect((await fetch(src)).status).toBe(200);
    });

    it('a reel is finished with video_state=PUBLISHED and goes live, never left as a draft', async () => {
      const a = await page();
      const job = await reelJob(a);
      const published = await facebook.publish(job);
      const reel = (await state().get<{ finish: { state: string } }>(published.externalId))!;
      expect({ status: reel.status, finish: reel.data.finish.state }).toEqual({
        status: 'published',
        finish: 'PUBLISHED',
      });
      expect(job.saved[0]).toMatchObject({
        step: 'reel',
        videoId: published.externalId,
        uploadUrl: `${env.base}/sandbox/facebook/rupload/video-upload/v25.0/${published.externalId}`,
      });
    });

    it("records the attempt's start before the creating call of a feed post", async () => {
      const job = textJob(await page());
      const before = new Date().toISOString();
      await facebook.publish(job);
      expect(job.saved).toEqual([{ step: 'post', startedAt: expect.any(String) }]);
      expect(String(job.saved[0]!.startedAt) >= before).toBe(true);
    });
  });

  describe("errors, each mapped to the spec's code with Facebook's own words", () => {
    const queued: [Scenario, string, string][] = [
      [
        'token_rejected',
        'facebook_token_rejected',
        'Error validating access token: The session has been invalidated because the user changed their ' +
          'password or Facebook has changed the session for security reasons. (code 190, subcode 460)',
      ],
      [
        'permission_missing',
        'facebook_permission_missing',
        '(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts permission ' +
          'with page token (code 200)',
      ],
      ['rate_limited', 'facebook_rate_limited', '(#32) Page request limit reached (code 32)'],
      [
        'unavailable',
        'facebook_unavailable',
        'An unexpected error has occurred. Please retry your request later. (code 2)',
      ],
      [
        'rejected',
        'facebook_rejected',
        'This post goes against the Community Standards, so only you can see it. (code 368)',
      ],
      [
        'unverified',
        'facebook_permission_missing',
        'An admin of this Page must complete Page Publishing Authorization before anything can be published. ' +
          '(code 200)',
      ],
    ];

    it.each(queued)('%s answers %s', async (scenario, code, message) => {
      expect(await suite.failOnce(scenario, code, textJob, 'post')).toBe(message);
    });

    it("a slow second upload of a reel's video does not undo the publish that came meanwhile", async () => {
      // Two uploads of one session: a cut attempt's, still downloading, and its successor's, which finishes the reel.
      const a = await page();
      const bytes = Buffer.from(await (await fetch(await (await files('video'))[0]!.publicUrl())).arrayBuffer());
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let asked!: () => void;
      const downloading = new Promise<void>((resolve) => (asked = resolve));
      const slow = http.createServer(async (_req, res) => {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length });
        res.write(bytes.subarray(0, 1024));
        asked();
        await released;
        res.end(bytes.subarray(1024));
      });
      await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
      const graph = async (url: string, form: Record<string, string> = {}, headers: Record<string, string> = {}) =>
        (await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${a.credentials.accessToken}`, ...headers },
          body: new URLSearchParams(form),
        }).then((res) => res.json())) as Record<string, string>;
      const reels = `${env.base}/sandbox/facebook/v25.0/${a.externalId}/video_reels`;
      const { video_id, upload_url } = await graph(reels, { upload_phase: 'start' });
      const upload = (fileUrl: string) =>
        graph(upload_url!, {}, { authorization: `OAuth ${a.credentials.accessToken}`, file_url: fileUrl });
      const slowUpload = upload(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/reel.mp4`);
      await downloading;
      expect(await upload(await (await files('video'))[0]!.publicUrl())).toEqual({ success: true });
      const finished = await graph(reels, { upload_phase: 'finish', video_id: video_id!, video_state: 'PUBLISHED' });
      expect(finished).toEqual({ success: true });
      release();
      expect(await slowUpload).toEqual({ success: true });
      slow.close();
      const reel = (await state().get<{ finish?: { state: string } }>(video_id!))!;
      expect({ status: reel.status, finish: reel.data.finish?.state }).toEqual({
        status: 'published',
        finish: 'PUBLISHED',
      });
    });

    it('refuses a reel with facebook_rate_limited once the Page published 30 in 24 hours', async () => {
      const a = await page();
      await suite.seedPublished(a, 'reel', 30);
      const err = await networkError(facebook.publish(await reelJob(a)), 'facebook_rate_limited');
      expect(err.message).toBe('This Page has published 30 reels through the API in the last 24 hours. (code 4)');
      expect(await count(a, 'reel')).toBe(30);
    });

    it.each([
      ['a photo', 'goneImage', {}, /^The photo could not be downloaded: the address answered HTTP 404\. \(code 324\)$/],
      [
        'a video',
        'goneVideo',
        { contentType: 'video' },
        /^The video could not be downloaded: the address answered HTTP 404\. \(code 389\)$/,
      ],
      [
        'a reel',
        'goneVideo',
        { contentType: 'reel' },
        /^Failed to fetch the file from file_url: the address answered HTTP 404\. \(ProcessingFailedError\)$/,
      ],
    ] as const)(
      "%s Facebook cannot fetch is facebook_rejected, in Facebook's words",
      async (_name, file, settings, message) => {
        const a = await page();
        const err = await networkError(
          facebook.publish(connectorJob({ account: a, text: 'Lost', media: await files(file), settings })),
          'facebook_rejected',
        );
        expect(err.message).toMatch(message);
        expect(await count(a, 'post')).toBe(0);
      },
    );
  });

  describe('exactly once: feed, photo and video posts, found again by their exact text', () => {
    it('nothing recorded: not_published', async () => {
      expect(await facebook.settle(textJob(await page()))).toBe('not_published');
    });

    it('died before the creating call: not_published, then one post', async () => {
      const a = await page();
      const dead = await diedAt(textJob(a), () => true);
      expect(await facebook.settle(resumed(dead))).toBe('not_published');
      await facebook.publish(resumed(dead));
      expect(await count(a, 'post')).toBe(1);
    });

    it('died before attaching two uploaded photos: the same photos make the one post', async () => {
      const a = await page();
      const dead = await diedAt(
        connectorJob({ account: a, text: 'Two photos', media: await files('jpeg', 'png') }),
        () => true,
      );
      expect(dead.checkpoint).toMatchObject({ step: 'post', photoIds: [expect.any(String), expect.any(String)] });
      expect(await facebook.settle(resumed(dead))).toBe('not_published');
      await facebook.publish(resumed(dead));
      expect(await count(a, 'photo')).toBe(2);
      expect(await count(a, 'post')).toBe(1);
    });

    it('published but its answer lost: settle and publish both answer that post', async () => {
      const a = await page();
      const job = textJob(a);
      const published = await facebook.publish(job);
      expect(await facebook.settle(resumed(job))).toEqual(published);
      expect(await facebook.publish(resumed(job))).toEqual(published);
      expect(await count(a, 'post')).toBe(1);
    });

    it('the same text twice since the attempt began: unknown, and publishing again refuses', async () => {
      const a = await page();
      const job = textJob(a);
      await facebook.publish(job);
      await facebook.publish(textJob(a));
      expect(await facebook.settle(resumed(job))).toBe('unknown');
      expect((await networkError(facebook.publish(resumed(job)), 'facebook_rejected')).message).toBe(
        'Facebook shows several posts with this text since the earlier attempt began; check the Page before ' +
          'publishing again.',
      );
      expect(await count(a, 'post')).toBe(2);
    });
  });

  describe('exactly once: reels and stories, found again by their video or photo', () => {
    it('a reel whose worker died after the session started: not_published, then that video is published', async () => {
      const a = await page();
      const dead = await diedAt(await reelJob(a), (cp) => Boolean(cp.videoId));
      expect(await facebook.settle(resumed(dead))).toBe('not_published');
      const published = await facebook.publish(resumed(dead));
      expect(published.externalId).toBe(dead.checkpoint!.videoId);
      expect(await count(a, 'reel')).toBe(1);
    });

    it('a reel finished and still processing: not_published; publishing again waits, finishing it once', async () => {
      const a = await page();
      const job = await reelJob(a);
      const published = await facebook.publish(job);
      const reel = (await state().get(published.externalId))!;
      await state().update(reel.id, { data: { ...reel.data, readyAt: Date.now() + 3600_000 } });
      expect(await facebook.settle(resumed(job))).toBe('not_published');

      const again = resumed(job);
      again.sleep = async (ms) => {
        again.slept.push(ms);
        await state().update(reel.id, { data: { ...reel.data, readyAt: Date.now() } });
      };
      expect(await facebook.publish(again)).toEqual(published);
      expect(again.slept).toHaveLength(1);
      expect(await facebook.settle(resumed(job))).toEqual(published);
      expect(await count(a, 'reel')).toBe(1);
    });

    it('a photo story whose worker died after the photo was uploaded: the same photo makes the one story', async () => {
      const a = await page();
      const dead = await diedAt(
        connectorJob({ account: a, media: await files('jpeg'), settings: { contentType: 'story' } }),
        () => true,
      );
      expect(await facebook.settle(resumed(dead))).toBe('not_published');
      const published = await facebook.publish(resumed(dead));
      expect(await facebook.settle(resumed(dead))).toEqual(published);
      expect(await facebook.publish(resumed(dead))).toEqual(published);
      expect(await count(a, 'photo')).toBe(1);
      expect(await count(a, 'story')).toBe(1);
    });

    it('a video story published but its answer lost: found by its video', async () => {
      const a = await page();
      const job = connectorJob({ account: a, media: await files('video'), settings: { contentType: 'story' } });
      const published = await facebook.publish(job);
      expect(await facebook.settle(resumed(job))).toEqual(published);
      expect(await count(a, 'story')).toBe(1);
    });
  });

  describe('tokens and insights', () => {
    it('Page tokens do not expire: refresh keeps the credentials as they are', async () => {
      const a = await page();
      const credentials = { ...a.credentials, refreshToken: 'kept-refresh-token' };
      expect(await facebook.refresh!({ ...a, credentials })).toEqual(credentials);
    });

    // Reels and video stories have no /insights edge; their video has video_insights.
    it('reads a reel and a video story through video_insights, never their missing /insights edge', async () => {
      const a = await page();
      const reel = await facebook.publish(await reelJob(a));
      expect(Object.keys(await facebook.postInsights(a, reel.externalId))).toEqual([
        'blue_reels_play_count',
        'post_impressions_unique',
        'post_video_avg_time_watched',
      ]);
      const videoStory = await facebook.publish(
        connectorJob({ account: a, text: '', media: await files('video'), settings: { contentType: 'story' } }),
      );
      expect(Object.keys(await facebook.postInsights(a, videoStory.externalId))).toEqual([
        'total_video_views',
        'total_video_views_unique',
      ]);
      const photoStory = await facebook.publish(
        connectorJob({ account: a, text: '', media: await files('jpeg'), settings: { contentType: 'story' } }),
      );
      expect(await facebook.postInsights(a, photoStory.externalId)).toEqual({});
    });

    it("reads the post's and the Page's metrics as numbers", async () => {
      const a = await page();
      const published = await facebook.publish(textJob(a));
      expect(Object.keys(await facebook.postInsights(a, published.externalId))).toEqual([
        'post_media_view',
        'post_total_media_view_unique',
        'post_clicks',
        'post_reactions_by_type_total',
      ]);
      expect(Object.keys(await facebook.accountInsights(a))).toEqual([
        'page_media_view',
        'page_follows',
        'page_post_engagements',
      ]);
    });
  });
});
