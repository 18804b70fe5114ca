// videos.insert over the resumable upload protocol, as
// https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol describes it: the
// session start (metadata checked, quotas counted), then PUTs of bytes, progress queries and resumes.
import fs from 'node:fs';
import express, { type Request, type Response } from 'express';
import { DateTime } from 'luxon';
import { nowIso } from '../../../db/rows.ts';
import { randomBase62 } from '../../../domain/ids.ts';
import { codePoints, utf8Bytes } from '../../../domain/textUnits.ts';
import type { SandboxItem } from '../../sandbox/state.ts';
import type { YoutubeSim } from './channel.ts';
import { fault, FAULTS, SCENARIO_FAULTS, sendFault, YoutubeFault } from './faults.ts';
import { ASSIGNABLE_CATEGORIES, tagListLength, youtubeSandboxLimits } from './limits.ts';
import { videoResource, type SessionData, type VideoData, type VideoSnippet, type VideoStatus } from './resources.ts';

/** Content-Range of a PUT: where its bytes start, or a progress query (an empty PUT of `bytes *` over the total). */
function parseContentRange(header: string | undefined, total: number): { query: true } | { start: number } | undefined {
  if (header === undefined) return { start: 0 };
  const query = /^bytes \*\/(\d+)$/.exec(header);
  if (query) return Number(query[1]) === total ? { query: true } : undefined;
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header);
  if (!range || Number(range[3]) !== total || Number(range[2]) >= total || Number(range[1]) > Number(range[2]))
    return undefined;
  return { start: Number(range[1]) };
}

function checkMetadata(body: { snippet?: Partial<VideoSnippet>; status?: Partial<VideoStatus> }): {
  snippet: VideoSnippet;
  status: VideoStatus;
} {
  const { snippet = {}, status = {} } = body ?? {};
  const title = typeof snippet.title === 'string' ? snippet.title : '';
  if (!title.trim() || codePoints(title) > youtubeSandboxLimits.titleChars || /[<>]/.test(title))
    throw new YoutubeFault(FAULTS.invalidTitle);
  const description = typeof snippet.description === 'string' ? snippet.description : '';
  if (utf8Bytes(description) > youtubeSandboxLimits.descriptionBytes || /[<>]/.test(description))
    throw new YoutubeFault(FAULTS.invalidDescription);
  const tags = snippet.tags ?? [];
  if (
    !Array.isArray(tags) ||
    tags.some((t) => typeof t !== 'string') ||
    tagListLength(tags) > youtubeSandboxLimits.tagsChars
  )
    throw new YoutubeFault(FAULTS.invalidTags);
  if (typeof snippet.categoryId !== 'string' || !ASSIGNABLE_CATEGORIES.includes(snippet.categoryId))
    throw new YoutubeFault(FAULTS.invalidCategoryId);
  const privacyStatus = status.privacyStatus;
  if (typeof privacyStatus !== 'string' || !youtubeSandboxLimits.privacyStatuses.includes(privacyStatus))
    throw new YoutubeFault(FAULTS.invalidVideoMetadata);
  return {
    snippet: { title, description, ...(tags.length ? { tags } : {}), categoryId: snippet.categoryId },
    status: { privacyStatus, selfDeclaredMadeForKids: status.selfDeclaredMadeForKids === true },
  };
}

