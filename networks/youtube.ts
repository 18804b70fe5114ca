// YouTube Data API v3 (videos.insert): limits and checks. Title 100 characters and description
// 5000 UTF-8 bytes, neither with < or >; tags 500 characters counting commas and implied quotes.
import { codePoints, utf8Bytes } from '../domain/textUnits.ts';
import type { Issue } from '../domain/issues.ts';
import { formatOf } from '../domain/mediaTypes.ts';
import { checkChoice, checkImageSize, checkReady, checkVideoDuration, issue, type MediaFacts, type NetworkRules, type PostContent } from './rules.ts';
import type { Readable } from 'node:stream';
import { NetworkError, type Connector, type ConnectorContext, type FailureKind, type PublishJob, type PublishMedia, type Published } from './connector.ts';
import type { ConnectorModule } from './connectors.ts';

export const youtubeLimits = {
  titleChars: 100,
  descriptionBytes: 5000,
  tagsChars: 500,
  /** Uploads may last up to 12 hours (over 15 minutes needs a phone-verified channel). */
  videoMaxSeconds: 12 * 3600,
  /** A square or vertical video up to 3 minutes is marked as a Short by YouTube itself. */
  shortMaxSeconds: 180,
  visibilities: ['public', 'unlisted', 'private'] as const,
  /** What YouTube itself uses when an upload leaves them out: public, People & Blogs. */
  defaults: { visibility: 'public', category: '22' },
  /** thumbnails.set: 2 MB on the older reference pages, 50 MB on the current ones; the lower holds on both. */
  thumbnailMaxBytes: 2 * 1024 * 1024,
  thumbnailTypes: ['image/jpeg', 'image/png'],
};

/** The whole tag list as YouTube counts it: commas between tags, and a tag with a space counts as quoted. */
export function youtubeTagsLength(tags: string[]): number {
  return tags.reduce((sum, tag, i) => sum + codePoints(tag) + (/\s/.test(tag) ? 2 : 0) + (i > 0 ? 1 : 0), 0);
}

/** perPlatform.youtube.thumbnailMediaId: a ready JPEG or PNG of this workspace, small enough for thumbnails.set. */
function checkThumbnail(id: string, image: MediaFacts | undefined): Issue | undefined {
  const field = `perPlatform.youtube.thumbnailMediaId (${id})`;
  // The same words for an id that does not exist and one of another workspace: nothing leaks.
  if (!image) return issue('setting_invalid', `${field} is not a file of this workspace.`, 'Give the mediaId of an uploaded JPEG or PNG image, or leave thumbnailMediaId out.');
  const notReady = checkReady(image, field);
  if (notReady) return notReady;
  if (image.kind !== 'image' || !youtubeLimits.thumbnailTypes.includes(image.mime)) {
    return issue('media_kind', `${field} is a ${formatOf(image.mime)?.label ?? image.mime}; a youtube thumbnail must be a JPEG or PNG image.`,
      'Give a JPEG or PNG image as the thumbnail.');
  }
  return checkImageSize(image, field, youtubeLimits.thumbnailMaxBytes, 'a youtube thumbnail');
}

