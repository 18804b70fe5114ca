// The YouTube simulator: the Data API v3 on its own wire format (resumable upload sessions, thumbnails,
// playlists, statistics, the channel and its uploads playlist), Google's token endpoint, and a watch
// page per video. Calls and their answers follow networks.md §1; what the sandbox decides on its own
// is said where it is decided.
//
// Sandbox rules:
// - The channel is the account the token names (`sandboxToken`); any other `sandbox-` token is a
//   channel of its own. Tokens of an account set to expired or revoked are refused (401 authError).
// - Quota: 100 videos.insert calls per channel per Pacific day answer 429 rateLimitExceeded on the
//   "Video Uploads per day" bucket (today's era); a queued `quota_exceeded` answers the older 403
//   quotaExceeded, so the connector meets both. 50 finished uploads per channel in 24 hours answer
//   400 uploadLimitExceeded (YouTube's per-channel cap; its real number is not published).
// - A channel is unverified when its account's display name contains "unverified": thumbnails.set
//   then answers 403 forbidden. A queued `unverified` failure makes the next upload end as YouTube
//   ends an unverified channel's over-long upload: the video comes back rejected (rejectionReason
//   length). YouTube decides that while processing; the simulator decides it at once.
// - Every call that can publish (the session start and each PUT that carries bytes) takes a queued
//   failure. On a PUT, `unavailable` keeps half of that body and then drops the connection, as a
//   broken link does; the other scenarios answer their error bodies.
import fs from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { DateTime } from 'luxon';
import { nowIso } from '../../db/rows.ts';
import { randomBase62 } from '../../domain/ids.ts';
import { codePoints, utf8Bytes } from '../../domain/textUnits.ts';
import { youtubeLimits, youtubeTagsLength } from '../youtube.ts';
import type { Simulator, SimulatorContext } from './index.ts';
import { sandboxTokenAccount, type SandboxItem, type Scenario } from './state.ts';
import { escapeHtml } from '../../domain/html.ts';

export const youtubeSandboxLimits = {
  uploadsPerDay: 100,
  channelUploadsPer24h: 50,
  /** YouTube says only that sessions are "finite"; a week outlasts any worker retry. */
  sessionLifetimeMs: 7 * 24 * 3600_000,
  /** Older pages say 2 MB, newer ones 50 MB: the sandbox keeps to the limit every version accepts. */
  thumbnailMaxBytes: 2 * 1024 * 1024,
  playlistMaxItems: 5000,
};

/** Category ids assignable in the US (videoCategories.list?regionCode=US, assignable=true). */
const ASSIGNABLE_CATEGORIES = ['1', '2', '10', '15', '17', '19', '20', '22', '23', '24', '25', '26', '27', '28', '29'];

interface Fault {
  status: number;
  reason: string;
  message: string;
  domain: string;
}

const fault = (status: number, reason: string, message: string, domain = 'youtube.video'): Fault => ({ status, reason, message, domain });