export function uploadRoutes(router: express.Router, { ctx, dir, bytesFile, channelOf, countItems }: YoutubeSim): void {
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

  /**
   * The last bytes arrived: the video exists from now on (published_ms is what the benchmark measures), and the
   * session is complete with it, both or neither.
   */
  async function finishUpload(session: SandboxItem<SessionData>): Promise<SandboxItem<VideoData>> {
    const account = await ctx.state.account(session.account);
    const rejected = session.data.rejectForLength;
    return ctx.db.transaction(async (trx) => {
      const video = await ctx.state.create<VideoData>(
        {
          id: ctx.state.newId('letters'),
          account: session.account,
          kind: 'video',
          status: rejected ? 'rejected' : 'processed',
          data: {
            snippet: { ...session.data.snippet, publishedAt: nowIso(), channelTitle: account?.name ?? session.account },
            status: {
              ...session.data.status,
              uploadStatus: rejected ? 'rejected' : 'processed',
              ...(rejected ? { rejectionReason: 'length' } : {}),
            },
            contentType: session.data.contentType,
            size: session.data.total,
            session: session.id,
            views: 0,
          },
          ...(rejected ? {} : { publishedMs: Date.now() }),
        },
        trx,
      );
      await trx('sandbox_items')
        .where({ id: session.id, network: 'youtube' })
        .update({
          status: 'complete',
          data: JSON.stringify({ ...session.data, videoId: video.id }),
          updated_at: nowIso(),
        });
      return video;
    });
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
  async function receive(
    req: Request,
    session: SandboxItem<SessionData>,
    start: number,
    dropAfter: number | undefined,
  ): Promise<{ received: number; dropped: boolean }> {
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
          if (received + fresh.length > session.data.total)
            throw new YoutubeFault(
              fault(400, 'badContent', 'The request body is longer than X-Upload-Content-Length.', 'global'),
            );
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
      // Only the count: the body took a while, and what another call wrote to the session meanwhile stays.
      await ctx.state.merge<SessionData>(session.id, { received });
    }
    return { received, dropped };
  }

  // videos.insert, resumable: the session start.
  router.post('/upload/youtube/v3/videos', express.json({ limit: '1mb' }), async (req, res) => {
    const channel = await channelOf(req);
    if (req.query.uploadType !== 'resumable') {
      throw new YoutubeFault(
        fault(400, 'badRequest', 'The sandbox simulates only resumable uploads: send uploadType=resumable.', 'global'),
      );
    }
    const scenario = await ctx.state.takeFailure(channel.id);
    if (scenario && scenario !== 'unverified') throw new YoutubeFault(SCENARIO_FAULTS[scenario]);
    const total = Number(req.get('X-Upload-Content-Length'));
    if (!Number.isSafeInteger(total) || total <= 0) {
      throw new YoutubeFault(
        fault(
          400,
          'badRequest',
          'The sandbox needs X-Upload-Content-Length: the size of the video in bytes.',
          'global',
        ),
      );
    }
    const contentType = req.get('X-Upload-Content-Type') ?? 'application/octet-stream';
    if (!/^video\/[\w.+-]+$/.test(contentType) && contentType !== 'application/octet-stream') {
      throw new YoutubeFault(
        fault(
          400,
          'badContent',
          `Media type '${contentType}' is not supported. Valid media types: [video/*, application/octet-stream]`,
          'global',
        ),
      );
    }
    const metadata = checkMetadata(req.body);
    // videos.insert: "All videos uploaded via the videos.insert endpoint from unverified API projects created after
    // 28 July 2020 will be restricted to private viewing mode" until the project passes YouTube's audit
    // (https://developers.google.com/youtube/v3/docs/videos/insert, read 2026-11-29). The answer says so.
    if (ctx.config.sandboxYoutubeProject !== 'audited') metadata.status.privacyStatus = 'private';
    const pacificMidnight = DateTime.now().setZone('America/Los_Angeles').startOf('day').toMillis();
    if ((await countItems(channel.id, 'upload_session', pacificMidnight)) >= youtubeSandboxLimits.uploadsPerDay)
      throw new YoutubeFault(FAULTS.uploadsPerDay);
    if (
      (await countItems(channel.id, 'video', Date.now() - 24 * 3600_000)) >= youtubeSandboxLimits.channelUploadsPer24h
    )
      throw new YoutubeFault(FAULTS.uploadLimitExceeded);
    const parts = String(req.query.part ?? 'snippet,status');
    const session = await ctx.state.create<SessionData>({
      id: randomBase62(32),
      account: channel.id,
      kind: 'upload_session',
      status: 'receiving',
      data: { total, contentType, received: 0, ...metadata, parts, rejectForLength: scenario === 'unverified' },
    });
    res.setHeader(
      'Location',
      `${ctx.base}/upload/youtube/v3/videos?uploadType=resumable` +
        `&part=${encodeURIComponent(parts)}&upload_id=${session.id}`,
    );
    res.status(200).end();
  });

  // The session: the upload id is its credential, as on YouTube, so no token is asked for.
  router.put('/upload/youtube/v3/videos', async (req, res) => {
    const id = String(req.query.upload_id ?? '');
    await inSessionOrder(id, async () => {
      const session = await ctx.state.get<SessionData>(id);
      if (
        !session ||
        session.kind !== 'upload_session' ||
        Date.now() - Date.parse(session.createdAt) > youtubeSandboxLimits.sessionLifetimeMs ||
        session.status === 'expired'
      ) {
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
        res.status(201).json(videoResource(ctx.base, (await ctx.state.get<VideoData>(session.data.videoId!))!, parts));
        return;
      }
      if (session.data.received >= session.data.total) {
        // Every byte arrived but the video was not made (the call failed at that moment): YouTube finishes the upload
        // and answers its video, as it does for a finished one.
        req.resume();
        res.status(201).json(videoResource(ctx.base, await finishUpload(session), parts));
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
      const dropAfter =
        scenario === 'unavailable' ? Math.max(1, Math.floor((session.data.total - range.start) / 2)) : undefined;
      const { received, dropped } = await receive(req, session, range.start, dropAfter);
      if (dropped) return;
      if (received < session.data.total) return resumeIncomplete(res, received);
      const video = await finishUpload({ ...session, data: { ...session.data, received } });
      res.status(201).json(videoResource(ctx.base, video, parts));
    });
  });
}
