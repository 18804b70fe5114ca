// The YouTube connector against its simulator, over real HTTP on a listening app, with real videos
// and images uploaded through the API: the resumable upload and its resume after a dropped
// connection, the thumbnail and playlist steps and their notes, every error class, settling at each
// checkpoint without ever a second video, token refresh and insights; on both databases.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../runtime/clock.ts';
import type { Checkpoint, Connector, ConnectorAccount } from '../../networks/connector.ts';
import { connectorFor } from '../../networks/connectors.ts';
import { sandboxBase } from '../../networks/sandbox/address.ts';
import {
  queueFailure,
  registerSandboxAccount,
  sandboxState,
  sandboxToken,
  type Scenario,
} from '../../networks/sandbox/state.ts';
import { youtubeSandboxLimits } from '../../networks/youtube/simulator/limits.ts';
import { youtubeConnectorModule } from '../../networks/youtube/connector.ts';
import { startWorker, type RunningWorker } from '../../worker/worker.ts';
import { manualClock } from '../support/manualClock.ts';
import { MADE_PRIVATE_NOTE } from '../../networks/youtube/upload.ts';
import { shapeErrors, type Schemas } from '../support/discoverySchemas.ts';
import discovery from './youtubeSchemas.json' with { type: 'json' };
import { call, DATABASES, seedWorkspace, type Seeded, type TestEnv } from '../support/harness.ts';
import { makeImage, makeVideo, tempDir, upload } from '../support/mediaFiles.ts';
import {
  connectorJob,
  listeningHerald,
  networkError,
  postingCalls,
  postPage,
  publishable,
  resumed as resumedJob,
  sandboxAccount,
  sandboxCount,
  WorkerCrash,
  type TestJob,
} from '../support/network.ts';

