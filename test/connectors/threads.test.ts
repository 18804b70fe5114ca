// The Threads connector against its simulator over real HTTP, on both databases: text (created, then
// published), image, video and carousel posts with topic tags and link attachments; every error class
// with Threads' own words; the publishing limit; media Threads cannot fetch; settling after the worker
// died, never publishing twice; waiting for FINISHED instead of publishing early; refresh and insights.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Checkpoint, Connector, ConnectorAccount, PublishMedia } from '../../networks/connector.ts';
import { PROCESSING_PACE } from '../../networks/graph/client.ts';
import { sandboxState, type Scenario } from '../../networks/sandbox/state.ts';
import { startConnectorSuite, type ConnectorSuite, type FileName } from '../support/connectorSuite.ts';
import { DATABASES } from '../support/harness.ts';
import { connectorJob, networkError, postPage, resumed, type TestJob } from '../support/network.ts';

describe.each(DATABASES)('threads connector on %s', (kind) => {
  let suite: ConnectorSuite;
  let threads: Connector;
  let env: ConnectorSuite['env'];
  beforeAll(async () => {
    suite = await startConnectorSuite(kind, 'threads');
    ({ env, connector: threads } = suite);
  });
  afterAll(() => suite.close());

  const account = () => suite.account();
  const count = (a: ConnectorAccount, kind: string) => suite.count(a, kind);
  const files = (...names: FileName[]) => suite.files(...names);
  const diedAt = (job: TestJob, at: (cp: Checkpoint) => boolean) => suite.diedAt(job, at);
  const state = () => sandboxState(env.services.db, 'threads');
  const textJob = (a: ConnectorAccount, extra: Partial<Parameters<typeof connectorJob>[0]> = {}) =>
    connectorJob({
      account: a,
      text: 'New menu today: https://example.com/menu',
      settings: { topicTag: 'Food' },
      ...extra,
    });

  describe('publishing each kind of post', () => {
    const cases: [
      string,
      () => Promise<PublishMedia[]>,
      Record<string, unknown>,
      { containers: number; images: number; videos: number; mediaType: string },
    ][] = [
      [
        'a text post with a topic tag and a link attachment',
        async () => [],
        { topicTag: 'Food', link: 'https://example.com/menu' },
        { containers: 1, images: 0, videos: 0, mediaType: 'TEXT' },
      ],
      [
        'an image post (a PNG, which Threads takes as it is)',
        () => files('png'),
        {},
        { containers: 1, images: 1, videos: 0, mediaType: 'IMAGE' },
      ],
      ['a video post', () => files('video'), {}, { containers: 1, images: 0, videos: 1, mediaType: 'VIDEO' }],
      [
        'a carousel of three',
        () => files('jpeg', 'png', 'video'),
        { topicTag: 'Food' },
        { containers: 4, images: 2, videos: 1, mediaType: 'CAROUSEL' },
      ],
    ];

    it.each(cases)('%s, shown at its address', async (_name, media, settings, expected) => {
      const a = await account();
      const job = connectorJob({ account: a, text: 'New menu today', media: await media(), settings });
      const published = await threads.publish(job);

      expect(published.externalUrl).toBe(`${env.base}/sandbox/threads/p/${published.externalId}`);
      // Created, then published with threads_publish: never
      // auto_publish_text, so every post has a container to settle by.
      expect(job.saved.map(Object.keys)).toEqual([['containerId'], ['containerId', 'publishingAt']]);
      expect(await count(a, 'container')).toBe(expected.containers);
      const post = (await state().get<{ mediaType: string; extra: Record<string, string> }>(published.externalId))!;
      expect(post.publishedMs).toBeGreaterThan(0);
      expect(post.data.mediaType).toBe(expected.mediaType);
      expect(post.data.extra).toEqual({
        ...(settings.topicTag ? { topic_tag: settings.topicTag } : {}),
        ...(settings.link ? { link_attachment: settings.link } : {}),
      });

      const page = await postPage(published.externalUrl);
      expect(page.status).toBe(200);
      expect(page.html).toContain(a.displayName);
      expect(page.html).toContain('New menu today');
      expect(page.html.match(/<img /g)?.length ?? 0).toBe(expected.images);
      expect(page.html.match(/<video /g)?.length ?? 0).toBe(expected.videos);
      for (const src of page.media) expect((await fetch(src)).status).toBe(200);
    });
  });

  describe("errors, each mapped to the spec's code with Threads' own words", () => {
    const queued: [Scenario, string, string][] = [
      [
        'token_rejected',
        'threads_token_rejected',
        'Error validating access token: The session has been invalidated because the user changed their ' +
          'password or Facebook has changed the session for security reasons. (code 190, subcode 460)',
      ],
      [
        'permission_missing',
        'threads_permission_missing',
        'Application does not have permission for this action (code 10)',
      ],
      ['rate_limited', 'threads_rate_limited', 'Application request limit reached (code 4)'],
      [
        'unavailable',
        'threads_unavailable',
        'An unexpected error has occurred. Please retry your request later. (code 2)',
      ],
      [
        'rejected',
        'threads_rejected',
        'THREADS_API__LINK_LIMIT_EXCEEDED: a post may contain at most 5 links. (code 100)',
      ],
    ];

    it.each(queued)('%s answers %s', async (scenario, code, message) => {
      expect(await suite.failOnce(scenario, code, textJob, 'post')).toBe(message);
    });

    it('refuses with threads_rate_limited when threads_publishing_limit shows 250 of 250 used', async () => {
      const a = await account();
      await suite.seedPublished(a, 'post', 250);
      const err = await networkError(threads.publish(textJob(a)), 'threads_rate_limited');
      expect(err.message).toBe(
        'Threads reports 250 of 250 posts published through the API in the last 24 hours; it accepts no more ' +
          'until older ones leave that window.',
      );
      expect(await count(a, 'post')).toBe(250);
    });

    it.each([
      [
        'a video',
        'goneVideo',
        'Threads could not process the media: FAILED_DOWNLOADING_VIDEO (the video could not be fetched from ' +
          'its address (PUBLIC_URL must be reachable from the internet)).',
      ],
      [
        'an image',
        'goneImage',
        'Threads could not process the media: UNKNOWN (Threads gave no reason; ' +
          "check the file's format and that PUBLIC_URL is reachable from the internet).",
      ],
    ] as const)(
      '%s Threads cannot fetch ends its container in ERROR: threads_rejected, in words',
      async (_name, file, message) => {
        const a = await account();
        expect(
          (
            await networkError(
              threads.publish(connectorJob({ account: a, text: 'Lost', media: await files(file) })),
              'threads_rejected',
            )
          ).message,
        ).toBe(message);
        expect(await count(a, 'post')).toBe(0);
      },
    );
  });

  describe('exactly once', () => {
    it('died after creating the container or before threads_publish: not_published, then one post', async () => {
      for (const at of [(cp: Checkpoint) => !cp.publishingAt, (cp: Checkpoint) => Boolean(cp.publishingAt)]) {
        const a = await account();
        const dead = await diedAt(textJob(a), at);
        expect(await threads.settle(resumed(dead))).toBe('not_published');
        await threads.publish(resumed(dead));
        expect(await count(a, 'container')).toBe(1);
        expect(await count(a, 'post')).toBe(1);
      }
    });

    it('published but its answer lost: settle and publish both answer that post', async () => {
      const a = await account();
      const job = textJob(a);
      const published = await threads.publish(job);
      expect(await threads.settle(resumed(job))).toEqual(published);
      expect(await threads.publish(resumed(job))).toEqual(published);
      expect(await count(a, 'post')).toBe(1);
    });
  });

  describe('waiting for the container', () => {
    it('publishes only once the status is FINISHED (publishing early is what answers "Media Not Found")', async () => {
      const a = await account();
      const dead = await diedAt(
        connectorJob({ account: a, text: 'Slow video', media: await files('video') }),
        (cp) => !cp.publishingAt,
      );
      const containerId = String(dead.checkpoint!.containerId);
      const setReady = async (readyAt: number) => {
        const container = (await state().get(containerId))!;
        await state().update(container.id, { data: { ...container.data, readyAt } });
      };
      await setReady(Date.now() + 3600_000);
      const again = resumed(dead);
      let polls = 0;
      again.sleep = async (ms) => {
        again.slept.push(ms);
        // Processing ends while the connector waits its third interval.
        if (++polls === 3) await setReady(Date.now());
      };
      await threads.publish(again);
      expect(again.slept).toEqual([
        PROCESSING_PACE.firstWaitMs,
        2 * PROCESSING_PACE.firstWaitMs,
        4 * PROCESSING_PACE.firstWaitMs,
      ]);
      expect(await count(a, 'post')).toBe(1);
    });
  });

  describe('tokens and insights', () => {
    it('refresh (th_refresh_token) gives a new token and keeps the stored refresh token', async () => {
      const a = await account();
      const fresh = await threads.refresh!({
        ...a,
        credentials: { ...a.credentials, refreshToken: 'kept-refresh-token' },
      });
      expect(fresh.accessToken).not.toBe(a.credentials.accessToken);
      expect(fresh.refreshToken).toBe('kept-refresh-token');
      expect(Date.parse(fresh.expiresAt!)).toBeGreaterThan(Date.now() + 59 * 86_400_000);
      await threads.publish(textJob({ ...a, credentials: fresh }));
      expect(await count(a, 'post')).toBe(1);
    });

    it("reads the post's and the profile's metrics as numbers", async () => {
      const a = await account();
      const published = await threads.publish(textJob(a));
      expect(Object.keys(await threads.postInsights(a, published.externalId))).toEqual([
        'views',
        'likes',
        'replies',
        'reposts',
        'quotes',
        'shares',
      ]);
      expect(Object.keys(await threads.accountInsights(a))).toEqual([
        'views',
        'likes',
        'replies',
        'reposts',
        'quotes',
        'followers_count',
      ]);
    });
  });
});
