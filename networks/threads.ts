// Threads API: limits and checks. Text is 500 units where each emoji costs its UTF-8 bytes; at most
// 5 unique links; one topic tag per post.
import { codePoints, hashtags, linkKey, links, threadsUnits } from '../domain/textUnits.ts';
import type { Issue } from '../domain/issues.ts';
import { NetworkError, type Connector, type ConnectorContext, type PublishJob } from './connector.ts';
import type { ConnectorModule } from './connectors.ts';
import { assertPublishingQuota, graphClient, insightValues, mediaAddress, refreshLongLivedToken, type GraphParams } from './graph.ts';
import { publishWithContainer, settleContainer, type ContainerNetwork, type ContainerStatus } from './graphContainers.ts';
import { aspect, checkCarousel, checkImageSize, checkVideoDuration, issue, sizeTexts, type NetworkRules, type PostContent } from './rules.ts';

const MB = 1024 * 1024;

export const threadsLimits = {
  textUnits: 500,
  uniqueLinks: 5,
  carousel: { min: 2, max: 20 },
  imageMaxBytes: 8 * MB,
  imageMaxAspect: 10,
  videoMaxSeconds: 5 * 60,
  videoMaxBytes: 1024 * MB,
  topicTagChars: 50,
};

function check(post: PostContent): Issue[] {
  const issues: Issue[] = [];
  const units = threadsUnits(post.text);
  if (units > threadsLimits.textUnits) {
    issues.push(issue('caption_too_long', `text counts ${units} on threads (each emoji counts its UTF-8 bytes); threads allows ${threadsLimits.textUnits}.`,
      'Shorten the text, or set overrides.threads.text.'));
  }
  const uniqueLinks = new Set(links(post.text).map(linkKey));
  if (uniqueLinks.size > threadsLimits.uniqueLinks) {
    issues.push(issue('links_too_many', `text has ${uniqueLinks.size} different links; threads allows ${threadsLimits.uniqueLinks}.`, 'Remove some links.'));
  }
  const topic = post.settings.topicTag;
  if (topic !== undefined) {
    const text = String(topic);
    if (typeof topic !== 'string' || codePoints(text) < 1 || codePoints(text) > threadsLimits.topicTagChars || /[.&]/.test(text)) {
      issues.push(issue('setting_invalid', `perPlatform.threads.topicTag "${text}" must be 1 to 50 characters without . or &.`, 'Pick a shorter topic without . or &.'));
    }
  }
  const topics = (topic === undefined ? 0 : 1) + hashtags(post.text).length;
  if (topics > 1) {
    issues.push(issue('topic_tags_too_many', `the post has ${topics} topics (perPlatform.threads.topicTag and #tags in text); threads allows one per post.`,
      'Keep a single topic: either perPlatform.threads.topicTag or one #tag in the text.'));
  }
  if (post.media.length > 1) {
    const count = checkCarousel(post.media.length, threadsLimits.carousel.min, threadsLimits.carousel.max, 'threads');
    if (count) issues.push(count);
  }
  if (post.media.length === 0 && !post.text.trim()) {
    issues.push(issue('text_required', 'text is empty and there is no file; a threads post needs one of them.', 'Write the text or add a file.'));
  }
  post.media.forEach((media, i) => {
    const field = `mediaIds[${i}]`;
    if (media.kind === 'video') {
      const duration = checkVideoDuration(media, field, 0, threadsLimits.videoMaxSeconds, 'threads');
      if (duration) issues.push(duration);
      if (media.size > threadsLimits.videoMaxBytes) {
        const [size, limit] = sizeTexts(media.size, threadsLimits.videoMaxBytes);
        issues.push(issue('video_too_large', `${field} is ${size}; threads accepts videos up to ${limit}.`, 'Export the video with a lower bitrate.'));
      }
    } else {
      const size = checkImageSize(media, field, threadsLimits.imageMaxBytes, 'threads');
      if (size) issues.push(size);
      const ratio = aspect(media);
      if (ratio !== undefined && Math.max(ratio, 1 / ratio) > threadsLimits.imageMaxAspect) {
        issues.push(issue('aspect_unsupported', `${field} is ${media.width}×${media.height}; threads accepts images up to 10:1.`, 'Crop the image.'));
      }
    }
  });
  return issues;
}

export const threads: NetworkRules = { platform: 'threads', label: 'Threads', available: true, check };

// The connector: the Threads API (graph.threads.net), publishing through containers
// (networks/graphContainers.ts). Text posts are created and then published like the others
// (auto_publish_text stays off), so every post has a container to settle by.

const VERSION = 'v1.0';
const IMAGE_TYPES = ['image/jpeg', 'image/png'];
const CREATE_TIMEOUT_MS = 180_000;

