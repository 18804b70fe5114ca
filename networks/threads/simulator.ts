// The Threads API as the sandbox simulates it (graph.threads.com, /v1.0 paths): TEXT, IMAGE, VIDEO and
// CAROUSEL containers with topic_tag and link_attachment; threads_publish; threads_publishing_limit;
// the account's threads; insights; token refresh. Files are fetched while the container is created;
// a failure shows as the container's ERROR with Threads' error_message codes.
import type { Request } from 'express';
import type { Simulator, SimulatorContext } from '../sandbox/simulator.ts';
import { fetchMedia } from '../sandbox/files.ts';
import { graphRoute, graphRouter, insightsAnswer, metaTime, pickFields } from '../sandbox/graph.ts';
import { admitPublishingCall, fault, notFoundFault } from '../sandbox/graphFaults.ts';
import { refreshedLongLivedToken } from '../sandbox/graphTokens.ts';
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
import { threadsConsent } from './consent.ts';

const N = 'threads';
/** Threads' own limits (https://developers.facebook.com/docs/threads/posts): topic tags and carousel children. */
const LIMITS = { topicTagChars: 50, carousel: { min: 2, max: 20 } };
const DAILY_POSTS = 250;
const POST = 'post';

const refusals: PublishRefusals = {
  network: N,
  // What Threads answers a publish call that comes before the container is ready.
  notReady: () =>
    fault(N, [
      400,
      {
        message: 'Media Not Found',
        code: 24,
        error_subcode: 4279009,
        error_user_title: 'Media Not Found',
        error_user_msg: 'The media container is not ready to be published yet.',
      },
    ]),
  unusable: (state) =>
    fault(N, [
      400,
      {
        message: 'Invalid parameter',
        code: 100,
        error_user_title: 'Container not usable',
        error_user_msg: `The media container is ${state.toLowerCase()} and cannot be published.`,
      },
    ]),
  limitReached: () =>
    fault(N, [
      400,
      {
        message: 'Application request limit reached',
        code: 4,
        error_user_title: 'Publishing limit reached',
        error_user_msg: `The profile has published ${DAILY_POSTS} posts through the API in 24 hours.`,
      },
    ]),
};

const badParameter = (message: string) =>
  fault(N, [400, { message: 'Invalid parameter', code: 100, error_user_msg: message }]);

/** A container's file, fetched now; what fails shows later as the container's error_message. */
async function fetchFile(
  ctx: SimulatorContext,
  kind: 'image' | 'video',
  url: string | undefined,
): Promise<Pick<ContainerData, 'files' | 'error'>> {
  if (!url) throw badParameter(`${kind}_url is required for media_type ${kind.toUpperCase()}.`);
  const file = await fetchMedia(ctx, N, url, kind);
  if (typeof file === 'string') return { files: [], error: kind === 'video' ? 'FAILED_DOWNLOADING_VIDEO' : 'UNKNOWN' };
  // Threads takes JPEG and PNG images; anything else fails processing without a reason.
  if (kind === 'image' && !['image/jpeg', 'image/png'].includes(file.mime)) return { files: [file], error: 'UNKNOWN' };
  return { files: [file] };
}

async function createContainer(ctx: SimulatorContext, req: Request): Promise<{ id: string }> {
  const account = String(req.params.user);
  await admitPublishingCall(ctx, N, account);
  const p = params(req);
  const mediaType = p.media_type ?? '';
  const isCarouselItem = p.is_carousel_item === 'true';
  const topic = p.topic_tag;
  if (topic !== undefined && (topic.length < 1 || topic.length > LIMITS.topicTagChars || /[.&]/.test(topic))) {
    throw badParameter('topic_tag must be 1 to 50 characters without periods or ampersands.');
  }
  if (p.link_attachment && mediaType !== 'TEXT') throw badParameter('link_attachment is only available on TEXT posts.');
  const extra = Object.fromEntries(
    Object.entries({ topic_tag: topic, link_attachment: p.link_attachment }).filter(([, v]) => v),
  ) as Record<string, string>;
  const base = {
    mediaType,
    isCarouselItem,
    text: isCarouselItem ? '' : (p.text ?? ''),
    extra,
    children: [] as string[],
  };
  if (mediaType === 'TEXT') {
    if (!p.text && !p.link_attachment) throw badParameter('text is required for media_type TEXT.');
    return newContainer(ctx, account, { ...base, files: [] });
  }
  if (mediaType === 'IMAGE' || mediaType === 'VIDEO')
    return newContainer(ctx, account, {
      ...base,
      ...(await fetchFile(ctx, mediaType === 'IMAGE' ? 'image' : 'video', p[`${mediaType.toLowerCase()}_url`])),
    });
  if (mediaType !== 'CAROUSEL') throw badParameter('media_type must be TEXT, IMAGE, VIDEO or CAROUSEL.');
  const children = (p.children ?? '').split(',').filter(Boolean);
  const { min, max } = LIMITS.carousel;
  if (children.length < min || children.length > max)
    throw badParameter(`A carousel needs ${min} to ${max} children; ${children.length} were given.`);
  for (const id of children) {
    const child = await ownContainer(ctx, account, id, () =>
      badParameter(`Carousel child ${id} is not a container of this profile.`),
    );
    if (!child.data.isCarouselItem) throw badParameter(`Container ${id} was not created with is_carousel_item=true.`);
  }
  return newContainer(ctx, account, { ...base, children, files: [] });
}

