// Instagram's content publishing as the sandbox simulates it (graph.instagram.com, versioned paths):
// containers for images, reels, stories and carousels; media_publish; content_publishing_limit; the
// account's media and stories; insights; token refresh. Images must be JPEG and are fetched while the
// container is created (a failed fetch is answered at once, 2207052); videos are fetched too, and a
// failure shows as the container's ERROR status, as on Instagram.
import type { Request } from 'express';
import type { Simulator, SimulatorContext } from '../sandbox/simulator.ts';
import { fetchMedia, type StoredFile } from '../sandbox/files.ts';
import { graphRoute, graphRouter, itemOrAccountInsights, metaTime, pickFields } from '../sandbox/graph.ts';
import { admitPublishingCall, fault, type GraphFault, notFoundFault } from '../sandbox/graphFaults.ts';
import { params } from '../sandbox/params.ts';
import {
  containerState,
  newContainer,
  ownContainer,
  publishContainer,
  publishingLimit,
  type ContainerData,
  type PublishedData,
  type PublishRefusals,
} from '../sandbox/graphContainers.ts';
import type { SandboxItem } from '../sandbox/state.ts';
import { instagramConsent } from './consent.ts';

const N = 'instagram';
/** A carousel's children, as https://developers.facebook.com/docs/instagram-platform/content-publishing gives them. */
const CAROUSEL = { min: 2, max: 10 };
/** Posts per rolling 24 hours, as the content_publishing_limit reference gives it (other pages say 100 or 25). */
const DAILY_POSTS = 50;
/** Stories are kept apart from the feed's media, as the API lists them. */
const PUBLISHED_KINDS = ['media', 'story'];

const refusals: PublishRefusals = {
  network: N,
  notReady: () =>
    fault(N, [
      400,
      {
        message: 'Media ID is not available',
        code: 9007,
        error_subcode: 2207027,
        error_user_title: 'Media not ready for publishing',
        error_user_msg: 'The media is not ready for publishing, please wait for a moment',
      },
    ]),
  unusable: (state) =>
    fault(N, [
      400,
      {
        message: 'Media ID is not available',
        code: 24,
        error_subcode: 2207008,
        error_user_title: 'Container not usable',
        error_user_msg: `The media container is ${state.toLowerCase()}; create a new one.`,
      },
    ]),
  limitReached: () =>
    fault(N, [
      400,
      {
        message: 'Application request limit reached',
        code: 9,
        error_subcode: 2207042,
        error_user_title: 'Publishing limit reached',
        error_user_msg: `The account has published the maximum of ${DAILY_POSTS} posts through the API in 24 hours.`,
      },
    ]),
};

const badParameter = (message: string, subcode?: number) =>
  fault(N, [400, { message: `(#100) ${message}`, code: 100, ...(subcode ? { error_subcode: subcode } : {}) }]);

/** The words Instagram puts in a container's `status` beside its status_code. */
const STATUS_WORDS: Record<string, string> = {
  IN_PROGRESS: 'In Progress: Media is still being processed.',
  FINISHED: 'Finished: Media has been uploaded and it is ready to be published.',
  PUBLISHED: 'Published: Media has been successfully published.',
  EXPIRED: 'Expired: Media was not published within 24 hours.',
};

/** An image container's file: fetched now; Instagram answers a failure to the creating call. */
async function fetchImage(ctx: SimulatorContext, url: string | undefined): Promise<StoredFile> {
  if (!url) throw badParameter('The parameter image_url is required.');
  const file = await fetchMedia(ctx, N, url, 'image');
  if (typeof file === 'string') {
    throw fault(N, [
      400,
      {
        message: `The media could not be fetched from this uri: ${url}`,
        code: 9004,
        error_subcode: 2207052,
        error_user_title: 'Media download has failed.',
        error_user_msg: `The media could not be fetched from the URI: ${file}. Make sure the address is public.`,
      },
    ]);
  }
  if (file.mime !== 'image/jpeg') {
    throw fault(N, [
      400,
      {
        message: 'The image format is not supported.',
        code: 36001,
        error_subcode: 2207005,
        error_user_title: 'Unsupported image format',
        error_user_msg: `The image is ${file.mime}; only JPEG images can be published.`,
      },
    ]);
  }
  return file;
}

/** A video container's file: a failed fetch does not fail the call; the container ends in ERROR. */
async function fetchVideo(
  ctx: SimulatorContext,
  url: string | undefined,
): Promise<{ files: StoredFile[]; error?: string }> {
  if (!url) throw badParameter('The parameter video_url is required.');
  const file = await fetchMedia(ctx, N, url, 'video');
  return typeof file === 'string'
    ? { files: [], error: `Error: Media download has failed: ${file}. (2207052)` }
    : { files: [file] };
}

