// The connector: the Pages API (graph.facebook.com) with a Page token. Feed, photo and video posts
// have no container and no hidden field, so an attempt records its start before the creating call and
// is settled by finding its exact text among the Page's posts since then. Reels and stories get an id
// before anything is visible (the reel's video, the story's photo or video), and are settled by it.
import {
  NetworkError,
  type Connector,
  type ConnectorContext,
  type ConnectorModule,
  type Published,
  type PublishJob,
  type PublishMedia,
} from '../connector.ts';
import {
  findOwnPost,
  graphClient,
  insightValues,
  mediaAddress,
  stillProcessing,
  waitForProcessing,
  windowStart,
  type GraphParams,
  type RecentPost,
} from '../graph/client.ts';
import { META_FIELDS } from '../graph/fields.ts';
import { facebookContentType } from './rules.ts';

const VERSION = 'v25.0';
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/tiff'];
/** Calls that make Facebook download a file answer once it has it. */
const FILE_TIMEOUT_MS = 180_000;

interface FacebookCheckpoint {
  /** `post` (feed, photos, video), `reel` or `story`. */
  step: 'post' | 'reel' | 'story';
  /** When the first attempt began: a settle looks for the post from here on. */
  startedAt: string;
  /** Unpublished photos, made before a multi-photo post or a photo story. */
  photoIds?: string[];
  /** The reel's or video story's video, with the address its bytes go to. */
  videoId?: string;
  uploadUrl?: string;
}

/** `GET /{video-id}?fields=status` of a reel or story video. */
interface VideoStatus {
  video_status: string;
  uploading_phase?: { status: string };
  processing_phase?: { status: string; error?: { message: string } };
  publishing_phase?: { status: string; publish_status?: string };
}

interface Story {
  post_id: string;
  media_id: string;
}

