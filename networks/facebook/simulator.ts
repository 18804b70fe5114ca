// Facebook Pages as the sandbox simulates it (graph.facebook.com, versioned paths): feed posts with a
// message, link or attached photos; photos by URL (published, or unpublished for multi-photo posts and
// stories); videos by file_url; reels in phases (start, the upload host fetching file_url, status,
// finish with video_state) and at most 30 published per Page per 24 hours; photo and video stories;
// the Page's published posts and stories; insights. Every post has a page at `<base>/p/<id>`.
import type { Request } from 'express';
import type { Simulator, SimulatorContext } from '../sandbox/simulator.ts';
import { fetchMedia, type StoredFile } from '../sandbox/files.ts';
import {
  graphRoute,
  graphRouter,
  insightsAnswer,
  itemOrAccountInsights,
  isExpired,
  metaTime,
  pickFields,
  publishedToday,
  type PostPageData,
} from '../sandbox/graph.ts';
import { admitPublishingCall, fault, type GraphFault, notFoundFault, UploadFault } from '../sandbox/graphFaults.ts';
import { params } from '../sandbox/params.ts';
import type { SandboxItem } from '../sandbox/state.ts';
import { facebookConsent } from './consent.ts';

const N = 'facebook';

/**
 * Facebook's own limits, as its documentation gives them (never Herald's copy, so a miscount on either
 * side fails a test): https://developers.facebook.com/docs/pages-api/posts (10 attached photos) and
 * https://developers.facebook.com/docs/video-api/guides/reels-publishing (30 API reels per Page per 24 hours).
 */
const LIMITS = { attachedPhotos: 10, reelsPerDay: 30 };

interface PostData extends PostPageData {
  message: string;
  link?: string;
}

/** A photo uploaded by URL; unpublished ones wait to be attached to a post or a story. */
interface PhotoData extends Record<string, unknown> {
  file: StoredFile;
  published: boolean;
  usedBy?: string;
}

/** A reel's or video story's video through its phases. */
interface VideoData extends PostPageData {
  file?: StoredFile;
  uploadedAt?: number;
  /** Epoch ms when processing ends. */
  readyAt?: number;
  finish?: { state: string; at: number; description: string };
}

interface StoryData extends PostPageData {
  mediaId: string;
  mediaType: 'photo' | 'video';
}

const KIND = { post: 'post', photo: 'photo', reel: 'reel', storyVideo: 'story_video', story: 'story' } as const;

const badParameter = (message: string) => fault(N, [400, { message: `(#100) ${message}`, code: 100 }]);

async function newPost(ctx: SimulatorContext, page: string, data: PostData): Promise<string> {
  const id = `${page}_${ctx.state.newId()}`;
  await ctx.state.create<PostData>({
    id,
    account: page,
    kind: KIND.post,
    status: 'published',
    data,
    publishedMs: Date.now(),
  });
  return id;
}

async function fetchPhoto(ctx: SimulatorContext, url: string | undefined): Promise<StoredFile> {
  if (!url) throw badParameter('The parameter url is required.');
  const file = await fetchMedia(ctx, N, url, 'image');
  if (typeof file === 'string')
    throw fault(N, [
      400,
      {
        message: '(#324) Missing or invalid image file',
        code: 324,
        error_user_msg: `The photo could not be downloaded: ${file}.`,
      },
    ]);
  return file;
}

/** An unpublished photo of the Page, not yet used by another post or story. */
async function unusedPhoto(
  ctx: SimulatorContext,
  page: string,
  id: string | undefined,
): Promise<SandboxItem<PhotoData>> {
  const photo = id ? await ctx.state.get<PhotoData>(id) : undefined;
  if (!photo || photo.kind !== KIND.photo || photo.account !== page || photo.data.published)
    throw badParameter(`${id ?? 'photo'} is not an unpublished photo of this Page.`);
  if (photo.data.usedBy) throw badParameter(`Photo ${id} was already used in ${photo.data.usedBy}.`);
  return photo;
}

async function markUsed(ctx: SimulatorContext, photo: SandboxItem<PhotoData>, by: string): Promise<void> {
  await ctx.state.update<PhotoData>(photo.id, { data: { ...photo.data, usedBy: by } });
}

/** `attached_media[0]={"media_fbid":"..."}`, ... (or one JSON array in `attached_media`). */
function attachedIds(p: Record<string, string>): string[] {
  const entries = p.attached_media
    ? (JSON.parse(p.attached_media) as { media_fbid: string }[])
    : Object.keys(p)
        .filter((k) => /^attached_media\[\d+\]$/.test(k))
        .sort((a, b) => Number(a.slice(15, -1)) - Number(b.slice(15, -1)))
        .map((k) => JSON.parse(p[k]!));
  return entries.map((e) => String(e.media_fbid));
}