describe.each(DATABASES)('youtube connector on %s', (kind) => {
  let env: TestEnv & { base: string };
  let ws: Seeded;
  let youtube: Connector;
  let base: string;
  const dir = tempDir();
  const files = { landscape: '', vertical: '', jpeg: '' };
  const mediaIds = { landscape: '', vertical: '', jpeg: '' };

  beforeAll(async () => {
    env = await listeningHerald(kind, { mediaSweepMs: 0 });
    ws = await seedWorkspace(env, { plan: 'owner' });
    youtube = connectorFor('youtube', env.config, env.services.clock)!;
    base = sandboxBase({ publicUrl: env.base }, 'youtube');
    files.landscape = makeVideo(dir, { seconds: 3, width: 640, height: 360, fps: 25 });
    files.vertical = makeVideo(dir, { seconds: 2, width: 360, height: 640, fps: 25 });
    files.jpeg = await makeImage(dir, 'jpeg', 1280, 720);
    mediaIds.landscape = (await upload(env, ws.writeKey, files.landscape, 'video/mp4')).id;
    mediaIds.vertical = (await upload(env, ws.writeKey, files.vertical, 'video/mp4')).id;
    mediaIds.jpeg = (await upload(env, ws.writeKey, files.jpeg, 'image/jpeg')).id;
  });
  afterAll(async () => {
    await env.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const db = () => env.services.db;
  /**
   * A sandbox channel by its name (a name with "unverified" is an unverified channel), with a refresh token when asked.
   */
  async function channel(displayName = 'Acme TV', opts: { refreshToken?: boolean } = {}): Promise<ConnectorAccount> {
    const account = await sandboxAccount(env, ws.workspaceId, 'youtube');
    // The channel's name on the network, where YouTube reads whether it is verified.
    await registerSandboxAccount(db(), 'youtube', { id: account.externalId, name: displayName, tokens: 'ok' });
    const refreshToken = opts.refreshToken ? { refreshToken: sandboxToken('refresh', account.externalId) } : {};
    return { ...account, displayName, credentials: { ...account.credentials, ...refreshToken } };
  }
  const settings = { visibility: 'unlisted', category: '22', madeForKids: false };

  /** A post of the landscape video (or the vertical one), with the JPEG too when a step needs it. */
  async function jobFor(
    account: ConnectorAccount,
    opts: {
      video?: 'landscape' | 'vertical';
      extra?: Record<string, unknown>;
      checkpoint?: Checkpoint | null;
      withImage?: boolean;
      crashAt?: (cp: Checkpoint) => boolean;
    } = {},
  ): Promise<TestJob> {
    const media = await publishable(env, ws.workspaceId, [
      mediaIds[opts.video ?? 'landscape'],
      ...(opts.withImage ? [mediaIds.jpeg] : []),
    ]);
    const job = connectorJob({
      account,
      media,
      text: 'Spring sale.\nEverything must go.',
      settings: { ...settings, ...opts.extra },
      checkpoint: opts.checkpoint,
      crashAt: opts.crashAt,
    });
    return Object.assign(job, { title: 'Spring sale', tags: ['sale', 'spring deals'] });
  }
  /** The same post started again from what the job saved (the title and tags too). */
  const resumed = (job: TestJob): TestJob => Object.assign(resumedJob(job), { title: job.title, tags: job.tags });
  /** The first checkpoint: the session is open and no byte has been sent. */
  const afterSession = (cp: Checkpoint) => cp.sessionUri !== undefined && cp.videoId === undefined;

  const count = (account: ConnectorAccount, kind: 'video' | 'upload_session') =>
    sandboxCount(env, 'youtube', account, kind);
  const videoIds = async (account: ConnectorAccount) =>
    (await db()('sandbox_items').where({ network: 'youtube', account: account.externalId, kind: 'video' })).map(
      (v) => v.id as string,
    );
  /** Files are compared by digest: a deep comparison of two buffers byte by byte takes seconds. */
  const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const uploadId = (sessionUri: unknown) => new URL(String(sessionUri)).searchParams.get('upload_id')!;
  const storedBytes = (sessionUri: unknown) =>
    fs.readFileSync(path.join(env.config.dataDir, 'sandbox', 'youtube', uploadId(sessionUri)));
  const failNext = (account: ConnectorAccount, scenario: Scenario, times = 1) =>
    queueFailure(db(), { network: 'youtube', account: account.externalId, scenario, times });
  const api = (
    account: ConnectorAccount,
    route: string,
    init: { method?: string; body?: string; headers?: Record<string, string> } = {},
  ) =>
    fetch(`${base}${route}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${account.credentials.accessToken}`,
        'Content-Type': 'application/json',
        ...init.headers,
      },
    });
  const newPlaylist = async (account: ConnectorAccount, title: string) =>
    (
      await (
        await api(account, '/youtube/v3/playlists?part=snippet,status', {
          method: 'POST',
          body: JSON.stringify({ snippet: { title }, status: { privacyStatus: 'public' } }),
        })
      ).json()
    ).id as string;
  const playlistVideos = async (account: ConnectorAccount, playlistId: string) =>
    (
      (await (await api(account, `/youtube/v3/playlistItems?part=snippet&playlistId=${playlistId}`)).json()).items as {
        snippet: { resourceId: { videoId: string } };
      }[]
    ).map((i) => i.snippet.resourceId.videoId);

  describe('publishing', () => {
    it('uploads the video through a resumable session and shows it on its watch page', async () => {
      const account = await channel('Acme TV');
      const job = await jobFor(account);
      const published = await youtube.publish(job);

      expect(published.externalUrl).toBe(`${base}/watch?v=${published.externalId}`);
      expect(published.notes).toBeUndefined();
      // The session is recorded before any byte is sent, the video the moment it exists.
      expect(job.saved[0]).toEqual({
        sessionUri: expect.stringContaining(`${base}/upload/youtube/v3/videos?uploadType=resumable`),
        startedAt: expect.any(String),
      });
      expect(job.saved[1]).toMatchObject({ sessionUri: job.saved[0]!.sessionUri, videoId: published.externalId });
      expect(digest(storedBytes(job.saved[0]!.sessionUri))).toBe(digest(fs.readFileSync(files.landscape)));

      const [video] = await db()('sandbox_items').where({
        network: 'youtube',
        account: account.externalId,
        kind: 'video',
      });
      expect(video.id).toBe(published.externalId);
      expect(Number(video.published_ms)).toBeGreaterThan(0);
      expect(JSON.parse(video.data)).toMatchObject({
        snippet: {
          title: 'Spring sale',
          description: 'Spring sale.\nEverything must go.',
          tags: ['sale', 'spring deals'],
          categoryId: '22',
          channelTitle: 'Acme TV',
        },
        status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false, uploadStatus: 'processed' },
      });

      const page = await postPage(published.externalUrl);
      expect(page.status).toBe(200);
      expect(page.html).toContain('<h1>Spring sale</h1>');
      expect(page.html).toContain('Spring sale.\nEverything must go.');
      expect(page.html).toContain('<span class="visibility">unlisted</span>');
      expect(page.html).toContain('<p class="channel">Acme TV</p>');
      const played = await fetch(page.media[0]!);
      expect(played.headers.get('content-type')).toBe('video/mp4');
      expect(digest(Buffer.from(await played.arrayBuffer()))).toBe(digest(fs.readFileSync(files.landscape)));
    });

    it('a vertical video of up to 3 minutes is a Short, at /shorts/<id>', async () => {
      const published = await youtube.publish(await jobFor(await channel(), { video: 'vertical' }));
      expect(published.externalUrl).toBe(`${base}/shorts/${published.externalId}`);
      expect((await postPage(published.externalUrl)).html).toContain('data-short="true"');
    });

    it('sets the thumbnail from the image and adds the video to the playlist', async () => {
      const account = await channel('Acme TV');
      const playlistId = await newPlaylist(account, 'Sales');
      const job = await jobFor(account, { withImage: true, extra: { thumbnailMediaId: mediaIds.jpeg, playlistId } });
      const published = await youtube.publish(job);

      expect(published.notes).toBeUndefined();
      expect(job.saved.at(-1)).toMatchObject({
        videoId: published.externalId,
        thumbnailDone: true,
        playlistDone: true,
      });
      expect(await playlistVideos(account, playlistId)).toEqual([published.externalId]);
      const poster = /poster="([^"]+)"/.exec((await postPage(published.externalUrl)).html)![1]!;
      expect(digest(Buffer.from(await (await fetch(poster)).arrayBuffer()))).toBe(digest(fs.readFileSync(files.jpeg)));
    });

    it("goes live when the steps fail, noted in YouTube's words: unverified channel, missing playlist", async () => {
      const job = await jobFor(await channel('Corner Shop (unverified)'), {
        withImage: true,
        extra: { thumbnailMediaId: mediaIds.jpeg, playlistId: 'PLdoesnotexist' },
      });
      const published = await youtube.publish(job);

      expect(published.notes).toEqual([
        'Thumbnail skipped: YouTube answered "The authenticated user doesn\'t have permissions for uploading ' +
          'and setting custom video thumbnails. (403 forbidden)". Verify the channel by phone, then set the ' +
          'thumbnail on YouTube.',
        'Playlist skipped: YouTube answered "The playlist identified with the request\'s playlistId ' +
          'parameter cannot be found. (404 playlistNotFound)". Check that the playlist belongs to this ' +
          'channel, then add the video to it on YouTube.',
      ]);
      expect(job.saved.at(-1)).toMatchObject({ thumbnailDone: true, playlistDone: true, notes: published.notes });
      expect((await postPage(published.externalUrl)).status).toBe(200);
    });

    it('a resumed attempt does not insert into the playlist twice, and keeps the notes of earlier steps', async () => {
      const account = await channel('Corner Shop unverified');
      const playlistId = await newPlaylist(account, 'All');
      const extra = { thumbnailMediaId: mediaIds.jpeg, playlistId };
      const first = await jobFor(account, { withImage: true, extra });
      const published = await youtube.publish(first);
      expect(published.notes).toHaveLength(1);
      // As if the worker died after the insert and before recording it.
      const { playlistDone: _, ...beforeRecording } = first.saved.at(-1)!;
      const resumedPublish = await youtube.publish(
        await jobFor(account, { withImage: true, extra, checkpoint: beforeRecording }),
      );

      expect(resumedPublish).toEqual(published);
      expect(await playlistVideos(account, playlistId)).toEqual([published.externalId]);
      expect(await count(account, 'video')).toBe(1);
    });
  });

  describe('resume after a dropped connection', () => {
    it('asks the session where it stands and sends the rest from the reported Range', async () => {
      const account = await channel();
      const requests: { method: string; range: string | null }[] = [];
      // The real fetch, only watched: what the connector sends is what this test checks.
      const watched = youtubeConnectorModule.create({
        hosts: youtubeConnectorModule.sandboxHosts(base),
        clock: systemClock,
        fetch: (input, init) => {
          requests.push({ method: init?.method ?? 'GET', range: new Headers(init?.headers).get('Content-Range') });
          return fetch(input, init);
        },
      });
      // The worker dies once the session is recorded; while it is down the link breaks, so the next
      // PUT keeps half of its bytes on YouTube's side before the connection drops.
      const first = await jobFor(account, { crashAt: afterSession });
      await expect(watched.publish(first)).rejects.toBeInstanceOf(WorkerCrash);
      await failNext(account, 'unavailable');
      const job = resumed(first);
      const published = await watched.publish(job);

      const total = fs.statSync(files.landscape).size;
      const half = Math.floor(total / 2);
      expect(requests.filter((r) => r.method === 'PUT').map((r) => r.range)).toEqual([
        `bytes */${total}`,
        null,
        `bytes */${total}`,
        `bytes ${half}-${total - 1}/${total}`,
      ]);
      expect(job.slept).toEqual([1000]);
      expect(digest(storedBytes(job.checkpoint!.sessionUri))).toBe(digest(fs.readFileSync(files.landscape)));
      expect(await videoIds(account)).toEqual([published.externalId]);
    });

    it('gives up after bounded resumes with youtube_unavailable; the next attempt resumes that session', async () => {
      const account = await channel();
      const first = await jobFor(account, { crashAt: afterSession });
      await expect(youtube.publish(first)).rejects.toBeInstanceOf(WorkerCrash);
      await failNext(account, 'unavailable', 6);
      const second = resumed(first);
      await networkError(youtube.publish(second), 'youtube_unavailable');
      expect(second.slept).toEqual([1000, 2000, 4000, 8000, 16000]);
      expect(await count(account, 'video')).toBe(0);

      const third = resumed(second);
      const published = await youtube.publish(third);
      expect(third.saved.at(-1)).toMatchObject({
        sessionUri: first.checkpoint!.sessionUri,
        videoId: published.externalId,
      });
      expect(digest(storedBytes(first.checkpoint!.sessionUri))).toBe(digest(fs.readFileSync(files.landscape)));
      expect(await count(account, 'upload_session')).toBe(1);
      expect(await count(account, 'video')).toBe(1);
    });
  });

  describe("errors, each mapped to the spec's code with YouTube's own message", () => {
    const queued: [Scenario, string, string][] = [
      ['unavailable', 'youtube_unavailable', 'Backend Error (503 backendError)'],
      [
        'rate_limited',
        'youtube_rate_limited',
        'The user has exceeded the number of videos they may upload. (400 uploadLimitExceeded)',
      ],
      [
        'token_rejected',
        'youtube_token_rejected',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or ' +
          'other valid authentication credential. See ' +
          'https://developers.google.com/identity/sign-in/web/devconsole-project. (401 authError)',
      ],
      [
        'permission_missing',
        'youtube_permission_missing',
        'Request had insufficient authentication scopes. (403 insufficientPermissions)',
      ],
      ['rejected', 'youtube_rejected', 'The request metadata is invalid. (400 invalidVideoMetadata)'],
      [
        'quota_exceeded',
        'youtube_quota_exceeded',
        'The request cannot be completed because you have exceeded your quota. (403 quotaExceeded)',
      ],
    ];
    it.each(queued)('a queued %s failure answers %s', async (scenario, code, message) => {
      const account = await channel();
      await failNext(account, scenario);
      const job = await jobFor(account);
      const err = await networkError(youtube.publish(job), code);
      expect(err.message).toBe(message);
      // Refused at the session start: nothing to settle, nothing on the channel.
      expect(job.saved).toEqual([]);
      expect(await count(account, 'upload_session')).toBe(0);
      // The worker waits for the quota's reset (NetworkRules.quotaResetZone), whatever the answer says.
      if (scenario === 'quota_exceeded') expect(err.retryAfterSeconds).toBeUndefined();
    });

    it("an unverified channel's over-long upload is rejected by YouTube: youtube_unverified", async () => {
      const account = await channel();
      await failNext(account, 'unverified');
      const job = await jobFor(account);
      const err = await networkError(youtube.publish(job), 'youtube_unverified');
      expect(err.message).toBe(
        'YouTube rejected the video: it is longer than the channel may upload (rejectionReason length).',
      );
      const [videoId] = await videoIds(account);
      expect(job.checkpoint).toMatchObject({ videoId });
      expect((await postPage(`${base}/watch?v=${videoId}`)).html).toContain(
        'This video has been removed because it is too long.',
      );
    });

    it("the channel's daily upload cap (uploadLimitExceeded) waits for YouTube's reset, not minutes", async () => {
      // 12:00 UTC is 04:00 in Los Angeles in November: the reset at midnight Pacific is 20 hours away.
      const atNoon = connectorFor('youtube', env.config, manualClock(Date.parse('2026-11-29T12:00:00Z')))!;
      const account = await channel();
      await failNext(account, 'rate_limited');
      const err = await networkError(atNoon.publish(await jobFor(account)), 'youtube_rate_limited');
      expect(err.message).toBe('The user has exceeded the number of videos they may upload. (400 uploadLimitExceeded)');
      expect(err.retryAfterSeconds).toBe(20 * 3600);
      expect(err.hint).toMatch(/after the daily reset at midnight Pacific time/);
    });

    it('the daily "Video Uploads" bucket answers 429 rateLimitExceeded: youtube_quota_exceeded', async () => {
      const account = await channel();
      for (let i = 0; i < youtubeSandboxLimits.uploadsPerDay; i++) {
        const res = await api(account, '/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status', {
          method: 'POST',
          headers: { 'X-Upload-Content-Length': '1000', 'X-Upload-Content-Type': 'video/mp4' },
          body: JSON.stringify({
            snippet: { title: `Draft ${i}`, categoryId: '22' },
            status: { privacyStatus: 'private' },
          }),
        });
        expect(res.status).toBe(200);
      }
      const err = await networkError(youtube.publish(await jobFor(account)), 'youtube_quota_exceeded');
      expect(err.message).toContain("limit 'Video Uploads per day'");
      expect(err.message).toMatch(/\(429 rateLimitExceeded\)$/);
    });

    it('metadata YouTube refuses is youtube_rejected, quoting its message without its markup', async () => {
      const err = await networkError(
        youtube.publish(await jobFor(await channel(), { extra: { category: '99' } })),
        'youtube_rejected',
      );
      expect(err.message).toBe(
        'The snippet.categoryId property specifies an invalid category ID. Use the videoCategories.list ' +
          'method to retrieve supported categories. (400 invalidCategoryId)',
      );
    });

    it('a token the network does not know, or one of a revoked account, is youtube_token_rejected', async () => {
      const stranger = { ...(await channel()), credentials: { accessToken: 'ya29.not-a-sandbox-token' } };
      await networkError(youtube.publish(await jobFor(stranger)), 'youtube_token_rejected');
      const revoked = await sandboxAccount(env, ws.workspaceId, 'youtube', 'revoked');
      await networkError(youtube.publish(await jobFor(revoked)), 'youtube_token_rejected');
    });
  });

  describe('settle: did the post go out? never a second video', () => {
    const expire = (sessionUri: unknown) =>
      sandboxState(db(), 'youtube').update(uploadId(sessionUri), { status: 'expired' });
    /** A post published in full, and the checkpoint as it stood after the session was recorded. */
    async function publishedWithSession(account: ConnectorAccount) {
      const job = await jobFor(account);
      return { published: await youtube.publish(job), checkpoint: job.saved[0]! };
    }
    /** The checkpoint of a worker that died right after recording the session. */
    async function diedAfterSession(account: ConnectorAccount) {
      const job = await jobFor(account, { crashAt: afterSession });
      await expect(youtube.publish(job)).rejects.toBeInstanceOf(WorkerCrash);
      return job;
    }

    it('nothing recorded, or a session that got nothing: not_published; publishing resumes that session', async () => {
      const account = await channel();
      expect(await youtube.settle(await jobFor(account))).toBe('not_published');
      const died = await diedAfterSession(account);
      expect(await youtube.settle(resumed(died))).toBe('not_published');
      const published = await youtube.publish(resumed(died));
      expect(await count(account, 'upload_session')).toBe(1);
      expect(await videoIds(account)).toEqual([published.externalId]);
    });

    it('a session holding part of the video: not_published', async () => {
      const account = await channel();
      const died = await diedAfterSession(account);
      await failNext(account, 'unavailable', 6);
      const dropped = resumed(died);
      await networkError(youtube.publish(dropped), 'youtube_unavailable');
      expect(await youtube.settle(resumed(dropped))).toBe('not_published');
      expect(await count(account, 'video')).toBe(0);
    });

    it('a finished session whose video was never recorded answers the video again', async () => {
      const account = await channel();
      const { published, checkpoint } = await publishedWithSession(account);
      const settling = await jobFor(account, { checkpoint });
      expect(await youtube.settle(settling)).toEqual(published);
      expect(settling.saved.at(-1)).toMatchObject({ videoId: published.externalId });
      expect(await count(account, 'video')).toBe(1);
    });

    it('a session holding every byte whose video was never made (its last call failed): finished once', async () => {
      const account = await channel();
      const { checkpoint } = await publishedWithSession(account);
      // As if the call that brought the last bytes had failed as it made the video: the bytes are held, no video.
      const state = sandboxState(db(), 'youtube');
      const session = (await state.get<Record<string, unknown>>(uploadId(checkpoint.sessionUri)))!;
      await db()('sandbox_items').where({ network: 'youtube', kind: 'video', account: account.externalId }).delete();
      await state.update(session.id, { status: 'receiving', data: { ...session.data, videoId: undefined } });
      const published = await youtube.publish(await jobFor(account, { checkpoint }));
      expect(await videoIds(account)).toEqual([published.externalId]);
    });

    it("an expired session: the video is found among the channel's recent uploads by its title and text", async () => {
      const account = await channel();
      const { published, checkpoint } = await publishedWithSession(account);
      await expire(checkpoint.sessionUri);
      expect(await youtube.settle(await jobFor(account, { checkpoint }))).toEqual(published);
      // Publishing from that checkpoint finds it too, instead of uploading again.
      expect(await youtube.publish(await jobFor(account, { checkpoint }))).toEqual(published);
      expect(await count(account, 'video')).toBe(1);
      expect(await count(account, 'upload_session')).toBe(1);
    });

    it('an expired session that made no video: not_published, and publishing opens one new session', async () => {
      const account = await channel();
      const died = await diedAfterSession(account);
      await expire(died.checkpoint!.sessionUri);
      expect(await youtube.settle(resumed(died))).toBe('not_published');
      const next = resumed(died);
      const published = await youtube.publish(next);
      expect(next.saved[0]!.sessionUri).not.toBe(died.checkpoint!.sessionUri);
      expect(next.saved[0]!.startedAt).toBe(died.checkpoint!.startedAt);
      expect(await count(account, 'upload_session')).toBe(2);
      expect(await videoIds(account)).toEqual([published.externalId]);
    });

    it('a recorded video whose steps did not run yet: settle finishes them, once', async () => {
      const account = await channel('Unverified Bakery');
      const extra = { thumbnailMediaId: mediaIds.jpeg, playlistId: await newPlaylist(account, 'Bakes') };
      const died = await jobFor(account, { withImage: true, extra, crashAt: (cp) => cp.videoId !== undefined });
      await expect(youtube.publish(died)).rejects.toBeInstanceOf(WorkerCrash);
      const settled = await youtube.settle(resumed(died));
      expect(settled).toMatchObject({
        externalId: died.checkpoint!.videoId,
        notes: [
          expect.stringMatching(
            /^Thumbnail skipped: YouTube answered ".*\(403 forbidden\)"\. Verify the channel by phone/,
          ),
        ],
      });
      expect(await playlistVideos(account, extra.playlistId)).toEqual([died.checkpoint!.videoId]);
      expect(await count(account, 'video')).toBe(1);
    });

    it('unknown only when neither the session nor the uploads can be read', async () => {
      const account = await channel();
      const { checkpoint } = await publishedWithSession(account);
      await expire(checkpoint.sessionUri);
      await registerSandboxAccount(db(), 'youtube', {
        id: account.externalId,
        name: account.displayName,
        tokens: 'revoked',
      });
      expect(await youtube.settle(await jobFor(account, { checkpoint }))).toBe('unknown');
    });
  });

  describe("shapes: what Herald sends and the simulator answers fit YouTube's discovery document", () => {
    /** The schema of each JSON body by call (method and path under /youtube/v3), as the discovery document names it. */
    const SENT: Record<string, string> = { 'POST /videos': 'Video', 'POST /playlistItems': 'PlaylistItem' };
    const ANSWERED: Record<string, string> = {
      'PUT /videos': 'Video',
      'POST /thumbnails/set': 'ThumbnailSetResponse',
      'POST /playlistItems': 'PlaylistItem',
      'GET /playlistItems': 'PlaylistItemListResponse',
      'GET /channels': 'ChannelListResponse',
      'GET /videos': 'VideoListResponse',
    };
    const schemas = discovery.schemas as Schemas;

    it('videos.insert, thumbnails.set, playlistItems, channels.list and videos.list, both ways', async () => {
      const bodies: { call: string; schema: string | undefined; body: unknown }[] = [];
      const watched = youtubeConnectorModule.create({
        hosts: youtubeConnectorModule.sandboxHosts(base),
        clock: systemClock,
        fetch: async (input, init) => {
          const call = `${init?.method ?? 'GET'} ${new URL(String(input)).pathname.replace(/^.*\/youtube\/v3/, '')}`;
          if (typeof init?.body === 'string')
            bodies.push({ call: `${call} sent`, schema: SENT[call], body: JSON.parse(init.body) });
          const res = await fetch(input, init);
          if (res.ok && res.headers.get('Content-Type')?.startsWith('application/json'))
            bodies.push({ call: `${call} answered`, schema: ANSWERED[call], body: await res.clone().json() });
          return res;
        },
      });
      const account = await channel('Acme TV');
      const playlistId = await newPlaylist(account, 'Sales');
      const extra = { thumbnailMediaId: mediaIds.jpeg, playlistId };
      const job = await jobFor(account, { withImage: true, extra });
      const published = await watched.publish(job);
      // settle after the session expired reads the channel and its uploads.
      await sandboxState(db(), 'youtube').update(uploadId(job.saved[0]!.sessionUri), { status: 'expired' });
      await watched.settle(await jobFor(account, { withImage: true, extra, checkpoint: job.saved[0]! }));
      await watched.postInsights(account, published.externalId);
      await watched.accountInsights(account);

      expect(new Set(bodies.map((b) => b.call))).toEqual(
        new Set([...Object.keys(SENT).map((c) => `${c} sent`), ...Object.keys(ANSWERED).map((c) => `${c} answered`)]),
      );
      for (const { call, schema, body } of bodies)
        expect({ call, errors: shapeErrors(schemas, body, { ref: schema! }) }).toEqual({ call, errors: [] });
    });

    it('a field the document does not name, or of another type, fails the check', () => {
      const video = { snippet: { title: 'Sale', categoryID: '22' }, status: { privacyStatus: 1, madeForKids: false } };
      expect(shapeErrors(schemas, video, { ref: 'Video' })).toEqual([
        '$.snippet.categoryID: no such property in VideoSnippet',
        '$.status.privacyStatus: 1 is not a string',
      ]);
    });
  });

  describe('tokens and insights', () => {
    it('refresh keeps the stored refresh token, since Google sends a new one only on first consent', async () => {
      const account = await channel('Acme TV', { refreshToken: true });
      const before = Date.now();
      const fresh = await youtube.refresh!(account);
      expect(fresh.refreshToken).toBe(account.credentials.refreshToken);
      expect(fresh.accessToken).not.toBe(account.credentials.accessToken);
      expect(Date.parse(fresh.expiresAt!)).toBeGreaterThanOrEqual(before + 3599_000);
      // The new access token works.
      expect(await youtube.publish(await jobFor({ ...account, credentials: fresh }))).toMatchObject({
        externalId: expect.any(String),
      });
    });

    it("a dead or missing refresh token is youtube_token_rejected, in Google's words", async () => {
      const account = await channel();
      const dead = { ...account, credentials: { ...account.credentials, refreshToken: '1//revoked-by-the-user' } };
      const err = await networkError(youtube.refresh!(dead), 'youtube_token_rejected');
      expect(err.message).toBe('Token has been expired or revoked. (400 invalid_grant)');
      await networkError(youtube.refresh!(account), 'youtube_token_rejected');
    });

    it("reads a video's and the channel's counters, sent by YouTube as strings, as numbers", async () => {
      const account = await channel();
      const published = await youtube.publish(await jobFor(account));
      await postPage(published.externalUrl);
      await postPage(published.externalUrl);
      expect(await youtube.postInsights(account, published.externalId)).toEqual({ views: 2, likes: 0, comments: 0 });
      expect(await youtube.accountInsights(account)).toEqual({ subscribers: 0, views: 2, videos: 1 });
      await networkError(youtube.postInsights(account, 'nonexistent'), 'youtube_rejected');
    });
  });
});