/** Threads' `error_message` values (its own spelling) in words; UNKNOWN alone tells a person nothing. */
const PROCESSING_ERRORS: Record<string, string> = {
  FAILED_DOWNLOADING_VIDEO: 'the video could not be fetched from its address (PUBLIC_URL must be reachable from the internet)',
  FAILED_PROCESSING_AUDIO: 'the audio could not be processed',
  FAILED_PROCESSING_VIDEO: 'the video could not be processed',
  INVALID_ASPEC_RATIO: 'the aspect ratio is not supported',
  INVALID_BIT_RATE: 'the bit rate is too high',
  INVALID_DURATION: 'the duration is not supported',
  INVALID_FRAME_RATE: 'the frame rate is not supported',
  INVALID_AUDIO_CHANNELS: 'the number of audio channels is not supported',
  INVALID_AUDIO_CHANNEL_LAYOUT: 'the audio channel layout is not supported',
  UNKNOWN: 'Threads gave no reason; check the file\'s format and that PUBLIC_URL is reachable from the internet',
};

function createThreadsConnector(ctx: ConnectorContext): Connector {
  const graph = graphClient(ctx, 'threads', 'Threads');
  const api = (path: string) => `${ctx.hosts.graph}/${VERSION}/${path}`;
  const token = (job: PublishJob) => job.account.credentials.accessToken;

  async function createContainer(job: PublishJob, params: GraphParams): Promise<string> {
    const { id } = await graph<{ id: string }>({ method: 'POST', url: api(`${job.account.externalId}/threads`), token: token(job), params, timeoutMs: CREATE_TIMEOUT_MS });
    return id;
  }

  const itemParams = async (media: PublishJob['media'][number]): Promise<GraphParams> => (media.kind === 'video'
    ? { media_type: 'VIDEO', video_url: await media.publicUrl() }
    : { media_type: 'IMAGE', image_url: await mediaAddress(media, IMAGE_TYPES) });

  const network: ContainerNetwork = {
    platform: 'threads',
    label: 'Threads',
    async createContainer(job, ready) {
      const post = { text: job.text || undefined, topic_tag: job.settings.topicTag as string | undefined };
      if (job.media.length === 0) return createContainer(job, { media_type: 'TEXT', ...post, link_attachment: job.settings.link as string | undefined });
      if (job.media.length === 1) return createContainer(job, { ...(await itemParams(job.media[0]!)), ...post });
      const items: string[] = [];
      for (const media of job.media) items.push(await createContainer(job, { ...(await itemParams(media)), is_carousel_item: true }));
      for (const item of items) await ready(item);
      return createContainer(job, { media_type: 'CAROUSEL', children: items.join(','), ...post });
    },
    async status(job, containerId) {
      const body = await graph<{ status: ContainerStatus['state']; error_message?: string }>({ url: api(containerId), token: token(job), params: { fields: 'id,status,error_message' } });
      return { state: body.status, detail: body.error_message };
    },
    assertQuota: (job) => assertPublishingQuota(graph, { url: api(`${job.account.externalId}/threads_publishing_limit`), token: token(job) }, 'threads', 'Threads'),
    async publishContainer(job, containerId) {
      const { id } = await graph<{ id: string }>({ method: 'POST', url: api(`${job.account.externalId}/threads_publish`), token: token(job), params: { creation_id: containerId } });
      return id;
    },
    async permalink(job, mediaId) {
      const { permalink } = await graph<{ permalink: string }>({ url: api(mediaId), token: token(job), params: { fields: 'permalink' } });
      return permalink;
    },
    caption: (job) => job.text,
    async recentPosts(job) {
      const body = await graph<{ data: { id: string; text?: string; timestamp: string; permalink?: string }[] }>({
        url: api(`${job.account.externalId}/threads`), token: token(job), params: { fields: 'id,text,timestamp,permalink', limit: 25 },
      });
      return body.data.map((m) => ({ id: m.id, text: m.text ?? '', time: m.timestamp, url: m.permalink }));
    },
    processingError(status) {
      const code = status.detail ?? 'UNKNOWN';
      const meaning = PROCESSING_ERRORS[code];
      return new NetworkError('threads', 'rejected', `Threads could not process the media: ${code}${meaning ? ` (${meaning})` : ''}.`);
    },
  };

  return {
    platform: 'threads',
    publish: (job) => publishWithContainer(network, job),
    settle: (job) => settleContainer(network, job),
    refresh: (account) => refreshLongLivedToken(graph, `${ctx.hosts.graph}/refresh_access_token`, 'th_refresh_token', account, 'threads', 'Threads'),
    async postInsights(account, mediaId) {
      return insightValues(await graph({ url: api(`${mediaId}/insights`), token: account.credentials.accessToken, params: { metric: 'views,likes,replies,reposts,quotes,shares' } }));
    },
    async accountInsights(account) {
      return insightValues(await graph({ url: api(`${account.externalId}/threads_insights`), token: account.credentials.accessToken,
        params: { metric: 'views,likes,replies,reposts,quotes,followers_count' } }));
    },
  };
}

export const threadsConnector: ConnectorModule = {
  create: createThreadsConnector,
  liveHosts: { graph: 'https://graph.threads.net' },
  sandboxHosts: (base) => ({ graph: base }),
  clientEnv: { id: 'THREADS_CLIENT_ID', secret: 'THREADS_CLIENT_SECRET' },
};