async function feed(ctx: SimulatorContext, page: string, p: Record<string, string>): Promise<{ id: string }> {
  const photos = await Promise.all(attachedIds(p).map((id) => unusedPhoto(ctx, page, id)));
  if (photos.length > LIMITS.attachedPhotos)
    throw badParameter(`A post takes at most ${LIMITS.attachedPhotos} photos.`);
  if (!p.message && !p.link && photos.length === 0) throw badParameter('Missing message or attachment.');
  const id = await newPost(ctx, page, {
    message: p.message ?? '',
    link: p.link,
    page: { text: [p.message, p.link].filter(Boolean).join('\n\n'), files: photos.map((ph) => ph.data.file) },
  });
  for (const photo of photos) await markUsed(ctx, photo, id);
  return { id };
}

async function photos(
  ctx: SimulatorContext,
  page: string,
  p: Record<string, string>,
): Promise<{ id: string; post_id?: string }> {
  const file = await fetchPhoto(ctx, p.url);
  const published = p.published !== 'false';
  const photo = await ctx.state.create<PhotoData>({
    id: ctx.state.newId(),
    account: page,
    kind: KIND.photo,
    status: published ? 'published' : 'unpublished',
    data: { file, published },
  });
  if (!published) return { id: photo.id };
  return {
    id: photo.id,
    post_id: await newPost(ctx, page, { message: p.caption ?? '', page: { text: p.caption ?? '', files: [file] } }),
  };
}

async function videos(ctx: SimulatorContext, page: string, p: Record<string, string>): Promise<{ id: string }> {
  if (!p.file_url) throw badParameter('The parameter file_url or source is required.');
  const file = await fetchMedia(ctx, N, p.file_url, 'video');
  if (typeof file === 'string')
    throw fault(N, [
      400,
      {
        message: '(#389) Unable to fetch video file from URL.',
        code: 389,
        error_user_msg: `The video could not be downloaded: ${file}.`,
      },
    ]);
  const text = p.description ?? '';
  return { id: await newPost(ctx, page, { message: text, page: { text, files: [file] } }) };
}

/** `GET /{video-id}?fields=status` as the reels and video stories guides describe it. */
function videoStatus(video: SandboxItem<VideoData>) {
  const { uploadedAt, readyAt, finish } = video.data;
  if (!finish && isExpired(video)) return { video_status: 'expired' };
  const ready = uploadedAt !== undefined && Date.now() >= readyAt!;
  return {
    video_status: uploadedAt === undefined ? 'uploading' : ready ? 'ready' : 'processing',
    uploading_phase: { status: uploadedAt === undefined ? 'not_started' : 'complete' },
    processing_phase: { status: uploadedAt === undefined ? 'not_started' : ready ? 'complete' : 'in_progress' },
    publishing_phase: !finish
      ? { status: 'not_started' }
      : !ready
        ? { status: 'in_progress' }
        : {
            status: 'complete',
            publish_status: finish.state === 'PUBLISHED' ? 'published' : finish.state.toLowerCase(),
            publish_time: metaTime(finish.at),
          },
  };
}

async function ownVideo(
  ctx: SimulatorContext,
  page: string,
  kind: string,
  id: string | undefined,
): Promise<SandboxItem<VideoData>> {
  const video = id ? await ctx.state.get<VideoData>(id) : undefined;
  if (!video || video.kind !== kind || video.account !== page)
    throw badParameter(`${id ?? 'video_id'} is not a video session of this Page.`);
  return video;
}

async function startVideo(ctx: SimulatorContext, page: string, kind: string, version: string) {
  const video = await ctx.state.create<VideoData>({
    id: ctx.state.newId(),
    account: page,
    kind,
    status: 'started',
    data: {},
  });
  return { video_id: video.id, upload_url: `${ctx.base}/rupload/video-upload/${version}/${video.id}` };
}

async function reels(ctx: SimulatorContext, page: string, p: Record<string, string>, version: string): Promise<object> {
  if (p.upload_phase === 'start') {
    // The Page's limit is enforced when a reel starts.
    if ((await publishedToday(ctx, N, page, [KIND.reel])) >= LIMITS.reelsPerDay) {
      throw fault(N, [
        400,
        {
          message: 'Application request limit reached',
          code: 4,
          is_transient: true,
          error_user_title: 'Reels limit reached',
          error_user_msg: `This Page has published ${LIMITS.reelsPerDay} reels through the API in the last 24 hours.`,
        },
      ]);
    }
    return startVideo(ctx, page, KIND.reel, version);
  }
  if (p.upload_phase !== 'finish') throw badParameter('upload_phase must be start or finish.');
  const video = await ownVideo(ctx, page, KIND.reel, p.video_id);
  if (video.data.uploadedAt === undefined) throw badParameter('The video has not been uploaded yet.');
  if (video.data.finish) throw badParameter('This reel was already finished.');
  const state = p.video_state ?? 'DRAFT';
  const description = p.description ?? '';
  // The publish call arrives now: bench/publish measures lag against published_ms.
  await ctx.state.update<VideoData>(video.id, {
    status: state.toLowerCase(),
    publishedMs: state === 'PUBLISHED' ? Date.now() : undefined,
    data: {
      ...video.data,
      finish: { state, at: Date.now(), description },
      page: { text: description, files: [video.data.file!] },
    },
  });
  return { success: true };
}

