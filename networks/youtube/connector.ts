// The YouTube connector: videos.insert over the resumable upload protocol (upload.ts), then the optional
// thumbnail and playlist steps (steps.ts). An attempt that died midway is settled by asking its upload
// session (or, once it expired, by finding the video among the channel's recent uploads) instead of
// uploading a second time.
import { refreshGrant } from '../accountCredentials.ts';
import { NetworkError, type Connector, type ConnectorModule, type PublishJob } from '../connector.ts';
import { youtubeApi, type VideoAnswer, type YoutubeApi } from './api.ts';
import { finish } from './steps.ts';
import { attemptOf, findUpload, recordVideo, sessionProgress, uploadVideo } from './upload.ts';

/**
 * Google answers invalid_grant for every dead refresh token. The likeliest cause in a new installation: a consent
 * screen whose publishing status is "Testing" gives refresh tokens that expire after 7 days. Google's OAuth overview
 * (developers.google.com/identity/protocols/oauth2, "Refresh token expiration") is said to state it, but that page
 * was not in the corpus read 2026-11-29: third-party reports only (networks/youtube/FACTS.md). The other causes are
 * a person revoking the access and 6 months without use.
 */
const DEAD_REFRESH_TOKEN_HINT =
  'Google no longer accepts the access this YouTube channel gave. If the Google Cloud project’s OAuth consent ' +
  'screen is in Testing, Google ends that access after 7 days: set its publishing status to In production, then ' +
  'reconnect the account. Otherwise the access was revoked or unused for 6 months: reconnect the account.';

const theVideo = (job: PublishJob) => job.media.find((m) => m.kind === 'video');

function youtubeConnector(api: YoutubeApi): Connector {
  return {
    platform: 'youtube',

    async publish(job) {
      const video = theVideo(job);
      if (!video)
        throw new NetworkError('youtube', 'rejected', 'A YouTube post needs a video, and this post has none.');
      const attempt = attemptOf(job);
      if (!attempt.cp.videoId) await recordVideo(attempt, job, await uploadVideo(api, job, video, attempt));
      return finish(api, job, video, attempt);
    },

    async settle(job) {
      const video = theVideo(job);
      const attempt = attemptOf(job);
      if (!video || (!attempt.cp.videoId && !attempt.cp.sessionUri)) return 'not_published';
      if (!attempt.cp.videoId) {
        let progress: Awaited<ReturnType<typeof sessionProgress>> | undefined;
        try {
          progress = await sessionProgress(api, attempt.cp.sessionUri!, video.size);
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
            found = await findUpload(api, job, attempt.cp.startedAt!);
          } catch (err) {
            if (err instanceof NetworkError) return 'unknown';
            throw err;
          }
        }
        if (!found) return 'not_published';
        await recordVideo(attempt, job, found);
      }
      // The video is out; the steps it still lacks are finished here, as the attempt would have.
      return finish(api, job, video, attempt);
    },

    // Google sends a refresh token only on the first consent: losing the stored one forces a reconnect.
    async refresh(account) {
      try {
        return await refreshGrant(
          'youtube',
          account,
          (form) => api.send(`${api.hosts.oauth}/token`, { method: 'POST', body: form }),
          api.client ? { client_id: api.client.id, client_secret: api.client.secret } : {},
          api.clock,
        );
      } catch (err) {
        if (err instanceof NetworkError && err.kind === 'token_rejected' && err.message.endsWith(' invalid_grant)'))
          throw new NetworkError('youtube', 'token_rejected', err.message, undefined, DEAD_REFRESH_TOKEN_HINT);
        throw err;
      }
    },

    async postInsights(account, externalId) {
      const answer = await api.getJson<{ items?: { statistics?: Record<string, string> }[] }>(
        account,
        `/videos?part=statistics&id=${encodeURIComponent(externalId)}`,
      );
      const stats = answer.items?.[0]?.statistics;
      if (!stats)
        throw new NetworkError(
          'youtube',
          'rejected',
          `YouTube has no video ${externalId}: it was deleted or is no longer available.`,
        );
      return counters(stats, { views: 'viewCount', likes: 'likeCount', comments: 'commentCount' });
    },

    async accountInsights(account) {
      const answer = await api.getJson<{ items?: { statistics?: Record<string, string | boolean> }[] }>(
        account,
        '/channels?part=statistics&mine=true',
      );
      const stats = answer.items?.[0]?.statistics;
      if (!stats) throw new NetworkError('youtube', 'rejected', 'YouTube shows no channel for this account.');
      return counters(stats, {
        ...(stats.hiddenSubscriberCount === true ? {} : { subscribers: 'subscriberCount' }),
        views: 'viewCount',
        videos: 'videoCount',
      });
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

export const youtubeConnectorModule: ConnectorModule = {
  create: (ctx) => youtubeConnector(youtubeApi(ctx)),
  liveHosts: {
    api: 'https://www.googleapis.com/youtube/v3',
    upload: 'https://www.googleapis.com/upload/youtube/v3',
    oauth: 'https://oauth2.googleapis.com',
    watch: 'https://www.youtube.com',
  },
  sandboxHosts: (base) => ({
    api: `${base}/youtube/v3`,
    upload: `${base}/upload/youtube/v3`,
    oauth: base,
    watch: base,
  }),
  clientEnv: { id: 'YOUTUBE_CLIENT_ID', secret: 'YOUTUBE_CLIENT_SECRET' },
};
