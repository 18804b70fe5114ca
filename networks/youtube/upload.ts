// videos.insert over the resumable upload protocol: the session (recorded before any byte moves), the
// bytes (streamed, resumed from what the session holds), and finding a finished video again when its
// session expired. Exactly once rests on the session: a finished one answers its video again.
import type { Readable } from 'node:stream';
import {
  checkpointed,
  NetworkError,
  type CheckpointedAttempt,
  type PublishJob,
  type PublishMedia,
} from '../connector.ts';
import { bearer, refusal, type VideoAnswer, type YoutubeApi } from './api.ts';
import { youtubeLimits } from './rules.ts';

/** Resumes of one upload before the attempt gives up; the worker's retry continues the same session. */
const UPLOAD_RETRIES = 5;
/** How far YouTube's clock may lag ours when a video's publishedAt is compared with the attempt's start. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** Recent uploads read to find a video whose session expired: far more than one attempt can upload. */
const RECENT_UPLOADS = 50;

/** What an attempt records, in this order: the session, the video, then each optional step. */
type YoutubeCheckpoint = {
  /** When the first upload session was asked for: no video of this post is older (settle). */
  startedAt?: string;
  sessionUri?: string;
  videoId?: string;
  /** YouTube made the video private though another visibility was asked (an unaudited project's upload). */
  madePrivate?: boolean;
  thumbnailDone?: boolean;
  playlistDone?: boolean;
  /** Skipped steps, kept so that a resumed attempt still reports them. */
  notes?: string[];
};

export const attemptOf = (job: PublishJob) => checkpointed<YoutubeCheckpoint>(job);
export type Attempt = CheckpointedAttempt<YoutubeCheckpoint>;

/** Bytes a 308 says the session holds: `Range: bytes=0-<last>`, and no Range at all when none arrived. */
function receivedBytes(res: Response): number {
  const range = /^bytes=0-(\d+)$/.exec(res.headers.get('Range') ?? '');
  return range ? Number(range[1]) + 1 : 0;
}

/** A file stream as a request body: Node's fetch sends any async iterable of bytes, which its types leave out. */
export const streamed = (stream: Readable) => stream as unknown as RequestInit['body'];

/** YouTube took the bytes but refused the video; `length` is an unverified channel's over-long upload. */
function refuseIfRejected(video: VideoAnswer): void {
  const status = video.status;
  if (status?.uploadStatus === 'rejected') {
    const reason = status.rejectionReason ?? 'unknown';
    if (reason === 'length') {
      throw new NetworkError(
        'youtube',
        'unverified',
        'YouTube rejected the video: it is longer than the channel may upload (rejectionReason length).',
      );
    }
    throw new NetworkError('youtube', 'rejected', `YouTube rejected the video (rejectionReason ${reason}).`);
  }
  if (status?.uploadStatus === 'failed') {
    throw new NetworkError(
      'youtube',
      'rejected',
      `YouTube could not process the video (failureReason ${status.failureReason ?? 'unknown'}).`,
    );
  }
}
/** The post's settings completed with YouTube's own defaults (public, People & Blogs). */
const settingsOf = (job: PublishJob): Record<string, unknown> => ({ ...youtubeLimits.defaults, ...job.settings });

/**
 * What the timeline says of a video YouTube made private. The videos.insert reference: "All videos uploaded via the
 * videos.insert endpoint from unverified API projects created after 28 July 2020 will be restricted to private
 * viewing mode. To lift this restriction, each API project must undergo an audit"
 * (https://developers.google.com/youtube/v3/docs/videos/insert, read 2026-11-29).
 */
export const MADE_PRIVATE_NOTE =
  'YouTube made the video private: it keeps every video uploaded through a Google Cloud project it has not ' +
  'audited private, so only the channel sees it. Once YouTube has audited the project (its API compliance ' +
  'audit), new videos keep the visibility chosen; make this one public in YouTube Studio.';

/** Asks YouTube for an upload session for the post's video and records its address at once. */
async function openSession(api: YoutubeApi, job: PublishJob, video: PublishMedia, attempt: Attempt): Promise<void> {
  const startedAt = attempt.cp.startedAt ?? new Date(api.clock.now()).toISOString();
  const settings = settingsOf(job);
  const resource = {
    snippet: {
      title: job.title ?? '',
      description: job.text,
      ...(job.tags.length ? { tags: job.tags } : {}),
      categoryId: String(settings.category),
    },
    status: { privacyStatus: settings.visibility, selfDeclaredMadeForKids: settings.madeForKids === true },
  };
  const res = await api.send(`${api.hosts.upload}/videos?uploadType=resumable&part=snippet,status`, {
    method: 'POST',
    body: JSON.stringify(resource),
    headers: {
      ...bearer(job.account),
      'Content-Type': 'application/json; charset=UTF-8',
      'X-Upload-Content-Length': String(video.size),
      'X-Upload-Content-Type': video.mime,
    },
  });
  if (!res.ok) throw await refusal(res, api.clock);
  await res.body?.cancel();
  const sessionUri = res.headers.get('Location');
  if (!sessionUri) throw new Error('YouTube opened an upload session without giving its address (no Location header).');
  await attempt.record({ sessionUri, startedAt });
}