const SHOWN_TYPES: Record<string, string> = {
  TEXT: 'TEXT_POST',
  IMAGE: 'IMAGE',
  VIDEO: 'VIDEO',
  CAROUSEL: 'CAROUSEL_ALBUM',
};

function postFields(item: SandboxItem<PublishedData>) {
  return {
    id: item.id,
    text: item.data.text || undefined,
    media_type: SHOWN_TYPES[item.data.mediaType],
    permalink: item.data.permalink,
    timestamp: metaTime(item.publishedMs ?? item.createdAt),
    topic_tag: item.data.extra.topic_tag,
    link_attachment_url: item.data.extra.link_attachment,
  };
}

async function readObject(ctx: SimulatorContext, req: Request): Promise<object> {
  const id = String(req.params.id);
  const item = await ctx.state.get(id);
  if (item?.kind === 'container') {
    const { state, error } = await containerState(ctx, item as SandboxItem<ContainerData>);
    return pickFields({ id, status: state, error_message: error }, params(req).fields);
  }
  if (item?.kind === POST) return pickFields(postFields(item as SandboxItem<PublishedData>), params(req).fields);
  throw notFoundFault(N, id);
}

export const threadsSimulator: Simulator = {
  consent: threadsConsent,
  router(ctx) {
    const router = graphRouter(ctx, N, 'Threads');
    router.get(
      '/refresh_access_token',
      graphRoute(N, (req) => refreshedLongLivedToken(ctx, req, 'th_refresh_token')),
    );
    router.post(
      '/:version/:user/threads',
      graphRoute(N, (req) => createContainer(ctx, req)),
    );
    router.get(
      '/:version/:user/threads',
      graphRoute(N, async (req) => ({
        data: (await ctx.state.list<PublishedData>(String(req.params.user), POST, Number(params(req).limit) || 25)).map(
          (t) => pickFields(postFields(t), params(req).fields),
        ),
      })),
    );
    router.post(
      '/:version/:user/threads_publish',
      graphRoute(N, async (req) => {
        const account = String(req.params.user);
        await admitPublishingCall(ctx, N, account);
        const container = await ownContainer(ctx, account, params(req).creation_id, () =>
          notFoundFault(N, params(req).creation_id ?? ''),
        );
        return publishContainer(ctx, container, {
          kind: POST,
          limitKinds: [POST],
          dailyLimit: DAILY_POSTS,
          permalink: (id) => `${ctx.base}/p/${id}`,
          refusals,
        });
      }),
    );
    router.get(
      '/:version/:user/threads_publishing_limit',
      graphRoute(N, async (req) => publishingLimit(ctx, N, String(req.params.user), [POST], DAILY_POSTS)),
    );
    router.get(
      '/:version/:user/threads_insights',
      graphRoute(N, async (req) => insightsAnswer(String(req.params.user), params(req).metric, 'day')),
    );
    router.get(
      '/:version/:id/insights',
      graphRoute(N, async (req) => insightsAnswer(String(req.params.id), params(req).metric)),
    );
    router.get(
      '/:version/:id',
      graphRoute(N, (req) => readObject(ctx, req)),
    );
    return router;
  },
};