// The project every operator starts with: YouTube locks its uploads to private until it passes
// YouTube's audit, and its consent screen in Testing gives refresh tokens that die after 7 days. Herald's clock runs
// on from an offset the tests move, as the simulator judges a token's age by it.
describe.each(DATABASES)(
  'youtube on a new Google Cloud project (unaudited, consent screen in Testing) on %s',
  (kind) => {
    let env: TestEnv & { base: string };
    let ws: Seeded;
    let youtube: Connector;
    let worker: RunningWorker;
    let offsetMs = 0;
    const clock = { now: () => Date.now() + offsetMs, sleep: systemClock.sleep };
    const dir = tempDir();
    let videoId = '';
    let file = '';

    beforeAll(async () => {
      env = await listeningHerald(kind, { mediaSweepMs: 0, sandboxYoutubeProject: 'testing' }, { clock });
      ws = await seedWorkspace(env, { plan: 'owner' });
      youtube = connectorFor('youtube', env.config, clock)!;
      file = makeVideo(dir, { seconds: 2, width: 640, height: 360, fps: 25 });
      videoId = (await upload(env, ws.writeKey, file, 'video/mp4')).id;
      worker = await startWorker(env.services, { watchEveryMs: 200 });
    });
    afterAll(async () => {
      await worker.stop();
      await env.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const db = () => env.services.db;
    async function jobFor(account: ConnectorAccount, visibility: string, checkpoint?: Checkpoint) {
      const media = await publishable(env, ws.workspaceId, [videoId]);
      const job = connectorJob({
        account,
        media,
        text: 'Spring sale.',
        settings: { visibility, category: '22', madeForKids: false },
        checkpoint,
      });
      return Object.assign(job, { title: 'Spring sale', tags: [] });
    }
    /** A public video post through the API, due now; answers it once the worker has published or failed it. */
    async function postVideo(accountId: string) {
      const created = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: {
          targets: { accountIds: [accountId] },
          mediaIds: [videoId],
          title: 'Spring sale',
          text: 'Spring sale.',
          perPlatform: { youtube: { visibility: 'public' } },
          when: 'now',
          confirm: true,
        },
      });
      expect(created.status).toBe(201);
      return postingCalls(env, ws).settled(created.body.posts[0].id);
    }
    const storedVideo = async (id: string) =>
      JSON.parse((await db()('sandbox_items').where({ network: 'youtube', id }).first()).data);

    it('YouTube makes a public upload private; Herald reads it back: published privately, with a note', async () => {
      const account = await sandboxAccount(env, ws.workspaceId, 'youtube');
      const job = await jobFor(account, 'public');
      const published = await youtube.publish(job);

      expect((await storedVideo(published.externalId)).status.privacyStatus).toBe('private');
      expect(published.shownPrivately).toBe(true);
      expect(published.notes).toEqual([MADE_PRIVATE_NOTE]);
      expect(job.saved.at(-1)).toMatchObject({ videoId: published.externalId, madePrivate: true });
      // Nobody else can watch it.
      const page = await postPage(published.externalUrl);
      expect(page.html).toContain('Private video. This video is private');
      expect(page.media).toEqual([]);
      // A private video asked for is no surprise: nothing to say.
      const asked = await youtube.publish(await jobFor(account, 'private'));
      expect(asked.shownPrivately).toBeUndefined();
      expect(asked.notes).toBeUndefined();
    });

    it("settling after the session expired reads the visibility from the channel's uploads", async () => {
      const account = await sandboxAccount(env, ws.workspaceId, 'youtube');
      const first = await jobFor(account, 'unlisted');
      const published = await youtube.publish(first);
      const checkpoint = first.saved[0]!;
      const upload = new URL(String(checkpoint.sessionUri)).searchParams.get('upload_id')!;
      await sandboxState(db(), 'youtube').update(upload, { status: 'expired' });
      expect(await youtube.settle(await jobFor(account, 'unlisted', checkpoint))).toEqual(published);
      expect(published.shownPrivately).toBe(true);
    });

    it('through the worker: live, shownPrivately, and a statusLine and timeline that say so', async () => {
      const account = await sandboxAccount(env, ws.workspaceId, 'youtube');
      const post = await postVideo(account.id);
      expect(post).toMatchObject({ status: 'live', shownPrivately: true });
      expect(post.statusLine).toMatch(/^Live\. YouTube · .+\. YouTube shows it privately: only the account sees it\.$/);
      const events = (await call(env, 'get', `/v1/posts/${post.id}/events`, { key: ws.readKey })).body.events;
      expect(events.find((e: { kind: string }) => e.kind === 'live').notes).toEqual([MADE_PRIVATE_NOTE]);
    });

    it('a refresh token of a consent screen in Testing dies after 7 days: the hint names the cause', async () => {
      const account = await sandboxAccount(env, ws.workspaceId, 'youtube');
      const withRefresh = {
        ...account,
        credentials: { ...account.credentials, refreshToken: sandboxToken('refresh', account.externalId) },
      };
      await youtube.refresh!(withRefresh);
      offsetMs += 6 * 24 * 3600_000;
      await youtube.refresh!(withRefresh);
      offsetMs += 24 * 3600_000 + 60_000;
      const err = await networkError(youtube.refresh!(withRefresh), 'youtube_token_rejected');
      expect(err.message).toBe('Token has been expired or revoked. (400 invalid_grant)');
      expect(err.hint).toMatch(
        /consent screen is in Testing, Google ends that access after 7 days: set its publishing/,
      );
    });

    it('through the worker: the dead refresh token fails the post, the account goes expired, cause named', async () => {
      const account = await sandboxAccount(env, ws.workspaceId, 'youtube');
      const refreshToken = sandboxToken('refresh', account.externalId);
      // Issued 8 days ago; the post is due at the real time, which graphile-worker on PostgreSQL runs jobs by.
      offsetMs = -8 * 24 * 3600_000;
      await youtube.refresh!({ ...account, credentials: { ...account.credentials, refreshToken } });
      offsetMs = 0;
      // The access token is spent too, so the worker refreshes before it publishes.
      const credentials = { ...account.credentials, refreshToken, expiresAt: new Date(clock.now()).toISOString() };
      await db()('accounts')
        .where({ id: account.id })
        .update({ token_sealed: env.services.keyring.encrypt(JSON.stringify(credentials)) });
      const post = await postVideo(account.id);
      expect(post).toMatchObject({ status: 'failed', error: { code: 'youtube_token_rejected' } });
      expect(post.error.hint).toMatch(/consent screen is in Testing, Google ends that access after 7 days/);
      expect((await db()('accounts').where({ id: account.id }).first()).status).toBe('expired');
    });
  },
);