function createFacebookConnector(ctx: ConnectorContext): Connector {
  const graph = graphClient('facebook', 'Facebook');
  const now = () => new Date(ctx.clock.now()).toISOString();
  const api = (path: string) => `${ctx.hosts.graph}/${VERSION}/${path}`;
  const token = (job: PublishJob) => job.account.credentials.accessToken;
  const page = (job: PublishJob) => job.account.externalId;
  const published = (id: string, url?: string): Published => ({
    externalId: id,
    // permalink_url may be relative to facebook.com (a video's is).
    externalUrl: url ? new URL(url, ctx.hosts.web).toString() : `${ctx.hosts.web}/${id}`,
  });
  /**
   * A post or video with the address Facebook gives it (`permalink_url`, Pages API posts and Video reference):
   * a post's id is no address, and a reel's page is not under the bare id.
   */
  const linked = async (job: PublishJob, id: string): Promise<Published> =>
    published(
      id,
      (
        await graph<{ permalink_url?: string }>({
          url: api(id),
          token: token(job),
          params: { fields: META_FIELDS.PagePostAddress },
        })
      ).permalink_url,
    );
  const post = <T = { id: string }>(job: PublishJob, path: string, params: GraphParams, timeoutMs?: number) =>
    graph<T>({ method: 'POST', url: api(path), token: token(job), params, timeoutMs });

  async function findPost(job: PublishJob, since: string): Promise<RecentPost | 'none' | 'ambiguous'> {
    const body = await graph<{
      data: { id: string; message?: string; created_time: string; permalink_url?: string }[];
    }>({
      url: api(`${page(job)}/published_posts`),
      token: token(job),
      params: { fields: META_FIELDS.PagePost, since: windowStart(since), limit: 100 },
    });
    return findOwnPost(
      body.data.map((p) => ({ id: p.id, text: p.message ?? '', time: p.created_time, url: p.permalink_url })),
      job.text,
      since,
    );
  }

  async function findStory(job: PublishJob, mediaId: string): Promise<Story | undefined> {
    const body = await graph<{ data: Story[] }>({
      url: api(`${page(job)}/stories`),
      token: token(job),
      params: { fields: META_FIELDS.Stories },
    });
    return body.data.find((s) => s.media_id === mediaId);
  }

  const unpublishedPhoto = async (job: PublishJob, media: PublishMedia) =>
    (
      await post(
        job,
        `${page(job)}/photos`,
        { url: await mediaAddress(media, IMAGE_TYPES), published: false },
        FILE_TIMEOUT_MS,
      )
    ).id;

  /** Text, link, photo and video posts: one creating call, after the attempt's start is recorded. */
  async function publishPost(job: PublishJob, type: string, checkpoint: FacebookCheckpoint | null): Promise<Published> {
    if (checkpoint?.step === 'post') {
      // The earlier attempt may have posted before it failed or died: find that post before posting.
      const earlier = await findPost(job, checkpoint.startedAt);
      if (earlier === 'ambiguous')
        throw new NetworkError(
          'facebook',
          'rejected',
          'Facebook shows several posts with this text since the earlier attempt began; check the Page ' +
            'before publishing again.',
        );
      if (earlier !== 'none') return published(earlier.id, earlier.url);
    }
    const message = job.text || undefined;
    const startedAt = checkpoint?.startedAt ?? now();
    if (type === 'photo' && job.media.length > 1) {
      const photoIds = checkpoint?.photoIds ?? [];
      for (const media of job.media.slice(photoIds.length)) photoIds.push(await unpublishedPhoto(job, media));
      await job.saveCheckpoint({ step: 'post', startedAt, photoIds } satisfies FacebookCheckpoint);
      const attached = Object.fromEntries(
        photoIds.map((id, i) => [`attached_media[${i}]`, JSON.stringify({ media_fbid: id })]),
      );
      return linked(job, (await post(job, `${page(job)}/feed`, { message, ...attached })).id);
    }
    await job.saveCheckpoint({ step: 'post', startedAt } satisfies FacebookCheckpoint);
    const media = job.media[0];
    if (type === 'photo' && media) {
      const photo = await post<{ id: string; post_id: string }>(
        job,
        `${page(job)}/photos`,
        { url: await mediaAddress(media, IMAGE_TYPES), caption: message },
        FILE_TIMEOUT_MS,
      );
      return linked(job, photo.post_id);
    }
    if (type === 'video' && media)
      return linked(
        job,
        (
          await post(
            job,
            `${page(job)}/videos`,
            { file_url: await media.publicUrl(), description: message },
            FILE_TIMEOUT_MS,
          )
        ).id,
      );
    return linked(
      job,
      (await post(job, `${page(job)}/feed`, { message, link: job.settings.link as string | undefined })).id,
    );
  }

  const videoStatus = (job: PublishJob, videoId: string) =>
    graph<{ status: VideoStatus }>({ url: api(videoId), token: token(job), params: { fields: 'status' } }).then(
      (b) => b.status,
    );

  /** Waits until `done` says yes; a failed upload or processing is the file's fault. */
  async function waitVideo(
    job: PublishJob,
    videoId: string,
    what: string,
    done: (s: VideoStatus) => boolean,
  ): Promise<VideoStatus> {
    const status = await waitForProcessing(job.sleep, async () => {
      const current = await videoStatus(job, videoId);
      if (
        current.video_status === 'error' ||
        current.video_status === 'upload_failed' ||
        current.processing_phase?.status === 'error'
      ) {
        throw new NetworkError(
          'facebook',
          'rejected',
          `Facebook could not process video ${videoId}: ` +
            `${current.processing_phase?.error?.message ?? current.video_status}.`,
        );
      }
      return done(current) ? current : undefined;
    });
    if (!status) throw stillProcessing('facebook', 'Facebook', what);
    return status;
  }

  const uploaded = (s: VideoStatus) => s.uploading_phase?.status === 'complete';
  const finishing = (s: VideoStatus) => s.publishing_phase !== undefined && s.publishing_phase.status !== 'not_started';
  const isPublished = (s: VideoStatus) =>
    s.publishing_phase?.status === 'complete' && s.publishing_phase.publish_status === 'published';

  /**
   * Reels and video stories: start a session on `edge` (its video id is the checkpoint), have
   * Facebook fetch the file from its public address through the upload host, and wait for the bytes.
   * A video kept in the checkpoint is reused unless it expired.
   */
  async function uploadedVideo(
    job: PublishJob,
    edge: 'video_reels' | 'video_stories',
    step: 'reel' | 'story',
    checkpoint: FacebookCheckpoint | null,
  ): Promise<{ videoId: string; status: VideoStatus }> {
    let videoId = checkpoint?.step === step ? checkpoint.videoId : undefined;
    let uploadUrl = checkpoint?.uploadUrl;
    let status = videoId ? await videoStatus(job, videoId) : undefined;
    if (!videoId || !uploadUrl || status?.video_status === 'expired') {
      const started = await post<{ video_id: string; upload_url: string }>(job, `${page(job)}/${edge}`, {
        upload_phase: 'start',
      });
      videoId = started.video_id;
      uploadUrl = started.upload_url;
      await job.saveCheckpoint({
        step,
        startedAt: checkpoint?.startedAt ?? now(),
        videoId,
        uploadUrl,
      } satisfies FacebookCheckpoint);
      status = undefined;
    }
    if (!status || !uploaded(status)) {
      const media = job.media[0]!;
      await graph({
        method: 'POST',
        url: uploadUrl,
        token: token(job),
        timeoutMs: FILE_TIMEOUT_MS,
        headers: { authorization: `OAuth ${token(job)}`, file_url: await media.publicUrl() },
      });
      status = await waitVideo(job, videoId, `upload of video ${videoId}`, uploaded);
    }
    return { videoId, status };
  }

  async function publishReel(job: PublishJob, checkpoint: FacebookCheckpoint | null): Promise<Published> {
    const { videoId, status } = await uploadedVideo(job, 'video_reels', 'reel', checkpoint);
    // Only video_state=PUBLISHED makes a reel go live; reels sent any other way sit as drafts.
    if (!finishing(status))
      await post(job, `${page(job)}/video_reels`, {
        video_id: videoId,
        upload_phase: 'finish',
        video_state: 'PUBLISHED',
        description: job.text || undefined,
      });
    const final = await waitVideo(job, videoId, `reel ${videoId}`, (s) => s.publishing_phase?.status === 'complete');
    if (!isPublished(final))
      throw new NetworkError(
        'facebook',
        'rejected',
        `Facebook finished reel ${videoId} as "${final.publishing_phase?.publish_status}" instead of publishing it.`,
      );
    return linked(job, videoId);
  }

  async function publishStory(job: PublishJob, checkpoint: FacebookCheckpoint | null): Promise<Published> {
    const media = job.media[0]!;
    const earlierMedia = checkpoint?.step === 'story' ? (checkpoint.photoIds?.[0] ?? checkpoint.videoId) : undefined;
    const earlier = earlierMedia ? await findStory(job, earlierMedia) : undefined;
    if (earlier) return published(earlier.post_id);
    if (media.kind === 'video') {
      const { videoId } = await uploadedVideo(job, 'video_stories', 'story', checkpoint);
      return published(
        (
          await post<{ post_id: string }>(job, `${page(job)}/video_stories`, {
            video_id: videoId,
            upload_phase: 'finish',
          })
        ).post_id,
      );
    }
    const photoId = checkpoint?.photoIds?.[0] ?? (await unpublishedPhoto(job, media));
    await job.saveCheckpoint({
      step: 'story',
      startedAt: checkpoint?.startedAt ?? now(),
      photoIds: [photoId],
    } satisfies FacebookCheckpoint);
    return published(
      (await post<{ post_id: string }>(job, `${page(job)}/photo_stories`, { photo_id: photoId })).post_id,
    );
  }

  return {
    platform: 'facebook',
    publish(job) {
      const type = facebookContentType(job);
      const checkpoint = job.checkpoint as FacebookCheckpoint | null;
      if (type === 'reel') return publishReel(job, checkpoint);
      if (type === 'story') return publishStory(job, checkpoint);
      return publishPost(job, type, checkpoint);
    },
    async settle(job) {
      const checkpoint = job.checkpoint as FacebookCheckpoint | null;
      if (!checkpoint) return 'not_published';
      if (checkpoint.step === 'post') {
        const found = await findPost(job, checkpoint.startedAt);
        if (found === 'ambiguous') return 'unknown';
        return found === 'none' ? 'not_published' : published(found.id, found.url);
      }
      if (checkpoint.step === 'reel') {
        // A finished reel still processing publishes by itself; publish() then only waits for it.
        return checkpoint.videoId && isPublished(await videoStatus(job, checkpoint.videoId))
          ? linked(job, checkpoint.videoId)
          : 'not_published';
      }
      const mediaId = checkpoint.photoIds?.[0] ?? checkpoint.videoId;
      const story = mediaId ? await findStory(job, mediaId) : undefined;
      return story ? published(story.post_id) : 'not_published';
    },
    // Page tokens made from a long-lived user token do not expire; there is nothing to refresh.
    refresh: async (account) => account.credentials,
    async postInsights(account, postId) {
      const read = (path: string, params: GraphParams = {}) =>
        graph({ url: api(path), token: account.credentials.accessToken, params });
      // A Page post's id is `{page-id}_{post-id}` and has /insights.
      if (postId.includes('_'))
        return insightValues(
          await read(`${postId}/insights`, {
            metric: 'post_media_view,post_total_media_view_unique,post_clicks,post_reactions_by_type_total',
          }),
        );
      // A bare id is a video (reel, video post) or a story: neither has /insights. A video has video_insights,
      // all of its metrics when none are named (https://developers.facebook.com/docs/video-api/guides/insights,
      // read 2026-11-29); a video story's are its video's; a photo story has none documented.
      const stories = (await read(`${account.externalId}/stories`, { fields: META_FIELDS.Stories })) as {
        data?: { post_id: string; media_id: string; media_type?: string }[];
      };
      const story = stories.data?.find((s) => s.post_id === postId);
      if (story && story.media_type !== 'video') return {};
      return insightValues(await read(`${story?.media_id ?? postId}/video_insights`));
    },
    async accountInsights(account) {
      return insightValues(
        await graph({
          url: api(`${account.externalId}/insights`),
          token: account.credentials.accessToken,
          params: { metric: 'page_media_view,page_follows,page_post_engagements', period: 'day' },
        }),
      );
    },
  };
}

export const facebookConnectorModule: ConnectorModule = {
  create: createFacebookConnector,
  // Video bytes go to rupload.facebook.com at the upload_url each session's start answers.
  liveHosts: { graph: 'https://graph.facebook.com', web: 'https://www.facebook.com' },
  sandboxHosts: (base) => ({ graph: base, web: `${base}/p` }),
  clientEnv: { id: 'FACEBOOK_CLIENT_ID', secret: 'FACEBOOK_CLIENT_SECRET' },
};