async function newStory(
  ctx: SimulatorContext,
  page: string,
  mediaId: string,
  mediaType: StoryData['mediaType'],
  file: StoredFile,
): Promise<{ success: true; post_id: string }> {
  const id = ctx.state.newId();
  await ctx.state.create<StoryData>({
    id,
    account: page,
    kind: KIND.story,
    status: 'published',
    publishedMs: Date.now(),
    data: { mediaId, mediaType, page: { text: '', files: [file] } },
  });
  return { success: true, post_id: id };
}

async function videoStories(
  ctx: SimulatorContext,
  page: string,
  p: Record<string, string>,
  version: string,
): Promise<object> {
  if (p.upload_phase === 'start') return startVideo(ctx, page, KIND.storyVideo, version);
  if (p.upload_phase !== 'finish') throw badParameter('upload_phase must be start or finish.');
  const video = await ownVideo(ctx, page, KIND.storyVideo, p.video_id);
  if (video.data.uploadedAt === undefined) throw badParameter('The video has not been uploaded yet.');
  if (video.data.finish) throw badParameter('This story was already finished.');
  await ctx.state.update<VideoData>(video.id, {
    status: 'published',
    data: { ...video.data, finish: { state: 'PUBLISHED', at: Date.now(), description: '' } },
  });
  return newStory(ctx, page, video.id, 'video', video.data.file!);
}

async function photoStories(ctx: SimulatorContext, page: string, p: Record<string, string>): Promise<object> {
  const photo = await unusedPhoto(ctx, page, p.photo_id);
  const story = await newStory(ctx, page, photo.id, 'photo', photo.data.file);
  await markUsed(ctx, photo, story.post_id);
  return story;
}

/** The upload host: takes the file by its address (`file_url` header), as Meta's hosted-file upload does. */
async function rupload(ctx: SimulatorContext, req: Request): Promise<object> {
  const video = await ctx.state.get<VideoData>(String(req.params.videoId));
  if (!video || (video.kind !== KIND.reel && video.kind !== KIND.storyVideo)) {
    throw new UploadFault(404, {
      retriable: false,
      type: 'NotFoundError',
      message: 'No upload session has this video id.',
    });
  }
  const url = req.headers.file_url;
  if (typeof url !== 'string') {
    throw new UploadFault(400, {
      retriable: false,
      type: 'ProcessingFailedError',
      message: 'The sandbox takes hosted files only: send the file_url header.',
    });
  }
  const file = await fetchMedia(ctx, N, url, 'video');
  if (typeof file === 'string')
    throw new UploadFault(400, {
      retriable: false,
      type: 'ProcessingFailedError',
      message: `Failed to fetch the file from file_url: ${file}.`,
    });
  const now = Date.now();
  // Merged into the video as it is now: a download that took long (a second upload call's, say) must not undo a
  // finish that came meanwhile, which would leave a published reel processing forever.
  await ctx.state.merge<VideoData>(
    video.id,
    { file, uploadedAt: now, readyAt: now + ctx.processingMs },
    { from: 'started', to: 'uploaded' },
  );
  return { success: true };
}

/**
 * Where an item is shown. A Page post's permalink_url is not facebook.com/{id} but under the Page's posts (as
 * Meta's are), redirecting to the sandbox's page of the post, so a connector that makes up addresses fails.
 */
const permalink = (ctx: SimulatorContext, id: string) => {
  const [page, post] = id.split('_');
  return post ? `${ctx.base}/${page}/posts/${post}` : `${ctx.base}/p/${id}`;
};

async function readObject(ctx: SimulatorContext, req: Request): Promise<object> {
  const id = String(req.params.id);
  const item = await ctx.state.get(id);
  const fields = params(req).fields;
  if (item?.kind === KIND.post) {
    const post = item as SandboxItem<PostData>;
    return pickFields(
      {
        id,
        message: post.data.message || undefined,
        created_time: metaTime(post.createdAt),
        permalink_url: permalink(ctx, id),
      },
      fields,
    );
  }
  if (item?.kind === KIND.reel || item?.kind === KIND.storyVideo) {
    const video = item as SandboxItem<VideoData>;
    return pickFields(
      {
        id,
        status: videoStatus(video),
        description: video.data.finish?.description,
        permalink_url: permalink(ctx, id),
      },
      fields,
    );
  }
  if (item?.kind === KIND.photo || item?.kind === KIND.story)
    return pickFields({ id, created_time: metaTime(item.createdAt) }, fields);
  throw notFoundFault(N, id);
}

