// The connector: Instagram content publishing through containers (networks/graph/containers.ts), on
// graph.facebook.com: accounts are connected through Facebook Login and their Page (connect.ts),
// whose Page tokens work there and do not expire.
import {
  NetworkError,
  type ConnectorContext,
  type ConnectorModule,
  type PublishJob,
  type PublishMedia,
} from '../connector.ts';
import { graphFailureKind, mediaAddress, type GraphParams } from '../graph/client.ts';
import { containerConnector } from '../graph/containers.ts';
import { META_FIELDS } from '../graph/fields.ts';
import { instagramContentType } from './rules.ts';

/** Instagram takes JPEG only; other images go as a JPEG copy. */
const IMAGE_TYPES = ['image/jpeg'];

/** What the subcode in an ERROR container's `status` means (Meta's error codes page): never a bare number. */
const PROCESSING_SUBCODES: Record<number, string> = {
  2207001: "a server error on Instagram's side",
  2207003: 'downloading the file took too long',
  2207004: 'the image is larger than 8 MiB',
  2207005: 'the image format is not supported',
  2207009: 'the aspect ratio is not supported',
  2207026: 'the video format is not supported',
  2207032: "the upload failed on Instagram's side",
  2207052: 'the file could not be fetched from its address (PUBLIC_URL must be reachable from the internet)',
  2207053: "an upload error on Instagram's side",
};

const fileParams = async (media: PublishMedia): Promise<GraphParams> =>
  media.kind === 'video'
    ? { video_url: await media.publicUrl() }
    : { image_url: await mediaAddress(media, IMAGE_TYPES) };

async function containerParams(job: PublishJob): Promise<{ post: GraphParams; items: GraphParams[] }> {
  const type = instagramContentType(job);
  const caption = job.text || undefined;
  if (type === 'carousel') {
    const items = await Promise.all(
      job.media.map(async (m) => ({
        ...(m.kind === 'video' ? { media_type: 'VIDEO' } : {}),
        ...(await fileParams(m)),
      })),
    );
    return { post: { media_type: 'CAROUSEL', caption }, items };
  }
  const media = job.media[0];
  if (!media)
    throw new NetworkError(
      'instagram',
      'rejected',
      'An Instagram post needs an image or a video; this one has no file.',
    );
  const file = await fileParams(media);
  // Stories carry no caption; every single video is a reel since July 2023.
  if (type === 'story') return { post: { media_type: 'STORIES', ...file }, items: [] };
  return { post: { ...(media.kind === 'video' ? { media_type: 'REELS' } : {}), ...file, caption }, items: [] };
}

const isStory = (job: PublishJob) => instagramContentType(job) === 'story';

export const instagramConnectorModule: ConnectorModule = {
  create: (ctx: ConnectorContext) =>
    containerConnector(
      {
        platform: 'instagram',
        label: 'Instagram',
        clock: ctx.clock,
        api: `${ctx.hosts.graph}/v25.0`,
        edges: { create: 'media', publish: 'media_publish', limit: 'content_publishing_limit' },
        statusFields: META_FIELDS.ShadowIGMediaBuilder,
        status: (answer) => ({ state: answer.status_code, detail: answer.status }),
        containerParams,
        caption: (job) => (isStory(job) ? '' : job.text),
        // Stories are not listed among the account's media, only under its stories.
        recent: (job) => ({ edge: isStory(job) ? 'stories' : 'media', textField: 'caption' }),
        processingError(status) {
          const subcode = Number(/\b(2207\d{3})\b/.exec(status.detail ?? '')?.[1]) || undefined;
          const meaning = subcode ? PROCESSING_SUBCODES[subcode] : undefined;
          return new NetworkError(
            'instagram',
            subcode ? graphFailureKind({ error_subcode: subcode }) : 'rejected',
            `Instagram could not process the media: "${status.detail ?? 'ERROR'}"${meaning ? ` (${meaning})` : ''}.`,
          );
        },
        // No refresh: accounts connect through Facebook Login and hold their Page's token, which does not
        // expire. ig_refresh_token belongs to Instagram Login's tokens on graph.instagram.com
        // (https://developers.facebook.com/docs/instagram-platform/reference/refresh_access_token, read 2026-11-29),
        // which Herald does not use.
        // Each product type has metrics of its own; asking a story for likes is refused (code 100):
        // https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights (read 2026-11-29).
        postMetrics: {
          field: META_FIELDS.IGMediaKind,
          byKind: {
            FEED: 'views,reach,likes,comments,shares,saved',
            REELS: 'views,reach,likes,comments,shares,saved,ig_reels_avg_watch_time',
            STORY: 'views,reach,shares,replies,navigation',
          },
        },
        accountInsights: {
          edge: 'insights',
          params: {
            metric: 'views,reach,accounts_engaged,total_interactions',
            period: 'day',
            metric_type: 'total_value',
          },
        },
      },
      `${ctx.hosts.graph}/refresh_access_token`,
    ),
  liveHosts: { graph: 'https://graph.facebook.com' },
  sandboxHosts: (base) => ({ graph: base }),
  clientEnv: { id: 'INSTAGRAM_CLIENT_ID', secret: 'INSTAGRAM_CLIENT_SECRET' },
};
