// The optional steps after the video exists: the thumbnail and the playlist. Each is recorded as done
// (or skipped, with a note for the person) so that none runs twice; a refusal skips it without failing
// the post.
import { NetworkError, type PublishJob, type PublishMedia, type Published } from '../connector.ts';
import { bearer, readRefusal, type Refusal, type YoutubeApi } from './api.ts';
import { youtubeLimits } from './rules.ts';
import { streamed, type Attempt } from './upload.ts';

/** Thumbnail and playlist calls are repeated this often after a server error before the step is skipped. */
const STEP_RETRIES = 2;

/** YouTube classes a square or vertical video of up to 3 minutes as a Short, and shows it at /shorts/. */
function isShort(video: PublishMedia): boolean {
  return (
    video.width !== null &&
    video.height !== null &&
    video.height >= video.width &&
    video.durationSeconds !== null &&
    video.durationSeconds <= youtubeLimits.shortMaxSeconds
  );
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
async function setThumbnail(
  api: YoutubeApi,
  job: PublishJob,
  videoId: string,
  mediaId: string,
): Promise<string | undefined> {
  const image = job.media.find((m) => m.id === mediaId && m.kind === 'image');
  if (!image)
    return `Thumbnail skipped: the image ${mediaId} was not sent with the post. Set the thumbnail on YouTube.`;
  const refused = await tryStep(job, async () => {
    const body = await image.open();
    try {
      const res = await api.send(
        `${api.hosts.upload}/thumbnails/set?videoId=${encodeURIComponent(videoId)}&uploadType=media`,
        {
          method: 'POST',
          body: streamed(body),
          duplex: 'half',
          headers: { ...bearer(job.account), 'Content-Type': image.mime, 'Content-Length': String(image.size) },
        },
      );
      if (!res.ok) return readRefusal(res, api.clock);
      await res.body?.cancel();
      return undefined;
    } finally {
      body.destroy();
    }
  });
  if (!refused) return undefined;
  const advice =
    refused.reason === 'forbidden'
      ? 'Verify the channel by phone, then set the thumbnail on YouTube.'
      : 'Set the thumbnail on YouTube.';
  return `Thumbnail skipped: YouTube answered "${refused.error.message}". ${advice}`;
}

/** playlistItems.insert; a note when YouTube refused it. Not idempotent, hence the checkpoint around it. */
async function addToPlaylist(
  api: YoutubeApi,
  job: PublishJob,
  videoId: string,
  playlistId: string,
): Promise<string | undefined> {
  const refused = await tryStep(job, async () => {
    const res = await api.send(`${api.hosts.api}/playlistItems?part=snippet`, {
      method: 'POST',
      headers: { ...bearer(job.account), 'Content-Type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({ snippet: { playlistId, resourceId: { kind: 'youtube#video', videoId } } }),
    });
    if (!res.ok) return readRefusal(res, api.clock);
    await res.body?.cancel();
    return undefined;
  });
  // An earlier attempt (or a repeat after a server error) inserted it already: that is what we wanted.
  if (!refused || refused.reason === 'videoAlreadyInPlaylist') return undefined;
  const advice =
    refused.reason === 'playlistNotFound'
      ? 'Check that the playlist belongs to this channel, then add the video to it on YouTube.'
      : 'Add the video to the playlist on YouTube.';
  return `Playlist skipped: YouTube answered "${refused.error.message}". ${advice}`;
}

/** The optional steps, each recorded as done (or skipped, with its note) so none runs twice. */
export async function finish(
  api: YoutubeApi,
  job: PublishJob,
  video: PublishMedia,
  attempt: Attempt,
): Promise<Published> {
  const videoId = attempt.cp.videoId!;
  const { thumbnailMediaId, playlistId } = job.settings;
  const withNote = (note: string | undefined) => (note ? [...(attempt.cp.notes ?? []), note] : attempt.cp.notes);
  if (typeof thumbnailMediaId === 'string' && !attempt.cp.thumbnailDone) {
    await attempt.record({
      thumbnailDone: true,
      notes: withNote(await setThumbnail(api, job, videoId, thumbnailMediaId)),
    });
  }
  if (typeof playlistId === 'string' && !attempt.cp.playlistDone) {
    await attempt.record({ playlistDone: true, notes: withNote(await addToPlaylist(api, job, videoId, playlistId)) });
  }
  const notes = attempt.cp.notes ?? [];
  return {
    externalId: videoId,
    externalUrl: isShort(video) ? `${api.hosts.watch}/shorts/${videoId}` : `${api.hosts.watch}/watch?v=${videoId}`,
    ...(notes.length ? { notes } : {}),
    ...(attempt.cp.madePrivate ? { shownPrivately: true } : {}),
  };
}