function check(post: PostContent): Issue[] {
  const issues: Issue[] = [];
  const title = post.title ?? '';
  if (!title.trim()) {
    issues.push(issue('youtube_title_required', 'title is required for youtube accounts.', 'Give a title (at most 100 characters), or overrides.youtube.title.'));
  } else if (codePoints(title) > youtubeLimits.titleChars) {
    issues.push(issue('title_too_long', `title is ${codePoints(title)} characters; youtube allows ${youtubeLimits.titleChars}.`, 'Shorten the title, or set overrides.youtube.title.'));
  }
  for (const [field, value] of [['title', title], ['text', post.text]] as const) {
    if (/[<>]/.test(value)) {
      issues.push(issue('forbidden_chars', `${field} contains < or >, which youtube refuses in titles and descriptions.`, `Remove < and > from ${field}, or set overrides.youtube.${field}.`));
    }
  }
  if (utf8Bytes(post.text) > youtubeLimits.descriptionBytes) {
    issues.push(issue('caption_too_long', `text is ${utf8Bytes(post.text)} UTF-8 bytes; a youtube description allows ${youtubeLimits.descriptionBytes}.`,
      'Shorten the text, or set overrides.youtube.text.'));
  }
  const tagsLength = youtubeTagsLength(post.tags);
  if (tagsLength > youtubeLimits.tagsChars) {
    issues.push(issue('tags_too_long', `tags count ${tagsLength} characters (commas included, tags with spaces count 2 more for their quotes); youtube allows ${youtubeLimits.tagsChars}.`,
      'Remove some tags, or set overrides.youtube.tags.'));
  }
  const visibility = checkChoice(post.settings, 'youtube', 'visibility', youtubeLimits.visibilities);
  if (visibility) issues.push(visibility);
  if (post.settings.category !== undefined && !/^[0-9]+$/.test(String(post.settings.category))) {
    issues.push(issue('setting_invalid', `perPlatform.youtube.category "${String(post.settings.category)}" is not a category id.`, 'Use a numeric category id as a string, for example "22" (People & Blogs).'));
  }
  if (post.media.length === 0) {
    issues.push(issue('media_kind', 'mediaIds is empty; youtube needs one video.', 'Upload a video and give its mediaId.'));
  } else if (post.media.length > 1 || post.media[0]!.kind === 'image') {
    issues.push(issue('media_kind', 'mediaIds must hold exactly one video for youtube.', 'Give one video; images and several files cannot be posted to youtube.'));
  } else {
    const tooLong = checkVideoDuration(post.media[0]!, `mediaIds[0]`, 1, youtubeLimits.videoMaxSeconds, 'a youtube upload');
    if (tooLong) issues.push(tooLong);
  }
  const thumbnail = post.settings.thumbnailMediaId;
  if (thumbnail !== undefined) {
    const found = checkThumbnail(String(thumbnail), post.settingFiles.thumbnailMediaId);
    if (found) issues.push(found);
  }
  return issues;
}

/** Category names shown beside the id in the plan table (the ids YouTube assigns in every region). */
const CATEGORY_NAMES: Record<string, string> = {
  '1': 'Film & Animation', '2': 'Autos & Vehicles', '10': 'Music', '15': 'Pets & Animals', '17': 'Sports',
  '19': 'Travel & Events', '20': 'Gaming', '22': 'People & Blogs', '23': 'Comedy', '24': 'Entertainment',
  '25': 'News & Politics', '26': 'Howto & Style', '27': 'Education', '28': 'Science & Technology',
};

export const youtube: NetworkRules = {
  platform: 'youtube', label: 'YouTube', available: true, fileSettings: ['thumbnailMediaId'],
  textLimits: [
    { field: 'title', unit: 'codePoints', max: youtubeLimits.titleChars },
    { field: 'text', unit: 'utf8Bytes', max: youtubeLimits.descriptionBytes },
  ],
  choices: { visibility: youtubeLimits.visibilities },
  check, quotaResetZone: 'America/Los_Angeles',
  defaults: () => youtubeLimits.defaults,
  describe: (name, value) => (name === 'category' && CATEGORY_NAMES[String(value)]
    ? `${String(value)} (${CATEGORY_NAMES[String(value)]})` : String(value)),
};

// ---------------------------------------------------------------------------------------------------
// The connector: videos.insert over the resumable upload protocol, then the optional thumbnail and
// playlist steps. Exactly once rests on the upload session: a finished session answers its video
// again, so an attempt that died midway is settled by asking it (or, once it expired, by finding the
// video among the channel's recent uploads) instead of uploading a second time.

/** Resumes of one upload before the attempt gives up; the worker's retry continues the same session. */
const UPLOAD_RETRIES = 5;
/** Thumbnail and playlist calls are repeated this often after a server error before the step is skipped. */
const STEP_RETRIES = 2;
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
  thumbnailDone?: boolean;
  playlistDone?: boolean;
  /** Skipped steps, kept so that a resumed attempt still reports them. */
  notes?: string[];
};