/**
 * A video's lifetime metrics, all of them when none are named: total_video_* for videos
 * (https://developers.facebook.com/docs/video-api/guides/insights) and the reels metrics for reels
 * (https://developers.facebook.com/docs/video-api/guides/reels-publishing, Insights; both read 2026-11-29).
 */
const VIDEO_METRICS: Record<string, string[]> = {
  [KIND.reel]: ['blue_reels_play_count', 'post_impressions_unique', 'post_video_avg_time_watched'],
  [KIND.storyVideo]: ['total_video_views', 'total_video_views_unique'],
};

/** Videos, reels and stories have no /insights edge: Graph refuses the field on their node type. */
function noInsightsEdge(item: SandboxItem): GraphFault | undefined {
  const node = { [KIND.reel]: 'Video', [KIND.storyVideo]: 'Video', [KIND.story]: 'Story' }[item.kind as string];
  return node
    ? fault(N, [
        400,
        { message: `(#100) Tried accessing nonexisting field (insights) on node type (${node})`, code: 100 },
      ])
    : undefined;
}

export const facebookSimulator: Simulator = {
  consent: facebookConsent,
  router(ctx) {
    const router = graphRouter(ctx, N, 'Facebook');
    /** A call that creates something on the Page: account state and queued failures first. */
    const creating = (handler: (page: string, p: Record<string, string>, version: string) => Promise<object>) =>
      graphRoute(N, async (req) => {
        const page = String(req.params.page);
        await admitPublishingCall(ctx, N, page);
        return handler(page, params(req), String(req.params.version));
      });
    router.post(
      '/rupload/video-upload/:version/:videoId',
      graphRoute(N, (req) => rupload(ctx, req)),
    );
    router.post(
      '/:version/:page/feed',
      creating((page, p) => feed(ctx, page, p)),
    );
    router.post(
      '/:version/:page/photos',
      creating((page, p) => photos(ctx, page, p)),
    );
    router.post(
      '/:version/:page/videos',
      creating((page, p) => videos(ctx, page, p)),
    );
    router.post(
      '/:version/:page/video_reels',
      creating((page, p, version) => reels(ctx, page, p, version)),
    );
    router.post(
      '/:version/:page/video_stories',
      creating((page, p, version) => videoStories(ctx, page, p, version)),
    );
    router.post(
      '/:version/:page/photo_stories',
      creating((page, p) => photoStories(ctx, page, p)),
    );
    router.get(
      '/:version/:page/published_posts',
      graphRoute(N, async (req) => {
        const p = params(req);
        const since = Number(p.since) * 1000 || 0;
        const posts = await ctx.state.list<PostData>(String(req.params.page), KIND.post, Number(p.limit) || 25);
        return {
          data: posts
            .filter((post) => Date.parse(post.createdAt) >= since)
            .map((post) =>
              pickFields(
                {
                  id: post.id,
                  message: post.data.message || undefined,
                  created_time: metaTime(post.createdAt),
                  permalink_url: permalink(ctx, post.id),
                },
                p.fields,
              ),
            ),
        };
      }),
    );
    router.get(
      '/:version/:page/stories',
      graphRoute(N, async (req) => ({
        data: (await ctx.state.list<StoryData>(String(req.params.page), KIND.story)).map((s) => ({
          post_id: s.id,
          status: 'PUBLISHED',
          creation_time: metaTime(s.createdAt),
          media_type: s.data.mediaType,
          media_id: s.data.mediaId,
          url: permalink(ctx, s.id),
        })),
      })),
    );
    router.get('/:page/posts/:post', (req, res) => {
      res.redirect(302, `${ctx.base}/p/${req.params.page}_${req.params.post}`);
    });
    router.get('/:version/:id/insights', itemOrAccountInsights(ctx, N, noInsightsEdge));
    router.get(
      '/:version/:id/video_insights',
      graphRoute(N, async (req) => {
        const id = String(req.params.id);
        const video = await ctx.state.get(id);
        if (!video || !(video.kind in VIDEO_METRICS)) throw notFoundFault(N, id);
        return insightsAnswer(id, params(req).metric ?? VIDEO_METRICS[video.kind]!.join(','));
      }),
    );
    router.get(
      '/:version/:id',
      graphRoute(N, (req) => readObject(ctx, req)),
    );
    return router;
  },
};