async function createContainer(ctx: SimulatorContext, req: Request): Promise<{ id: string }> {
  const account = String(req.params.user);
  await admitPublishingCall(ctx, N, account);
  const p = params(req);
  const isCarouselItem = p.is_carousel_item === 'true';
  const mediaType = p.media_type ?? 'IMAGE';
  const base = {
    mediaType,
    isCarouselItem,
    children: [] as string[],
    extra: {},
    text: isCarouselItem || mediaType === 'STORIES' ? '' : (p.caption ?? ''),
  };
  if (mediaType === 'CAROUSEL') {
    const children = (p.children ?? '').split(',').filter(Boolean);
    const { min, max } = CAROUSEL;
    if (children.length < min || children.length > max)
      throw badParameter(`The carousel must have between ${min} and ${max} children.`, 2207028);
    for (const id of children) {
      const child = await ownContainer(ctx, account, id, () =>
        badParameter(`Carousel child ${id} is not a container of this account.`),
      );
      if (!child.data.isCarouselItem) throw badParameter(`Container ${id} was not created with is_carousel_item=true.`);
    }
    return newContainer(ctx, account, { ...base, children, files: [] });
  }
  if (mediaType === 'VIDEO' && !isCarouselItem)
    throw badParameter(
      'The Media Type VIDEO is no longer supported for single feed video publishing. Please use Media Type REELS.',
    );
  const isVideo = mediaType === 'REELS' || mediaType === 'VIDEO' || (mediaType === 'STORIES' && !p.image_url);
  if (!isVideo && mediaType !== 'IMAGE' && mediaType !== 'STORIES')
    throw badParameter(`Unknown media_type ${mediaType}.`, 2207023);
  if (isVideo) return newContainer(ctx, account, { ...base, ...(await fetchVideo(ctx, p.video_url)) });
  return newContainer(ctx, account, { ...base, files: [await fetchImage(ctx, p.image_url)] });
}

/** A published item as the API's fields show it. */
/** FEED, REELS or STORY, as IG Media's `media_product_type` names the surface a media is on. */
const productType = (item: SandboxItem<PublishedData>) =>
  item.kind === 'story' ? 'STORY' : item.data.mediaType === 'REELS' ? 'REELS' : 'FEED';

/**
 * The metrics each product type has, from
 * https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights (read 2026-11-29).
 */
const MEDIA_METRICS: Record<string, string[]> = {
  FEED: ['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'total_interactions', 'follows', 'profile_visits'],
  REELS: [
    'views',
    'reach',
    'likes',
    'comments',
    'shares',
    'saved',
    'total_interactions',
    'ig_reels_avg_watch_time',
    'ig_reels_video_view_total_time',
  ],
  STORY: ['views', 'reach', 'shares', 'replies', 'navigation', 'follows', 'profile_visits', 'total_interactions'],
};

/** A metric the media's product type does not have, refused as Meta words it (code 100). */
function unsupportedMetric(item: SandboxItem, metrics: string[]): GraphFault | undefined {
  if (!PUBLISHED_KINDS.includes(item.kind)) return undefined;
  const has = MEDIA_METRICS[productType(item as SandboxItem<PublishedData>)]!;
  const missing = metrics.filter((m) => !has.includes(m));
  return missing.length
    ? fault(N, [
        400,
        {
          message:
            `(#100) The Media Insights API does not support the ${missing.join(', ')} metric for this ` +
            'media product type.',
          code: 100,
        },
      ])
    : undefined;
}

function mediaFields(item: SandboxItem<PublishedData>) {
  const video = item.data.page?.files.some((f) => f.kind === 'video');
  const mediaType = item.data.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : video ? 'VIDEO' : 'IMAGE';
  return {
    id: item.id,
    caption: item.data.text || undefined,
    media_type: mediaType,
    media_product_type: productType(item),
    permalink: item.data.permalink,
    timestamp: metaTime(item.publishedMs ?? item.createdAt),
  };
}

async function readObject(ctx: SimulatorContext, req: Request): Promise<object> {
  const id = String(req.params.id);
  const item = await ctx.state.get(id);
  if (item?.kind === 'container') {
    const { state, error } = await containerState(ctx, item as SandboxItem<ContainerData>);
    return pickFields({ id, status_code: state, status: error ?? STATUS_WORDS[state] }, params(req).fields);
  }
  if (item && PUBLISHED_KINDS.includes(item.kind))
    return pickFields(mediaFields(item as SandboxItem<PublishedData>), params(req).fields);
  throw notFoundFault(N, id);
}

export const instagramSimulator: Simulator = {
  consent: instagramConsent,
  router(ctx) {
    const router = graphRouter(ctx, N, 'Instagram');
    const list = (kind: string) =>
      graphRoute(N, async (req) => ({
        data: (await ctx.state.list<PublishedData>(String(req.params.user), kind, Number(params(req).limit) || 25)).map(
          (m) => pickFields(mediaFields(m), params(req).fields),
        ),
      }));
    router.post(
      '/:version/:user/media',
      graphRoute(N, (req) => createContainer(ctx, req)),
    );
    router.get('/:version/:user/media', list('media'));
    router.get('/:version/:user/stories', list('story'));
    router.post(
      '/:version/:user/media_publish',
      graphRoute(N, async (req) => {
        const account = String(req.params.user);
        await admitPublishingCall(ctx, N, account);
        const container = await ownContainer(ctx, account, params(req).creation_id, () =>
          notFoundFault(N, params(req).creation_id ?? ''),
        );
        return publishContainer(ctx, container, {
          kind: container.data.mediaType === 'STORIES' ? 'story' : 'media',
          limitKinds: PUBLISHED_KINDS,
          dailyLimit: DAILY_POSTS,
          permalink: (id) => `${ctx.base}/p/${id}`,
          refusals,
        });
      }),
    );
    router.get(
      '/:version/:user/content_publishing_limit',
      graphRoute(N, async (req) => publishingLimit(ctx, N, String(req.params.user), PUBLISHED_KINDS, DAILY_POSTS)),
    );
    router.get('/:version/:id/insights', itemOrAccountInsights(ctx, N, unsupportedMetric));
    router.get(
      '/:version/:id',
      graphRoute(N, (req) => readObject(ctx, req)),
    );
    return router;
  },
};