/** The parts of a video resource the connector reads. */
interface VideoAnswer {
  id: string;
  status?: { uploadStatus?: string; rejectionReason?: string; failureReason?: string };
}

interface YoutubeErrorBody {
  error?: { message?: string; errors?: { reason?: string }[] };
}

/** A refusal with what the steps need to tell their causes apart. */
interface Refusal {
  error: NetworkError;
  reason: string;
}

/** YouTube's refusal as the spec's kind of failure: by reason first, then by HTTP status. */
function failureKind(status: number, reason: string, message: string): FailureKind {
  if (reason === 'youtubeSignupRequired') return 'unverified';
  if (status === 401 || reason === 'authError' || reason.startsWith('authenticatedUserAccount')) return 'token_rejected';
  // Two eras of the same spent quota: 403 quotaExceeded, and 429 on the "Video Uploads per day" bucket.
  if (reason === 'quotaExceeded' || reason === 'dailyLimitExceeded' || message.includes('Video Uploads per day')) return 'quota_exceeded';
  if (status === 429 || ['rateLimitExceeded', 'userRateLimitExceeded', 'uploadLimitExceeded', 'uploadRateLimitExceeded'].includes(reason)) return 'rate_limited';
  if (reason === 'insufficientPermissions' || reason === 'forbidden') return 'permission_missing';
  if (status >= 500) return 'unavailable';
  return 'rejected';
}

/** YouTube's own message (its quota message carries an HTML link) with the status and reason. */
async function readRefusal(res: Response): Promise<Refusal> {
  const text = await res.text();
  let body: YoutubeErrorBody = {};
  try {
    body = JSON.parse(text) as YoutubeErrorBody;
  } catch {
    // Not YouTube's JSON (a proxy's page): the status line is all there is to quote.
  }
  const reason = body.error?.errors?.[0]?.reason ?? '';
  const message = (body.error?.message ?? res.statusText).replace(/<[^>]*>/g, '').trim() || `HTTP ${res.status}`;
  const kind = failureKind(res.status, reason, message);
  // A spent daily quota waits for its reset (NetworkRules.quotaResetZone), whatever Retry-After says.
  const retryAfter = kind === 'quota_exceeded' ? undefined : Number(res.headers.get('Retry-After')) || undefined;
  return { reason, error: new NetworkError('youtube', kind, `${message} (${[res.status, reason].filter(Boolean).join(' ')})`, retryAfter) };
}

async function refusal(res: Response): Promise<NetworkError> {
  return (await readRefusal(res)).error;
}

/** Bytes a 308 says the session holds: `Range: bytes=0-<last>`, and no Range at all when none arrived. */
function receivedBytes(res: Response): number {
  const range = /^bytes=0-(\d+)$/.exec(res.headers.get('Range') ?? '');
  return range ? Number(range[1]) + 1 : 0;
}

/** A file stream as a request body: Node's fetch sends any async iterable of bytes, which its types leave out. */
const streamed = (stream: Readable) => stream as unknown as RequestInit['body'];

/** YouTube classes a square or vertical video of up to 3 minutes as a Short, and shows it at /shorts/. */
function isShort(video: PublishMedia): boolean {
  return video.width !== null && video.height !== null && video.height >= video.width
    && video.durationSeconds !== null && video.durationSeconds <= youtubeLimits.shortMaxSeconds;
}

/** YouTube took the bytes but refused the video; `length` is an unverified channel's over-long upload. */
function refuseIfRejected(video: VideoAnswer): void {
  const status = video.status;
  if (status?.uploadStatus === 'rejected') {
    const reason = status.rejectionReason ?? 'unknown';
    if (reason === 'length') {
      throw new NetworkError('youtube', 'unverified', 'YouTube rejected the video: it is longer than the channel may upload (rejectionReason length).');
    }
    throw new NetworkError('youtube', 'rejected', `YouTube rejected the video (rejectionReason ${reason}).`);
  }
  if (status?.uploadStatus === 'failed') {
    throw new NetworkError('youtube', 'rejected', `YouTube could not process the video (failureReason ${status.failureReason ?? 'unknown'}).`);
  }
}