const FAULTS = {
  authError: fault(401, 'authError', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.', 'global'),
  backendError: fault(503, 'backendError', 'Backend Error', 'global'),
  internalError: fault(500, 'internalError', 'Internal error encountered.', 'global'),
  uploadLimitExceeded: fault(400, 'uploadLimitExceeded', 'The user has exceeded the number of videos they may upload.'),
  quotaExceeded: fault(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.', 'youtube.quota'),
  uploadsPerDay: fault(429, 'rateLimitExceeded', "Quota exceeded for quota metric 'Video Uploads' and limit 'Video Uploads per day' of service 'youtube.googleapis.com' for consumer 'project_number:0'.", 'global'),
  insufficientPermissions: fault(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', 'global'),
  invalidVideoMetadata: fault(400, 'invalidVideoMetadata', 'The request metadata is invalid.'),
  invalidTitle: fault(400, 'invalidTitle', 'The request metadata specifies an invalid or empty video title.'),
  invalidDescription: fault(400, 'invalidDescription', 'The request metadata specifies an invalid video description.'),
  invalidTags: fault(400, 'invalidTags', 'The request metadata specifies invalid video keywords.'),
  invalidCategoryId: fault(400, 'invalidCategoryId', 'The <code>snippet.categoryId</code> property specifies an invalid category ID. Use the <code>videoCategories.list</code> method to retrieve supported categories.'),
  notFound: fault(404, 'notFound', 'Not Found', 'global'),
  videoNotFound: fault(404, 'videoNotFound', 'The video that you are trying to use cannot be found. Check the value of the videoId parameter.'),
  thumbnailForbidden: fault(403, 'forbidden', "The authenticated user doesn't have permissions for uploading and setting custom video thumbnails.", 'youtube.thumbnail'),
  mediaBodyRequired: fault(400, 'mediaBodyRequired', 'The request does not include the image content.', 'youtube.thumbnail'),
  invalidImage: fault(400, 'invalidImage', 'The provided image content is invalid.', 'youtube.thumbnail'),
  uploadTooLarge: fault(413, 'uploadTooLarge', `Media larger than: ${youtubeSandboxLimits.thumbnailMaxBytes}`, 'global'),
  playlistIdRequired: fault(400, 'playlistIdRequired', 'The request does not specify a value for the required playlistId property.', 'youtube.playlistItem'),
  playlistNotFound: fault(404, 'playlistNotFound', "The playlist identified with the request's playlistId parameter cannot be found.", 'youtube.playlistItem'),
  playlistItemsNotAccessible: fault(403, 'playlistItemsNotAccessible', 'The request is not properly authorized to insert the specified playlist item.', 'youtube.playlistItem'),
  playlistFull: fault(403, 'playlistContainsMaximumNumberOfVideos', 'The playlist already contains the maximum allowed number of items.', 'youtube.playlistItem'),
  videoAlreadyInPlaylist: fault(409, 'videoAlreadyInPlaylist', 'The video is already in the playlist.', 'youtube.playlistItem'),
  playlistVideoNotFound: fault(404, 'videoNotFound', 'The video that you are trying to add to the playlist cannot be found.', 'youtube.playlistItem'),
};

/** How YouTube answers the scenarios of `herald sandbox fail` (`unverified` is not an error body: see above). */
const SCENARIO_FAULTS: Record<Exclude<Scenario, 'unverified'>, Fault> = {
  unavailable: FAULTS.backendError,
  rate_limited: FAULTS.uploadLimitExceeded,
  token_rejected: FAULTS.authError,
  permission_missing: FAULTS.insufficientPermissions,
  rejected: FAULTS.invalidVideoMetadata,
  quota_exceeded: FAULTS.quotaExceeded,
};

class YoutubeFault extends Error {
  constructor(readonly fault: Fault, readonly extra: Record<string, string> = {}) {
    super(fault.message);
  }
}

function sendFault(res: Response, { status, reason, message, domain }: Fault, extra: Record<string, string> = {}): void {
  res.status(status).json({ error: { code: status, message, errors: [{ message, domain, reason, ...extra }] } });
}

interface Channel {
  id: string;
  name: string;
  verified: boolean;
}

interface VideoSnippet {
  title: string;
  description: string;
  tags?: string[];
  categoryId: string;
}

interface VideoStatus {
  privacyStatus: string;
  selfDeclaredMadeForKids: boolean;
}

interface SessionData extends Record<string, unknown> {
  total: number;
  contentType: string;
  received: number;
  snippet: VideoSnippet;
  status: VideoStatus;
  parts: string;
  /** Taken from a queued `unverified` failure: the finished video comes back rejected for its length. */
  rejectForLength: boolean;
  videoId?: string;
}

interface VideoData extends Record<string, unknown> {
  snippet: VideoSnippet & { publishedAt: string; channelTitle: string };
  status: VideoStatus & { uploadStatus: 'processed' | 'rejected'; rejectionReason?: string };
  contentType: string;
  size: number;
  /** The upload session: its bytes file holds the video. */
  session: string;
  views: number;
  thumbnail?: { contentType: string };
}

interface PlaylistData extends Record<string, unknown> {
  title: string;
  privacyStatus: string;
  videoIds: string[];
}

const etag = () => randomBase62(27);
const uploadsPlaylistOf = (channel: string) => `UU${channel}`;

/** Content-Range of a PUT: where its bytes start, or a progress query (an empty PUT of `bytes *` over the total). */
function parseContentRange(header: string | undefined, total: number): { query: true } | { start: number } | undefined {
  if (header === undefined) return { start: 0 };
  const query = /^bytes \*\/(\d+)$/.exec(header);
  if (query) return Number(query[1]) === total ? { query: true } : undefined;
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header);
  if (!range || Number(range[3]) !== total || Number(range[2]) >= total || Number(range[1]) > Number(range[2])) return undefined;
  return { start: Number(range[1]) };
}

function checkMetadata(body: { snippet?: Partial<VideoSnippet>; status?: Partial<VideoStatus> }): { snippet: VideoSnippet; status: VideoStatus } {
  const { snippet = {}, status = {} } = body ?? {};
  const title = typeof snippet.title === 'string' ? snippet.title : '';
  if (!title.trim() || codePoints(title) > youtubeLimits.titleChars || /[<>]/.test(title)) throw new YoutubeFault(FAULTS.invalidTitle);
  const description = typeof snippet.description === 'string' ? snippet.description : '';
  if (utf8Bytes(description) > youtubeLimits.descriptionBytes || /[<>]/.test(description)) throw new YoutubeFault(FAULTS.invalidDescription);
  const tags = snippet.tags ?? [];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string') || youtubeTagsLength(tags) > youtubeLimits.tagsChars) throw new YoutubeFault(FAULTS.invalidTags);
  if (typeof snippet.categoryId !== 'string' || !ASSIGNABLE_CATEGORIES.includes(snippet.categoryId)) throw new YoutubeFault(FAULTS.invalidCategoryId);
  const privacyStatus = status.privacyStatus;
  if (typeof privacyStatus !== 'string' || !(youtubeLimits.visibilities as readonly string[]).includes(privacyStatus)) throw new YoutubeFault(FAULTS.invalidVideoMetadata);
  return {
    snippet: { title, description, ...(tags.length ? { tags } : {}), categoryId: snippet.categoryId },
    status: { privacyStatus, selfDeclaredMadeForKids: status.selfDeclaredMadeForKids === true },
  };
}

export const youtubeSimulator: Simulator = {
  network: 'youtube',
  router(ctx: SimulatorContext) {
    const router = express.Router();
    const dir = path.join(ctx.dataDir, 'sandbox', 'youtube');
    const bytesFile = (session: string) => path.join(dir, session);
    const thumbnailFile = (videoId: string) => path.join(dir, `thumbnail-${videoId}`);

    /** One request at a time per session: a dropped PUT finishes storing its bytes before the next call reads them. */
    const sessionQueues = new Map<string, Promise<void>>();
    async function inSessionOrder(session: string, work: () => Promise<void>): Promise<void> {
      const previous = sessionQueues.get(session) ?? Promise.resolve();
      const run = previous.then(work);
      const settled = run.catch(() => undefined);
      sessionQueues.set(session, settled);
      try {
        await run;
      } finally {
        if (sessionQueues.get(session) === settled) sessionQueues.delete(session);
      }
    }

    async function accountRow(channel: string): Promise<{ display_name: string; status: string } | undefined> {
      return ctx.db('accounts').where({ platform: 'youtube', external_id: channel }).first('display_name', 'status');
    }

    /** The channel of the request's token; refuses other tokens and those of expired or revoked accounts. */
    async function channelOf(req: Request): Promise<Channel> {
      const token = /^Bearer (\S+)$/.exec(req.get('Authorization') ?? '')?.[1];
      if (!token?.startsWith('sandbox-')) throw new YoutubeFault(FAULTS.authError, { location: 'Authorization', locationType: 'header' });
      const id = sandboxTokenAccount(token, 'access') ?? token;
      const account = await accountRow(id);
      if (account && account.status !== 'ok') throw new YoutubeFault(FAULTS.authError, { location: 'Authorization', locationType: 'header' });
      const name = account?.display_name ?? id;
      return { id, name, verified: !/unverified/i.test(name) };
    }

    async function countItems(channel: string, kind: string, sinceMs: number): Promise<number> {
      const row = await ctx.db('sandbox_items').where({ network: 'youtube', account: channel, kind })
        .where('created_at', '>=', new Date(sinceMs).toISOString()).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    }

    function videoResource(item: SandboxItem<VideoData>, parts: string[]) {
      const { snippet, status } = item.data;
      return {
        kind: 'youtube#video', etag: etag(), id: item.id,
        ...(parts.includes('snippet') ? { snippet: { publishedAt: snippet.publishedAt, channelId: item.account, title: snippet.title,
          description: snippet.description, thumbnails: { default: { url: `${ctx.base}/videos/${item.id}/thumbnail`, width: 120, height: 90 } },
          channelTitle: snippet.channelTitle, ...(snippet.tags ? { tags: snippet.tags } : {}), categoryId: snippet.categoryId,
          liveBroadcastContent: 'none', localized: { title: snippet.title, description: snippet.description } } } : {}),
        ...(parts.includes('status') ? { status: { uploadStatus: status.uploadStatus, ...(status.rejectionReason ? { rejectionReason: status.rejectionReason } : {}),
          privacyStatus: status.privacyStatus, license: 'youtube', embeddable: true, publicStatsViewable: true,
          madeForKids: status.selfDeclaredMadeForKids, selfDeclaredMadeForKids: status.selfDeclaredMadeForKids } } : {}),
        ...(parts.includes('statistics') ? { statistics: { viewCount: String(item.data.views), likeCount: '0', favoriteCount: '0', commentCount: '0' } } : {}),
      };
    }

    const partsOf = (req: Request) => String(req.query.part ?? '').split(',').map((p) => p.trim());

    /** The last bytes arrived: the video exists from now on (published_ms is what the benchmark measures). */
    async function finishUpload(session: SandboxItem<SessionData>): Promise<SandboxItem<VideoData>> {
      const account = await accountRow(session.account);
      const rejected = session.data.rejectForLength;
      const video = await ctx.state.create<VideoData>({
        id: ctx.state.newId('letters'), account: session.account, kind: 'video', status: rejected ? 'rejected' : 'processed',
        data: { snippet: { ...session.data.snippet, publishedAt: nowIso(), channelTitle: account?.display_name ?? session.account },
          status: { ...session.data.status, uploadStatus: rejected ? 'rejected' : 'processed', ...(rejected ? { rejectionReason: 'length' } : {}) },
          contentType: session.data.contentType, size: session.data.total, session: session.id, views: 0 },
        ...(rejected ? {} : { publishedMs: Date.now() }),
      });
      await ctx.state.update<SessionData>(session.id, { status: 'complete', data: { ...session.data, videoId: video.id } });
      return video;
    }

    /** 308 Resume Incomplete, with the Range held so far; no Range at all when nothing arrived. */
    function resumeIncomplete(res: Response, received: number): void {
      if (received > 0) res.setHeader('Range', `bytes=0-${received - 1}`);
      res.status(308).end();
    }

    /**
     * Stores the bytes of a PUT from `start`, skipping any the session holds already. Returns the
     * bytes held afterwards; `dropAfter` closes the connection after that many bytes of the body.
     */
    async function receive(req: Request, session: SandboxItem<SessionData>, start: number, dropAfter: number | undefined): Promise<{ received: number; dropped: boolean }> {
      const socket = req.socket;
      await fs.promises.mkdir(dir, { recursive: true });
      const file = await fs.promises.open(bytesFile(session.id), 'a+');
      // A body cut off earlier may have left bytes the session never counted.
      await file.truncate(session.data.received);
      let position = start;
      let received = session.data.received;
      let read = 0;
      let dropped = false;
      try {
        for await (const chunk of req as AsyncIterable<Buffer>) {
          let bytes = chunk;
          if (dropAfter !== undefined && read + bytes.length >= dropAfter) {
            bytes = bytes.subarray(0, dropAfter - read);
            dropped = true;
          }
          read += bytes.length;
          const fresh = bytes.subarray(Math.max(0, received - position));
          position += bytes.length;
          if (fresh.length) {
            if (received + fresh.length > session.data.total) throw new YoutubeFault(fault(400, 'badContent', 'The request body is longer than X-Upload-Content-Length.', 'global'));
            await file.write(fresh);
            received += fresh.length;
          }
          if (dropped) {
            // The client sees the drop now; the count is stored below, before the session's next call is served.
            socket.destroy();
            break;
          }
        }
      } catch (err) {
        // The client went away midway: what arrived is kept, as YouTube keeps it.
        if (err instanceof YoutubeFault) throw err;
        dropped = true;
      } finally {
        await file.close();
        await ctx.state.update<SessionData>(session.id, { data: { ...session.data, received } });
      }
      return { received, dropped };
    }

    // videos.insert, resumable: the session start.
    router.post('/upload/youtube/v3/videos', express.json({ limit: '1mb' }), async (req, res) => {
      const channel = await channelOf(req);
      if (req.query.uploadType !== 'resumable') {
        throw new YoutubeFault(fault(400, 'badRequest', 'The sandbox simulates only resumable uploads: send uploadType=resumable.', 'global'));
      }
      const scenario = await ctx.state.takeFailure(channel.id);
      if (scenario && scenario !== 'unverified') throw new YoutubeFault(SCENARIO_FAULTS[scenario]);
      const total = Number(req.get('X-Upload-Content-Length'));
      if (!Number.isSafeInteger(total) || total <= 0) {
        throw new YoutubeFault(fault(400, 'badRequest', 'The sandbox needs X-Upload-Content-Length: the size of the video in bytes.', 'global'));
      }
      const contentType = req.get('X-Upload-Content-Type') ?? 'application/octet-stream';
      if (!/^video\/[\w.+-]+$/.test(contentType) && contentType !== 'application/octet-stream') {
        throw new YoutubeFault(fault(400, 'badContent', `Media type '${contentType}' is not supported. Valid media types: [video/*, application/octet-stream]`, 'global'));
      }
      const metadata = checkMetadata(req.body);
      const pacificMidnight = DateTime.now().setZone('America/Los_Angeles').startOf('day').toMillis();
      if (await countItems(channel.id, 'upload_session', pacificMidnight) >= youtubeSandboxLimits.uploadsPerDay) throw new YoutubeFault(FAULTS.uploadsPerDay);
      if (await countItems(channel.id, 'video', Date.now() - 24 * 3600_000) >= youtubeSandboxLimits.channelUploadsPer24h) throw new YoutubeFault(FAULTS.uploadLimitExceeded);
      const parts = String(req.query.part ?? 'snippet,status');
      const session = await ctx.state.create<SessionData>({ id: randomBase62(32), account: channel.id, kind: 'upload_session', status: 'receiving',
        data: { total, contentType, received: 0, ...metadata, parts, rejectForLength: scenario === 'unverified' } });
      res.setHeader('Location', `${ctx.base}/upload/youtube/v3/videos?uploadType=resumable&part=${encodeURIComponent(parts)}&upload_id=${session.id}`);
      res.status(200).end();
    });

    // The session: the upload id is its credential, as on YouTube, so no token is asked for.
    router.put('/upload/youtube/v3/videos', async (req, res) => {
      const id = String(req.query.upload_id ?? '');
      await inSessionOrder(id, async () => {
        const session = await ctx.state.get<SessionData>(id);
        if (!session || session.kind !== 'upload_session' || Date.now() - Date.parse(session.createdAt) > youtubeSandboxLimits.sessionLifetimeMs || session.status === 'expired') {
          req.resume();
          return sendFault(res, FAULTS.notFound);
        }
        const range = parseContentRange(req.get('Content-Range'), session.data.total);
        if (!range) {
          req.resume();
          return sendFault(res, fault(400, 'badRequest', 'Failed to parse Content-Range header.', 'global'));
        }
        const parts = session.data.parts.split(',');
        if (session.status === 'complete') {
          // A finished session answers its video again, whatever is asked.
          req.resume();
          res.status(201).json(videoResource((await ctx.state.get<VideoData>(session.data.videoId!))!, parts));
          return;
        }
        if ('query' in range) return resumeIncomplete(res, session.data.received);
        if (range.start > session.data.received) {
          req.resume();
          return resumeIncomplete(res, session.data.received);
        }
        const scenario = await ctx.state.takeFailure(session.account);
        if (scenario && scenario !== 'unavailable' && scenario !== 'unverified') {
          req.resume();
          return sendFault(res, SCENARIO_FAULTS[scenario]);
        }
        // Stored with the bytes received below.
        if (scenario === 'unverified') session.data.rejectForLength = true;
        const dropAfter = scenario === 'unavailable' ? Math.max(1, Math.floor((session.data.total - range.start) / 2)) : undefined;
        const { received, dropped } = await receive(req, session, range.start, dropAfter);
        if (dropped) return;
        if (received < session.data.total) return resumeIncomplete(res, received);
        const video = await finishUpload({ ...session, data: { ...session.data, received } });
        res.status(201).json(videoResource(video, parts));
      });
    });

    router.post('/upload/youtube/v3/thumbnails/set', async (req, res) => {
      const channel = await channelOf(req);
      const video = await ctx.state.get<VideoData>(String(req.query.videoId ?? ''));
      if (!video || video.kind !== 'video' || video.account !== channel.id) throw new YoutubeFault(FAULTS.videoNotFound);
      if (!channel.verified) throw new YoutubeFault(FAULTS.thumbnailForbidden);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > youtubeSandboxLimits.thumbnailMaxBytes) {
          req.resume();
          throw new YoutubeFault(FAULTS.uploadTooLarge);
        }
        chunks.push(chunk);
      }
      const image = Buffer.concat(chunks);
      if (image.length === 0) throw new YoutubeFault(FAULTS.mediaBodyRequired);
      const jpeg = image[0] === 0xff && image[1] === 0xd8 && image[2] === 0xff;
      const png = image.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      if (!jpeg && !png) throw new YoutubeFault(FAULTS.invalidImage);
      await fs.promises.mkdir(dir, { recursive: true });
      await fs.promises.writeFile(thumbnailFile(video.id), image);
      await ctx.state.update<VideoData>(video.id, { data: { ...video.data, thumbnail: { contentType: jpeg ? 'image/jpeg' : 'image/png' } } });
      const url = `${ctx.base}/videos/${video.id}/thumbnail`;
      res.json({ kind: 'youtube#thumbnailSetResponse', etag: etag(), items: [{ default: { url, width: 120, height: 90 }, high: { url, width: 480, height: 360 } }] });
    });

    router.get('/youtube/v3/videos', async (req, res) => {
      const channel = await channelOf(req);
      const ids = String(req.query.id ?? '').split(',').filter(Boolean);
      const videos = (await Promise.all(ids.map((id) => ctx.state.get<VideoData>(id))))
        .filter((v): v is SandboxItem<VideoData> => v?.kind === 'video' && (v.data.status.privacyStatus !== 'private' || v.account === channel.id));
      res.json({ kind: 'youtube#videoListResponse', etag: etag(), items: videos.map((v) => videoResource(v, partsOf(req))),
        pageInfo: { totalResults: videos.length, resultsPerPage: videos.length } });
    });

    router.get('/youtube/v3/channels', async (req, res) => {
      const channel = await channelOf(req);
      if (req.query.mine !== 'true') throw new YoutubeFault(fault(400, 'missingRequiredParameter', 'The sandbox answers channels.list for mine=true only.', 'youtube.parameter'));
      const parts = partsOf(req);
      const videos = await ctx.state.list<VideoData>(channel.id, 'video', 100_000);
      res.json({ kind: 'youtube#channelListResponse', etag: etag(), pageInfo: { totalResults: 1, resultsPerPage: 1 }, items: [{
        kind: 'youtube#channel', etag: etag(), id: channel.id,
        ...(parts.includes('snippet') ? { snippet: { title: channel.name, description: '', publishedAt: '2024-01-01T00:00:00Z' } } : {}),
        ...(parts.includes('contentDetails') ? { contentDetails: { relatedPlaylists: { likes: '', uploads: uploadsPlaylistOf(channel.id) } } } : {}),
        ...(parts.includes('statistics') ? { statistics: { viewCount: String(videos.reduce((sum, v) => sum + v.data.views, 0)), subscriberCount: '0',
          hiddenSubscriberCount: false, videoCount: String(videos.length) } } : {}),
        // longUploadsStatus is how YouTube tells a phone-verified channel ("allowed") from one that may verify ("eligible").
        ...(parts.includes('status') ? { status: { privacyStatus: 'public', isLinked: true, longUploadsStatus: channel.verified ? 'allowed' : 'eligible' } } : {}),
      }] });
    });

    router.post('/youtube/v3/playlists', express.json({ limit: '1mb' }), async (req, res) => {
      const channel = await channelOf(req);
      const title = req.body?.snippet?.title;
      if (typeof title !== 'string' || !title.trim()) throw new YoutubeFault(fault(400, 'playlistTitleRequired', 'The request must specify a playlist title.', 'youtube.playlist'));
      const playlist = await ctx.state.create<PlaylistData>({ id: `PL${randomBase62(32)}`, account: channel.id, kind: 'playlist', status: 'ok',
        data: { title, privacyStatus: req.body?.status?.privacyStatus ?? 'public', videoIds: [] } });
      res.json({ kind: 'youtube#playlist', etag: etag(), id: playlist.id, snippet: { publishedAt: playlist.createdAt, channelId: channel.id, title, channelTitle: channel.name },
        status: { privacyStatus: playlist.data.privacyStatus } });
    });

    router.post('/youtube/v3/playlistItems', express.json({ limit: '1mb' }), async (req, res) => {
      const channel = await channelOf(req);
      const playlistId = req.body?.snippet?.playlistId;
      const videoId = req.body?.snippet?.resourceId?.videoId;
      if (typeof playlistId !== 'string' || !playlistId) throw new YoutubeFault(FAULTS.playlistIdRequired);
      const playlist = await ctx.state.get<PlaylistData>(playlistId);
      if (!playlist || playlist.kind !== 'playlist') throw new YoutubeFault(FAULTS.playlistNotFound);
      if (playlist.account !== channel.id) throw new YoutubeFault(FAULTS.playlistItemsNotAccessible);
      const video = typeof videoId === 'string' ? await ctx.state.get<VideoData>(videoId) : undefined;
      if (!video || video.kind !== 'video') throw new YoutubeFault(FAULTS.playlistVideoNotFound);
      if (playlist.data.videoIds.includes(video.id)) throw new YoutubeFault(FAULTS.videoAlreadyInPlaylist);
      if (playlist.data.videoIds.length >= youtubeSandboxLimits.playlistMaxItems) throw new YoutubeFault(FAULTS.playlistFull);
      await ctx.state.update<PlaylistData>(playlist.id, { data: { ...playlist.data, videoIds: [...playlist.data.videoIds, video.id] } });
      res.json(playlistItem(playlist.id, playlist.data.videoIds.length, video, nowIso()));
    });

    function playlistItem(playlistId: string, position: number, video: SandboxItem<VideoData>, addedAt: string) {
      const { title, description, channelTitle, publishedAt } = video.data.snippet;
      return {
        kind: 'youtube#playlistItem', etag: etag(), id: randomBase62(40),
        snippet: { publishedAt: addedAt, channelId: video.account, title, description, channelTitle, playlistId, position,
          resourceId: { kind: 'youtube#video', videoId: video.id }, videoOwnerChannelTitle: channelTitle, videoOwnerChannelId: video.account },
        contentDetails: { videoId: video.id, videoPublishedAt: publishedAt },
        status: { privacyStatus: video.data.status.privacyStatus },
      };
    }

    // playlistItems.list: a playlist of the channel, or its uploads playlist (newest first, private videos included for the owner).
    router.get('/youtube/v3/playlistItems', async (req, res) => {
      const channel = await channelOf(req);
      const playlistId = String(req.query.playlistId ?? '');
      if (!playlistId) throw new YoutubeFault(FAULTS.playlistIdRequired);
      const max = Math.min(50, Math.max(0, Number(req.query.maxResults ?? 5) || 5));
      let items: ReturnType<typeof playlistItem>[];
      if (playlistId === uploadsPlaylistOf(channel.id)) {
        const videos = await ctx.state.list<VideoData>(channel.id, 'video', max);
        items = videos.map((v, i) => playlistItem(playlistId, i, v, v.data.snippet.publishedAt));
      } else {
        const playlist = await ctx.state.get<PlaylistData>(playlistId);
        if (!playlist || playlist.kind !== 'playlist') throw new YoutubeFault(FAULTS.playlistNotFound);
        const videos = await Promise.all(playlist.data.videoIds.slice(0, max).map((id) => ctx.state.get<VideoData>(id)));
        items = videos.flatMap((v, i) => (v ? [playlistItem(playlistId, i, v, playlist.updatedAt)] : []));
      }
      res.json({ kind: 'youtube#playlistItemListResponse', etag: etag(), items, pageInfo: { totalResults: items.length, resultsPerPage: max } });
    });

    // Google's token endpoint: refresh tokens only, and like Google no new refresh token in the answer.
    router.post('/token', express.urlencoded({ extended: false }), async (req, res) => {
      if (req.body?.grant_type !== 'refresh_token') {
        res.status(400).json({ error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${req.body?.grant_type ?? ''}` });
        return;
      }
      const token = String(req.body.refresh_token ?? '');
      const channel = sandboxTokenAccount(token, 'refresh') ?? (token.startsWith('sandbox-') && !sandboxTokenAccount(token, 'access') ? token : undefined);
      const account = channel ? await accountRow(channel) : undefined;
      if (!channel || (account && account.status !== 'ok')) {
        res.status(400).json({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
        return;
      }
      res.json({ access_token: `sandbox-access.${channel}.${randomBase62(24)}`, expires_in: 3599, token_type: 'Bearer',
        scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly' });
    });

    async function watchPage(res: Response, id: string, short: boolean): Promise<void> {
      const video = await ctx.state.get<VideoData>(id);
      if (!video || video.kind !== 'video') {
        res.status(404).type('html').send('<!doctype html><meta charset="utf-8"><title>YouTube (sandbox)</title><p>This video isn\'t available anymore.</p>');
        return;
      }
      const { snippet, status } = video.data;
      if (status.uploadStatus === 'processed') await ctx.state.update<VideoData>(video.id, { data: { ...video.data, views: video.data.views + 1 } });
      const player = status.uploadStatus === 'rejected'
        ? '<p class="removed">This video has been removed because it is too long.</p>'
        : `<video src="${ctx.base}/videos/${video.id}/file" controls playsinline${video.data.thumbnail ? ` poster="${ctx.base}/videos/${video.id}/thumbnail"` : ''}></video>`;
      res.type('html').send(`<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(snippet.title)} - YouTube (sandbox)</title>
<style>body{font:16px/1.4 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}video{max-width:100%;display:block;background:#000}
.channel{font-weight:600}.meta{color:#666;font-size:.9em}.description{white-space:pre-wrap}.sandbox{color:#a40;font-size:.8em}</style>
<p class="sandbox">YouTube sandbox: this video exists only in Herald's simulator.</p>
<article data-network="youtube" data-id="${video.id}"${short ? ' data-short="true"' : ''}>
${player}
<h1>${escapeHtml(snippet.title)}</h1>
<p class="channel">${escapeHtml(snippet.channelTitle)}</p>
<p class="meta"><span class="visibility">${escapeHtml(status.privacyStatus)}</span>${short ? ' · Short' : ''}${status.selfDeclaredMadeForKids ? ' · Made for kids' : ''} · <time datetime="${snippet.publishedAt}">${snippet.publishedAt.replace('T', ' ').slice(0, 16)} UTC</time></p>
<p class="description">${escapeHtml(snippet.description)}</p>
</article>
</html>`);
    }

    router.get('/watch', (req, res) => watchPage(res, String(req.query.v ?? ''), false));
    router.get('/shorts/:id', (req, res) => watchPage(res, req.params.id!, true));

    router.get('/videos/:id/:file', async (req, res) => {
      const video = await ctx.state.get<VideoData>(req.params.id!);
      const thumbnail = req.params.file === 'thumbnail';
      if (!video || video.kind !== 'video' || (thumbnail ? !video.data.thumbnail : req.params.file !== 'file')) {
        res.status(404).end();
        return;
      }
      res.sendFile(thumbnail ? thumbnailFile(video.id) : bytesFile(video.data.session),
        { headers: { 'Content-Type': thumbnail ? video.data.thumbnail!.contentType : video.data.contentType } });
    });

    // YouTube's error body for every refusal; anything else is the simulator's own fault, answered as YouTube's.
    router.use((err: Error & { type?: string }, _req: Request, res: Response, next: NextFunction) => {
      if (res.headersSent) return next(err);
      if (err instanceof YoutubeFault) return sendFault(res, err.fault, err.extra);
      if (err.type === 'entity.parse.failed') return sendFault(res, fault(400, 'parseError', 'Parse Error', 'global'));
      return sendFault(res, FAULTS.internalError);
    });
    return router;
  },
};
