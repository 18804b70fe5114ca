// The Instagram connector against its simulator over real HTTP, on both databases: every content type
// published at an address whose page shows it; every error class with Instagram's own words; the
// publishing limit; media Instagram cannot fetch; settling after the worker died at each checkpoint,
// never publishing twice; expired and unfinished containers; token refresh and insights.
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../runtime/clock.ts';
import type { Checkpoint, Connector, ConnectorAccount, PublishMedia } from '../../networks/connector.ts';
import { PROCESSING_PACE } from '../../networks/graph/client.ts';
import { instagramConnectorModule } from '../../networks/instagram/connector.ts';
import { sandboxState, type Scenario } from '../../networks/sandbox/state.ts';
import { startConnectorSuite, type ConnectorSuite, type FileName } from '../support/connectorSuite.ts';
import { DATABASES } from '../support/harness.ts';
import { connectorJob, networkError, postPage, resumed, type TestJob } from '../support/network.ts';

describe.each(DATABASES)('instagram connector on %s', (kind) => {
  let suite: ConnectorSuite;
  let instagram: Connector;
  let env: ConnectorSuite['env'];
  beforeAll(async () => {
    suite = await startConnectorSuite(kind, 'instagram');
    ({ env, connector: instagram } = suite);
  });
  afterAll(() => suite.close());

  const account = (status?: 'expired' | 'revoked') => suite.account(status);
  const count = (a: ConnectorAccount, kind: string) => suite.count(a, kind);
  const files = (...names: FileName[]) => suite.files(...names);
  const diedAt = (job: TestJob, at: (cp: Checkpoint) => boolean) => suite.diedAt(job, at);
  const state = () => sandboxState(env.services.db, 'instagram');
  const feedJob = async (a: ConnectorAccount, extra: Partial<Parameters<typeof connectorJob>[0]> = {}) =>
    connectorJob({ account: a, text: 'Autumn sale #shop', media: await files('jpeg'), ...extra });
  const afterContainer = (cp: Checkpoint) => Boolean(cp.containerId) && !cp.publishingAt;

  describe('publishing each content type', () => {
    const cases: [
      string,
      string,
      () => Promise<PublishMedia[]>,
      Record<string, unknown>,
      { kind: string; containers: number; images: number; videos: number },
    ][] = [
      [
        'a feed image',
        'Autumn sale #shop',
        () => files('jpeg'),
        {},
        { kind: 'media', containers: 1, images: 1, videos: 0 },
      ],
      [
        'a PNG feed image, sent as its JPEG copy',
        'Autumn in PNG',
        () => files('png'),
        {},
        { kind: 'media', containers: 1, images: 1, videos: 0 },
      ],
      ['a reel', 'Behind the scenes', () => files('video'), {}, { kind: 'media', containers: 1, images: 0, videos: 1 }],
      [
        'an image story',
        '',
        () => files('jpeg'),
        { contentType: 'story' },
        { kind: 'story', containers: 1, images: 1, videos: 0 },
      ],
      [
        'a video story',
        '',
        () => files('video'),
        { contentType: 'story' },
        { kind: 'story', containers: 1, images: 0, videos: 1 },
      ],
      [
        'a carousel of an image and a video',
        'Two looks',
        () => files('jpeg', 'video'),
        {},
        { kind: 'media', containers: 3, images: 1, videos: 1 },
      ],
    ];

    it.each(cases)('%s, shown at its address', async (_name, text, media, settings, expected) => {
      const a = await account();
      const published = await instagram.publish(connectorJob({ account: a, text, media: await media(), settings }));

      expect(published.externalUrl).toBe(`${env.base}/sandbox/instagram/p/${published.externalId}`);
      expect(await count(a, expected.kind)).toBe(1);
      expect(await count(a, 'container')).toBe(expected.containers);
      const item = await state().get(published.externalId);
      expect(item?.publishedMs).toBeGreaterThan(0);

      const page = await postPage(published.externalUrl);
      expect(page.status).toBe(200);
      expect(page.html).toContain(a.displayName);
      if (text) expect(page.html).toContain(text);
      expect(page.html.match(/<img /g)?.length ?? 0).toBe(expected.images);
      expect(page.html.match(/<video /g)?.length ?? 0).toBe(expected.videos);
      for (const src of page.media) {
        const res = await fetch(src);
        expect(res.status).toBe(200);
        // Instagram takes JPEG only: the PNG arrived as its JPEG copy.
        expect(res.headers.get('content-type')).toMatch(/^(image\/jpeg|video\/mp4)/);
      }
    });
  });

  describe("errors, each mapped to the spec's code with Instagram's own words", () => {
    const queued: [Scenario, string, string][] = [
      [
        'token_rejected',
        'instagram_token_rejected',
        'Error validating access token: The session has been invalidated because the user changed their ' +
          'password or Facebook has changed the session for security reasons. (code 190, subcode 460)',
      ],
      [
        'permission_missing',
        'instagram_permission_missing',
        'Application does not have permission for this action (code 10)',
      ],
      ['rate_limited', 'instagram_rate_limited', 'Application request limit reached (code 4)'],
      [
        'unavailable',
        'instagram_unavailable',
        'An unexpected error has occurred. Please retry your request later. (code 2)',
      ],
      [
        'rejected',
        'instagram_rejected',
        "The submitted image with aspect ratio ('0.5/1') cannot be published. " +
          'Please submit an image with a valid aspect ratio. (code 36003, subcode 2207009)',
      ],
      [
        'quota_exceeded',
        'instagram_rate_limited',
        'You have reached the maximum number of posts allowed through the API in 24 hours. (code 9, subcode 2207042)',
      ],
      [
        'unverified',
        'instagram_permission_missing',
        'The account must confirm its identity with two-factor authentication before it can publish through ' +
          'the API. (code 10)',
      ],
    ];

    it.each(queued)('%s answers %s', async (scenario, code, message) => {
      expect(await suite.failOnce(scenario, code, feedJob, 'media')).toBe(message);
    });

    it("another account's token, and accounts set to expired or revoked, are instagram_token_rejected", async () => {
      const stranger = { ...(await account()), credentials: { accessToken: 'IGQVJ-not-a-sandbox-token' } };
      expect((await networkError(instagram.publish(await feedJob(stranger)), 'instagram_token_rejected')).message).toBe(
        'Invalid OAuth access token - Cannot parse access token (code 190)',
      );
      expect(
        (await networkError(instagram.publish(await feedJob(await account('expired'))), 'instagram_token_rejected'))
          .message,
      ).toBe('Error validating access token: Session has expired. (code 190, subcode 463)');
      expect(
        (await networkError(instagram.publish(await feedJob(await account('revoked'))), 'instagram_token_rejected'))
          .message,
      ).toContain('subcode 458');
    });

    it('a connection the network drops is instagram_unavailable', async () => {
      // A host that accepts the connection and resets it.
      const dropping = net.createServer((socket) => socket.resetAndDestroy()).listen(0, '127.0.0.1');
      await once(dropping, 'listening');
      const offline = instagramConnectorModule.create({
        hosts: { graph: `http://127.0.0.1:${(dropping.address() as AddressInfo).port}` },
        fetch,
        clock: systemClock,
      });
      const err = await networkError(offline.publish(await feedJob(await account())), 'instagram_unavailable');
      dropping.close();
      expect(err.message).toMatch(
        /^Instagram could not be reached \(POST \/v25\.0\/sandbox-instagram-\w+\/media\): .+\.$/,
      );
    });

    it('is instagram_rate_limited when content_publishing_limit shows 50 of 50 used, publishing nothing', async () => {
      const a = await account();
      await suite.seedPublished(a, 'media', 50);
      const err = await networkError(instagram.publish(await feedJob(a)), 'instagram_rate_limited');
      expect(err.message).toBe(
        'Instagram reports 50 of 50 posts published through the API in the last 24 hours; it accepts no more ' +
          'until older ones leave that window.',
      );
      expect(await count(a, 'media')).toBe(50);
    });

    it('an image Instagram cannot fetch is instagram_rejected with 2207052, at once', async () => {
      const a = await account();
      const err = await networkError(
        instagram.publish(connectorJob({ account: a, text: 'Lost', media: await files('goneImage') })),
        'instagram_rejected',
      );
      expect(err.message).toBe(
        'The media could not be fetched from the URI: the address answered HTTP 404. ' +
          'Make sure the address is public. (code 9004, subcode 2207052)',
      );
      expect(await count(a, 'container')).toBe(0);
    });

    it('a video Instagram cannot fetch ends its container in ERROR: instagram_rejected, 2207052 told', async () => {
      const a = await account();
      const err = await networkError(
        instagram.publish(connectorJob({ account: a, text: 'Lost reel', media: await files('goneVideo') })),
        'instagram_rejected',
      );
      expect(err.message).toBe(
        'Instagram could not process the media: "Error: Media download has failed: the address answered HTTP ' +
          '404. (2207052)" ' +
          '(the file could not be fetched from its address (PUBLIC_URL must be reachable from the internet)).',
      );
      expect(await count(a, 'media')).toBe(0);
    });
  });

  describe('exactly once: settling after the worker died, and publishing again from its checkpoint', () => {
    it('nothing recorded: not_published', async () => {
      expect(await instagram.settle(await feedJob(await account()))).toBe('not_published');
    });

    it('died after the container was created: not_published, and publishing again uses that container', async () => {
      const a = await account();
      const dead = await diedAt(await feedJob(a), afterContainer);
      expect(await instagram.settle(resumed(dead))).toBe('not_published');
      const again = resumed(dead);
      const published = await instagram.publish(again);
      expect(again.saved.at(-1)).toMatchObject({ containerId: dead.checkpoint!.containerId });
      expect(await count(a, 'container')).toBe(1);
      expect(await count(a, 'media')).toBe(1);
      expect((await postPage(published.externalUrl)).status).toBe(200);
    });

    it('died right before media_publish: not_published, and one post in the end', async () => {
      const a = await account();
      const dead = await diedAt(await feedJob(a), (cp) => Boolean(cp.publishingAt));
      expect(await instagram.settle(resumed(dead))).toBe('not_published');
      await instagram.publish(resumed(dead));
      expect(await count(a, 'container')).toBe(1);
      expect(await count(a, 'media')).toBe(1);
    });

    it.each([
      ['a feed post', {}],
      ['a story', { contentType: 'story' }],
    ])(
      '%s published but its answer lost: settle and publish both find it, never posting again',
      async (_name, settings) => {
        const a = await account();
        const job = await feedJob(a, {
          settings,
          text: (settings as { contentType?: string }).contentType ? '' : 'Autumn sale #shop',
        });
        const published = await instagram.publish(job);
        expect(await instagram.settle(resumed(job))).toEqual(published);
        expect(await instagram.publish(resumed(job))).toEqual(published);
        expect(await count(a, 'container')).toBe(1);
        expect((await count(a, 'media')) + (await count(a, 'story'))).toBe(1);
      },
    );

    it('unknown when two posts with the same caption went out since the attempt began', async () => {
      const a = await account();
      const job = await feedJob(a);
      await instagram.publish(job);
      await instagram.publish(await feedJob(a));
      expect(await instagram.settle(resumed(job))).toBe('unknown');
    });

    it('an expired container is made again, once; the post goes out once', async () => {
      const a = await account();
      const dead = await diedAt(await feedJob(a), afterContainer);
      await env.services
        .db('sandbox_items')
        .where({ id: dead.checkpoint!.containerId })
        .update({ created_at: new Date(Date.now() - 25 * 3600_000).toISOString() });
      expect(await instagram.settle(resumed(dead))).toBe('not_published');
      const again = resumed(dead);
      await instagram.publish(again);
      expect(again.saved[0]!.containerId).not.toBe(dead.checkpoint!.containerId);
      expect(await count(a, 'container')).toBe(2);
      expect(await count(a, 'media')).toBe(1);
    });
  });

  describe('containers still processing', () => {
    const setReady = async (containerId: unknown, readyAt: number) => {
      const container = (await state().get(String(containerId)))!;
      await state().update(container.id, { data: { ...container.data, readyAt } });
    };

    it("waits for FINISHED before media_publish, checking at Meta's pace", async () => {
      const a = await account();
      const dead = await diedAt(
        connectorJob({ account: a, text: 'Slow reel', media: await files('video') }),
        afterContainer,
      );
      await setReady(dead.checkpoint!.containerId, Date.now() + 3600_000);
      const again = resumed(dead);
      // The simulator finishes processing while the connector waits its first interval.
      again.sleep = async (ms) => {
        again.slept.push(ms);
        await setReady(dead.checkpoint!.containerId, Date.now());
      };
      await instagram.publish(again);
      expect(again.slept).toEqual([PROCESSING_PACE.firstWaitMs]);
      expect(await count(a, 'media')).toBe(1);
    });

    it('never publishes IN_PROGRESS: after 5 minutes instagram_unavailable; a retry reuses the container', async () => {
      const a = await account();
      const dead = await diedAt(
        connectorJob({ account: a, text: 'Stuck reel', media: await files('video') }),
        afterContainer,
      );
      const containerId = dead.checkpoint!.containerId;
      await setReady(containerId, Date.now() + 3600_000);
      const waiting = resumed(dead);
      waiting.sleep = async (ms) => {
        waiting.slept.push(ms);
      };
      const err = await networkError(instagram.publish(waiting), 'instagram_unavailable');
      expect(err.message).toBe(`Instagram was still processing the container ${containerId} after 5 minutes.`);
      expect(waiting.slept.reduce((sum, ms) => sum + ms, 0)).toBe(PROCESSING_PACE.giveUpAfterMs);
      expect(Math.max(...waiting.slept)).toBe(PROCESSING_PACE.longestWaitMs);
      expect(await count(a, 'media')).toBe(0);

      await setReady(containerId, Date.now());
      await instagram.publish(resumed(waiting));
      expect(await count(a, 'container')).toBe(1);
      expect(await count(a, 'media')).toBe(1);
    });
  });

  describe('tokens and insights', () => {
    it('has no token refresh: a Page token does not expire; graph.facebook.com has no ig_refresh_token', async () => {
      expect(instagram.refresh).toBeUndefined();
      const res = await fetch(`${env.base}/sandbox/instagram/refresh_access_token?grant_type=ig_refresh_token`, {
        headers: { authorization: `Bearer ${(await account()).credentials.accessToken}` },
      });
      expect(res.status).toBe(404);
    });

    // Stories and reels have metrics of their own, and the simulator refuses the others.
    it('asks a story and a reel only for the metrics their product type has', async () => {
      const a = await account();
      const story = await instagram.publish(await feedJob(a, { text: '', settings: { contentType: 'story' } }));
      expect(Object.keys(await instagram.postInsights(a, story.externalId))).toEqual([
        'views',
        'reach',
        'shares',
        'replies',
        'navigation',
      ]);
      const reel = await instagram.publish(await feedJob(a, { text: 'A reel', media: await files('video') }));
      expect(Object.keys(await instagram.postInsights(a, reel.externalId))).toContain('ig_reels_avg_watch_time');
    });

    it("reads the media's and the account's metrics as numbers", async () => {
      const a = await account();
      const published = await instagram.publish(await feedJob(a));
      const post = await instagram.postInsights(a, published.externalId);
      expect(Object.keys(post)).toEqual(['views', 'reach', 'likes', 'comments', 'shares', 'saved']);
      expect(Object.values(post).every(Number.isInteger)).toBe(true);
      expect(Object.keys(await instagram.accountInsights(a))).toEqual([
        'views',
        'reach',
        'accounts_engaged',
        'total_interactions',
      ]);
    });
  });
});