/** The checkpoint as this attempt sees it; `record` saves it before the next network call. */
function attemptOf(job: PublishJob) {
  const attempt = {
    cp: { ...(job.checkpoint ?? {}) } as YoutubeCheckpoint,
    async record(changes: YoutubeCheckpoint) {
      attempt.cp = { ...attempt.cp, ...changes };
      await job.saveCheckpoint(attempt.cp);
    },
  };
  return attempt;
}
type Attempt = ReturnType<typeof attemptOf>;

function createYoutubeConnector(ctx: ConnectorContext): Connector {
  const { hosts } = ctx;
  const bearer = (job: { account: PublishJob['account'] }) => ({ Authorization: `Bearer ${job.account.credentials.accessToken}` });

  /** One request; a connection that fails or drops midway is YouTube being unavailable. */
  async function send(url: string, init: RequestInit & { duplex?: 'half' }): Promise<Response> {
    try {
      // A 308 is "Resume Incomplete" here, never a redirect to follow.
      return await ctx.fetch(url, { redirect: 'manual', ...init });
    } catch (err) {
      const cause = (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;
      throw new NetworkError('youtube', 'unavailable', `The connection to YouTube failed: ${cause}.`);
    }
  }

  async function getJson<T>(job: { account: PublishJob['account'] }, path: string): Promise<T> {
    const res = await send(`${hosts.api}${path}`, { headers: bearer(job) });
    if (!res.ok) throw await refusal(res);
    return (await res.json()) as T;
  }

  /** Asks YouTube for an upload session for the post's video and records its address at once. */
  async function openSession(job: PublishJob, video: PublishMedia, attempt: Attempt): Promise<void> {
    const startedAt = attempt.cp.startedAt ?? new Date().toISOString();
    const settings: Record<string, unknown> = { ...youtubeLimits.defaults, ...job.settings };
    const resource = {
      snippet: { title: job.title ?? '', description: job.text, ...(job.tags.length ? { tags: job.tags } : {}), categoryId: String(settings.category) },
      status: { privacyStatus: settings.visibility, selfDeclaredMadeForKids: settings.madeForKids === true },
    };
    const res = await send(`${hosts.upload}/videos?uploadType=resumable&part=snippet,status`, {
      method: 'POST', body: JSON.stringify(resource),
      headers: { ...bearer(job), 'Content-Type': 'application/json; charset=UTF-8', 'X-Upload-Content-Length': String(video.size), 'X-Upload-Content-Type': video.mime },
    });
    if (!res.ok) throw await refusal(res);
    await res.body?.cancel();
    const sessionUri = res.headers.get('Location');
    if (!sessionUri) throw new Error('YouTube opened an upload session without giving its address (no Location header).');
    await attempt.record({ sessionUri, startedAt });
  }

  /** Where a session stands: finished (its video again), bytes received so far, or expired. */
  async function sessionProgress(sessionUri: string, total: number): Promise<{ video: VideoAnswer } | { received: number } | { expired: true }> {
    const res = await send(sessionUri, { method: 'PUT', headers: { 'Content-Range': `bytes */${total}`, 'Content-Length': '0' } });
    if (res.status === 200 || res.status === 201) return { video: (await res.json()) as VideoAnswer };
    if (res.status === 308 || res.status === 404) {
      await res.body?.cancel();
      return res.status === 308 ? { received: receivedBytes(res) } : { expired: true };
    }
    throw await refusal(res);
  }

  /** Streams the file from `offset` (never held in memory) into the session. */
  async function putBytes(sessionUri: string, video: PublishMedia, offset: number): Promise<Response> {
    const body = await video.open({ start: offset });
    try {
      return await send(sessionUri, {
        method: 'PUT', body: streamed(body), duplex: 'half',
        headers: { 'Content-Type': video.mime, 'Content-Length': String(video.size - offset),
          ...(offset > 0 ? { 'Content-Range': `bytes ${offset}-${video.size - 1}/${video.size}` } : {}) },
      });
    } finally {
      body.destroy();
    }
  }

  /** The post's video among the channel's recent uploads: same title and text, uploaded since the attempt started. */
  async function findUpload(job: PublishJob, startedAt: string): Promise<VideoAnswer | undefined> {
    const channels = await getJson<{ items?: { contentDetails?: { relatedPlaylists?: { uploads?: string } } }[] }>(job, '/channels?part=contentDetails&mine=true');
    const uploads = channels.items?.[0]?.contentDetails?.relatedPlaylists?.uploads;
    if (!uploads) return undefined;
    const recent = await getJson<{ items?: { snippet: { title: string; description: string; publishedAt: string; resourceId: { videoId: string } } }[] }>(
      job, `/playlistItems?part=snippet&playlistId=${encodeURIComponent(uploads)}&maxResults=${RECENT_UPLOADS}`);
    const since = Date.parse(startedAt) - CLOCK_SKEW_MS;
    const match = recent.items?.find(({ snippet }) => snippet.title.trim() === (job.title ?? '').trim()
      && snippet.description.trim() === job.text.trim() && Date.parse(snippet.publishedAt) >= since);
    return match ? { id: match.snippet.resourceId.videoId } : undefined;
  }

  /** Sends the video, resuming from what the session holds after a dropped connection or a server error. */
  async function uploadVideo(job: PublishJob, video: PublishMedia, attempt: Attempt): Promise<VideoAnswer> {
    /** Bytes the session holds; undefined until asked. */
    let offset: number | undefined;
    if (!attempt.cp.sessionUri) {
      // A refusal here moved no bytes: the worker's own retries are the place to try again.
      await openSession(job, video, attempt);
      offset = 0;
    }
    let problem: NetworkError | undefined;
    for (let failures = 0; ; failures++) {
      if (failures > UPLOAD_RETRIES) throw problem;
      if (failures > 0) await job.sleep(1000 * 2 ** (failures - 1));
      try {
        if (offset === undefined) {
          const progress = await sessionProgress(attempt.cp.sessionUri!, video.size);
          if ('video' in progress) return progress.video;
          if ('expired' in progress) {
            // An expired session may have finished first: its video is then among the uploads.
            const found = await findUpload(job, attempt.cp.startedAt!);
            if (found) return found;
            await openSession(job, video, attempt);
            offset = 0;
          } else {
            offset = progress.received;
          }
        }
        const res = await putBytes(attempt.cp.sessionUri!, video, offset);
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
          problem = new NetworkError('youtube', 'unavailable', `YouTube's upload session answered ${res.status} without taking the video.`);
        } else {
          problem = await refusal(res);
          if (problem.kind !== 'unavailable') throw problem;
        }
      } catch (err) {
        if (!(err instanceof NetworkError) || err.kind !== 'unavailable') throw err;
        problem = err;
      }
      offset = undefined;
    }
  }

  /** The video exists: remember it before anything else, then refuse it if YouTube did. */
  async function recordVideo(attempt: Attempt, video: VideoAnswer): Promise<void> {
    await attempt.record({ videoId: video.id });
    refuseIfRejected(video);
  }

  /** A step's call, repeated after a server error or a drop; the refusal that ended it, if any. */
  async function tryStep(job: PublishJob, call: () => Promise<Refusal | undefined>): Promise<Refusal | undefined> {
    for (let tries = 1; ; tries++) {
      let refused: Refusal | undefined;
      try {
        refused = await call();
      } catch (err) {
        if (!(err instanceof NetworkError)) throw err;
        refused = { error: err, reason: '' };
      }
      if (!refused || refused.error.kind !== 'unavailable' || tries > STEP_RETRIES) return refused;
      await job.sleep(1000 * tries);
    }
  }

  /** thumbnails.set with the image's bytes; a note when YouTube refused it (unverified channels get 403 forbidden). */
  async function setThumbnail(job: PublishJob, videoId: string, mediaId: string): Promise<string | undefined> {
    const image = job.media.find((m) => m.id === mediaId && m.kind === 'image');
    if (!image) return `Thumbnail skipped: the image ${mediaId} was not sent with the post. Set the thumbnail on YouTube.`;
    const refused = await tryStep(job, async () => {
      const body = await image.open();
      try {
        const res = await send(`${hosts.upload}/thumbnails/set?videoId=${encodeURIComponent(videoId)}&uploadType=media`, {
          method: 'POST', body: streamed(body), duplex: 'half', headers: { ...bearer(job), 'Content-Type': image.mime, 'Content-Length': String(image.size) },
        });
        if (!res.ok) return readRefusal(res);
        await res.body?.cancel();
        return undefined;
      } finally {
        body.destroy();
      }
    });
    if (!refused) return undefined;
    const advice = refused.reason === 'forbidden' ? 'Verify the channel by phone, then set the thumbnail on YouTube.' : 'Set the thumbnail on YouTube.';
    return `Thumbnail skipped: YouTube answered "${refused.error.message}". ${advice}`;
  }

  /** playlistItems.insert; a note when YouTube refused it. Not idempotent, hence the checkpoint around it. */
  async function addToPlaylist(job: PublishJob, videoId: string, playlistId: string): Promise<string | undefined> {
    const refused = await tryStep(job, async () => {
      const res = await send(`${hosts.api}/playlistItems?part=snippet`, {
        method: 'POST', headers: { ...bearer(job), 'Content-Type': 'application/json; charset=UTF-8' },
        body: JSON.stringify({ snippet: { playlistId, resourceId: { kind: 'youtube#video', videoId } } }),
      });
      if (!res.ok) return readRefusal(res);
      await res.body?.cancel();
      return undefined;
    });
    // An earlier attempt (or a repeat after a server error) inserted it already: that is what we wanted.
    if (!refused || refused.reason === 'videoAlreadyInPlaylist') return undefined;
    const advice = refused.reason === 'playlistNotFound' ? 'Check that the playlist belongs to this channel, then add the video to it on YouTube.'
      : 'Add the video to the playlist on YouTube.';
    return `Playlist skipped: YouTube answered "${refused.error.message}". ${advice}`;
  }

  /** The optional steps, each recorded as done (or skipped, with its note) so none runs twice. */
  async function finish(job: PublishJob, video: PublishMedia, attempt: Attempt): Promise<Published> {
    const videoId = attempt.cp.videoId!;
    const { thumbnailMediaId, playlistId } = job.settings;
    const withNote = (note: string | undefined) => (note ? [...(attempt.cp.notes ?? []), note] : attempt.cp.notes);
    if (typeof thumbnailMediaId === 'string' && !attempt.cp.thumbnailDone) {
      await attempt.record({ thumbnailDone: true, notes: withNote(await setThumbnail(job, videoId, thumbnailMediaId)) });
    }
    if (typeof playlistId === 'string' && !attempt.cp.playlistDone) {
      await attempt.record({ playlistDone: true, notes: withNote(await addToPlaylist(job, videoId, playlistId)) });
    }
    const notes = attempt.cp.notes ?? [];
    return {
      externalId: videoId,
      externalUrl: isShort(video) ? `${hosts.watch}/shorts/${videoId}` : `${hosts.watch}/watch?v=${videoId}`,
      ...(notes.length ? { notes } : {}),
    };
  }

  const theVideo = (job: PublishJob) => job.media.find((m) => m.kind === 'video');

  return {
    platform: 'youtube',

    async publish(job) {
      const video = theVideo(job);
      if (!video) throw new NetworkError('youtube', 'rejected', 'A YouTube post needs a video, and this post has none.');
      const attempt = attemptOf(job);
      if (!attempt.cp.videoId) await recordVideo(attempt, await uploadVideo(job, video, attempt));
      return finish(job, video, attempt);
    },

    async settle(job) {
      const video = theVideo(job);
      const attempt = attemptOf(job);
      if (!video || (!attempt.cp.videoId && !attempt.cp.sessionUri)) return 'not_published';
      if (!attempt.cp.videoId) {
        let progress: Awaited<ReturnType<typeof sessionProgress>> | undefined;
        try {
          progress = await sessionProgress(attempt.cp.sessionUri!, video.size);
        } catch (err) {
          if (!(err instanceof NetworkError)) throw err;
        }
        // An unfinished session made no video; publishing again resumes it.
        if (progress && 'received' in progress) return 'not_published';
        let found: VideoAnswer | undefined;
        if (progress && 'video' in progress) {
          found = progress.video;
        } else {
          try {
            found = await findUpload(job, attempt.cp.startedAt!);
          } catch (err) {
            if (err instanceof NetworkError) return 'unknown';
            throw err;
          }
        }
        if (!found) return 'not_published';
        await recordVideo(attempt, found);
      }
      // The video is out; the steps it still lacks are finished here, as the attempt would have.
      return finish(job, video, attempt);
    },

    async refresh(account) {
      const refreshToken = account.credentials.refreshToken;
      if (!refreshToken) throw new NetworkError('youtube', 'token_rejected', 'No refresh token is stored for this channel, so its access cannot be renewed.');
      const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, ...(ctx.client ? { client_id: ctx.client.id, client_secret: ctx.client.secret } : {}) });
      const res = await send(`${hosts.oauth}/token`, { method: 'POST', body: form });
      const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; refresh_token?: string; error?: string; error_description?: string };
      if (!res.ok || !body.access_token) {
        const kind = res.status >= 500 ? 'unavailable' : 'token_rejected';
        throw new NetworkError('youtube', kind, `${body.error_description ?? res.statusText} (${[res.status, body.error].filter(Boolean).join(' ')})`);
      }
      // Google sends a refresh token only on the first consent: losing the stored one forces a reconnect.
      return { accessToken: body.access_token, refreshToken: body.refresh_token ?? refreshToken,
        ...(body.expires_in ? { expiresAt: new Date(Date.now() + body.expires_in * 1000).toISOString() } : {}) };
    },

    async postInsights(account, externalId) {
      const answer = await getJson<{ items?: { statistics?: Record<string, string> }[] }>({ account }, `/videos?part=statistics&id=${encodeURIComponent(externalId)}`);
      const stats = answer.items?.[0]?.statistics;
      if (!stats) throw new NetworkError('youtube', 'rejected', `YouTube has no video ${externalId}: it was deleted or is no longer available.`);
      return counters(stats, { views: 'viewCount', likes: 'likeCount', comments: 'commentCount' });
    },

    async accountInsights(account) {
      const answer = await getJson<{ items?: { statistics?: Record<string, string | boolean> }[] }>({ account }, '/channels?part=statistics&mine=true');
      const stats = answer.items?.[0]?.statistics;
      if (!stats) throw new NetworkError('youtube', 'rejected', 'YouTube shows no channel for this account.');
      return counters(stats, { ...(stats.hiddenSubscriberCount === true ? {} : { subscribers: 'subscriberCount' }), views: 'viewCount', videos: 'videoCount' });
    },
  };
}

/** YouTube's counts arrive as strings (uint64); a count it did not report stays absent, not 0. */
function counters(stats: Record<string, unknown>, names: Record<string, string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, field] of Object.entries(names)) {
    if (stats[field] !== undefined) out[name] = Number(stats[field]);
  }
  return out;
}

export const youtubeConnector: ConnectorModule = {
  create: createYoutubeConnector,
  liveHosts: { api: 'https://www.googleapis.com/youtube/v3', upload: 'https://www.googleapis.com/upload/youtube/v3',
    oauth: 'https://oauth2.googleapis.com', watch: 'https://www.youtube.com' },
  sandboxHosts: (base) => ({ api: `${base}/youtube/v3`, upload: `${base}/upload/youtube/v3`, oauth: base, watch: base }),
  clientEnv: { id: 'YOUTUBE_CLIENT_ID', secret: 'YOUTUBE_CLIENT_SECRET' },
};