/** Where a session stands: finished (its video again), bytes received so far, or expired. */
export async function sessionProgress(
  api: YoutubeApi,
  sessionUri: string,
  total: number,
): Promise<{ video: VideoAnswer } | { received: number } | { expired: true }> {
  const res = await api.send(sessionUri, {
    method: 'PUT',
    headers: { 'Content-Range': `bytes */${total}`, 'Content-Length': '0' },
  });
  if (res.status === 200 || res.status === 201) return { video: (await res.json()) as VideoAnswer };
  if (res.status === 308 || res.status === 404) {
    await res.body?.cancel();
    return res.status === 308 ? { received: receivedBytes(res) } : { expired: true };
  }
  throw await refusal(res, api.clock);
}

/** Streams the file from `offset` (never held in memory) into the session. */
async function putBytes(api: YoutubeApi, sessionUri: string, video: PublishMedia, offset: number): Promise<Response> {
  const body = await video.open({ start: offset });
  try {
    return await api.send(sessionUri, {
      method: 'PUT',
      body: streamed(body),
      duplex: 'half',
      headers: {
        'Content-Type': video.mime,
        'Content-Length': String(video.size - offset),
        ...(offset > 0 ? { 'Content-Range': `bytes ${offset}-${video.size - 1}/${video.size}` } : {}),
      },
    });
  } finally {
    body.destroy();
  }
}

/** The post's video among the channel's recent uploads: same title and text, uploaded since the attempt started. */
export async function findUpload(
  api: YoutubeApi,
  job: PublishJob,
  startedAt: string,
): Promise<VideoAnswer | undefined> {
  const channels = await api.getJson<{ items?: { contentDetails?: { relatedPlaylists?: { uploads?: string } } }[] }>(
    job.account,
    '/channels?part=contentDetails&mine=true',
  );
  const uploads = channels.items?.[0]?.contentDetails?.relatedPlaylists?.uploads;
  if (!uploads) return undefined;
  const recent = await api.getJson<{
    items?: {
      snippet: { title: string; description: string; publishedAt: string; resourceId: { videoId: string } };
      status?: { privacyStatus?: string };
    }[];
  }>(
    job.account,
    `/playlistItems?part=snippet,status&playlistId=${encodeURIComponent(uploads)}&maxResults=${RECENT_UPLOADS}`,
  );
  const since = Date.parse(startedAt) - CLOCK_SKEW_MS;
  const match = recent.items?.find(
    ({ snippet }) =>
      snippet.title.trim() === (job.title ?? '').trim() &&
      snippet.description.trim() === job.text.trim() &&
      Date.parse(snippet.publishedAt) >= since,
  );
  return match
    ? { id: match.snippet.resourceId.videoId, status: { privacyStatus: match.status?.privacyStatus } }
    : undefined;
}

/** Sends the video, resuming from what the session holds after a dropped connection or a server error. */
export async function uploadVideo(
  api: YoutubeApi,
  job: PublishJob,
  video: PublishMedia,
  attempt: Attempt,
): Promise<VideoAnswer> {
  /** Bytes the session holds; undefined until asked. */
  let offset: number | undefined;
  if (!attempt.cp.sessionUri) {
    // A refusal here moved no bytes: the worker's own retries are the place to try again.
    await openSession(api, job, video, attempt);
    offset = 0;
  }
  let problem: NetworkError | undefined;
  for (let failures = 0; ; failures++) {
    if (failures > UPLOAD_RETRIES) throw problem;
    if (failures > 0) await job.sleep(1000 * 2 ** (failures - 1));
    try {
      if (offset === undefined) {
        const progress = await sessionProgress(api, attempt.cp.sessionUri!, video.size);
        if ('video' in progress) return progress.video;
        if ('expired' in progress) {
          // An expired session may have finished first: its video is then among the uploads.
          const found = await findUpload(api, job, attempt.cp.startedAt!);
          if (found) return found;
          await openSession(api, job, video, attempt);
          offset = 0;
        } else {
          offset = progress.received;
        }
      }
      if (offset >= video.size) {
        // The session holds every byte yet answers no video: there is nothing left to send, only to ask again.
        problem = new NetworkError(
          'youtube',
          'unavailable',
          'YouTube holds every byte of the video but made no video yet.',
        );
        offset = undefined;
        continue;
      }
      const res = await putBytes(api, attempt.cp.sessionUri!, video, offset);
      if (res.status === 200 || res.status === 201) return (await res.json()) as VideoAnswer;
      if (res.status === 308 && receivedBytes(res) > offset) {
        // The session took part of the body and wants the rest: progress, not a failure.
        offset = receivedBytes(res);
        await res.body?.cancel();
        failures -= 1;
        continue;
      }
      if (res.status === 308 || res.status === 404) {
        await res.body?.cancel();
        problem = new NetworkError(
          'youtube',
          'unavailable',
          `YouTube's upload session answered ${res.status} without taking the video.`,
        );
      } else {
        problem = await refusal(res, api.clock);
        if (problem.kind !== 'unavailable') throw problem;
      }
    } catch (err) {
      if (!(err instanceof NetworkError) || err.kind !== 'unavailable') throw err;
      problem = err;
    }
    offset = undefined;
  }
}

/**
 * The video exists: remember it before anything else (with YouTube's visibility read back: private where another
 * was asked, as for an unaudited project), then refuse it if YouTube did.
 */
export async function recordVideo(attempt: Attempt, job: PublishJob, video: VideoAnswer): Promise<void> {
  const madePrivate = video.status?.privacyStatus === 'private' && settingsOf(job).visibility !== 'private';
  await attempt.record({
    videoId: video.id,
    ...(madePrivate ? { madePrivate, notes: [...(attempt.cp.notes ?? []), MADE_PRIVATE_NOTE] } : {}),
  });
  refuseIfRejected(video);
}
