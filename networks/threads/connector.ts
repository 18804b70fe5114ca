// The connector: the Threads API (graph.threads.com), publishing through containers
// (networks/graph/containers.ts). Text posts are created and then published like the others
// (auto_publish_text stays off), so every post has a container to settle by.
import {
  NetworkError,
  type ConnectorContext,
  type ConnectorModule,
  type PublishJob,
  type PublishMedia,
} from '../connector.ts';
import { mediaAddress, type GraphParams } from '../graph/client.ts';
import { containerConnector } from '../graph/containers.ts';

const IMAGE_TYPES = ['image/jpeg', 'image/png'];

/** Threads' `error_message` values (its own spelling) in words; UNKNOWN alone tells a person nothing. */
const PROCESSING_ERRORS: Record<string, string> = {
  FAILED_DOWNLOADING_VIDEO:
    'the video could not be fetched from its address (PUBLIC_URL must be reachable from the internet)',
  FAILED_PROCESSING_AUDIO: 'the audio could not be processed',
  FAILED_PROCESSING_VIDEO: 'the video could not be processed',
  INVALID_ASPEC_RATIO: 'the aspect ratio is not supported',
  INVALID_BIT_RATE: 'the bit rate is too high',
  INVALID_DURATION: 'the duration is not supported',
  INVALID_FRAME_RATE: 'the frame rate is not supported',
  INVALID_AUDIO_CHANNELS: 'the number of audio channels is not supported',
  INVALID_AUDIO_CHANNEL_LAYOUT: 'the audio channel layout is not supported',
  UNKNOWN: "Threads gave no reason; check the file's format and that PUBLIC_URL is reachable from the internet",
};

const mediaParams = async (media: PublishMedia): Promise<GraphParams> =>
  media.kind === 'video'
    ? { media_type: 'VIDEO', video_url: await media.publicUrl() }
    : { media_type: 'IMAGE', image_url: await mediaAddress(media, IMAGE_TYPES) };

async function containerParams(job: PublishJob): Promise<{ post: GraphParams; items: GraphParams[] }> {
  const post = { text: job.text || undefined, topic_tag: job.settings.topicTag as string | undefined };
  if (job.media.length === 0)
    return {
      post: { media_type: 'TEXT', ...post, link_attachment: job.settings.link as string | undefined },
      items: [],
    };
  if (job.media.length === 1) return { post: { ...(await mediaParams(job.media[0]!)), ...post }, items: [] };
  return { post: { media_type: 'CAROUSEL', ...post }, items: await Promise.all(job.media.map(mediaParams)) };
}

export const threadsConnectorModule: ConnectorModule = {
  create: (ctx: ConnectorContext) =>
    containerConnector(
      {
        platform: 'threads',
        label: 'Threads',
        clock: ctx.clock,
        api: `${ctx.hosts.graph}/v1.0`,
        edges: { create: 'threads', publish: 'threads_publish', limit: 'threads_publishing_limit' },
        statusFields: 'id,status,error_message',
        status: (answer) => ({ state: answer.status, detail: answer.error_message }),
        containerParams,
        caption: (job) => job.text,
        recent: () => ({ edge: 'threads', textField: 'text' }),
        processingError(status) {
          const code = status.detail ?? 'UNKNOWN';
          const meaning = PROCESSING_ERRORS[code];
          return new NetworkError(
            'threads',
            'rejected',
            `Threads could not process the media: ${code}${meaning ? ` (${meaning})` : ''}.`,
          );
        },
        // Unrefreshed for 60 days a token is dead for good; refreshing needs it at least a day old.
        refreshGrant: 'th_refresh_token',
        postMetrics: 'views,likes,replies,reposts,quotes,shares',
        accountInsights: {
          edge: 'threads_insights',
          params: { metric: 'views,likes,replies,reposts,quotes,followers_count' },
        },
      },
      `${ctx.hosts.graph}/refresh_access_token`,
    ),
  // "The Threads API can be accessed by either graph.threads.com or graph.threads.net"; Meta's current pages
  // name threads.com (https://developers.facebook.com/docs/threads/reference, read 2026-11-29).
  liveHosts: { graph: 'https://graph.threads.com' },
  sandboxHosts: (base) => ({ graph: base }),
  // A Meta app with the Threads use case has two ids; the Threads API takes the Threads app's
  // (https://developers.facebook.com/docs/threads/get-started, read 2026-11-29).
  clientEnv: {
    id: 'THREADS_CLIENT_ID',
    secret: 'THREADS_CLIENT_SECRET',
    what: "the Threads app id and secret (App settings > Basic > Threads App ID), not the Meta app's",
  },
};
