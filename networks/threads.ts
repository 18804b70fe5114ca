// Threads API: limits and checks. Text is 500 units where each emoji costs its UTF-8 bytes; at most
// 5 unique links, an attached link (text posts only) included; one topic tag per post.
import { codePoints, hashtags, linkKey, links, threadsUnits } from '../domain/textUnits.ts';
import type { Issue } from '../domain/issues.ts';
import { NetworkError, type ConnectorContext, type PublishJob, type PublishMedia } from './connector.ts';
import type { ConnectorModule } from './connectors.ts';
import { graphClient, mediaAddress, type GraphParams } from './graph.ts';
import { containerConnector } from './graphContainers.ts';
import { aspect, checkCarousel, checkImageSize, checkLink, checkVideoDuration, issue, sizeTexts, type NetworkRules, type PostContent } from './rules.ts';

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
  const link = post.settings.link;
  const badLink = checkLink(post.settings, 'threads');
  if (badLink) issues.push(badLink);
  if (link !== undefined && post.media.length) {
    issues.push(issue('setting_invalid', `perPlatform.threads.link is set, but threads attaches a link to text posts only and mediaIds holds ${post.media.length} file${post.media.length === 1 ? '' : 's'}.`,
      'Remove the files, or write the address in the text and leave perPlatform.threads.link out.'));
  }
  // Threads counts the attached link with the text's links, the same address once.
  const uniqueLinks = new Set([...links(post.text), ...(typeof link === 'string' ? [link] : [])].map(linkKey));
  if (uniqueLinks.size > threadsLimits.uniqueLinks) {
    const where = link === undefined ? 'text has' : 'text and perPlatform.threads.link have';
    issues.push(issue('links_too_many', `${where} ${uniqueLinks.size} different links; threads allows ${threadsLimits.uniqueLinks}.`, 'Remove some links.'));
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

export const threads: NetworkRules = { platform: 'threads', label: 'Threads', available: true,
  textLimits: [{ field: 'text', unit: 'threadsUnits', max: threadsLimits.textUnits }], check };

// The connector: the Threads API (graph.threads.net), publishing through containers
// (networks/graphContainers.ts). Text posts are created and then published like the others
// (auto_publish_text stays off), so every post has a container to settle by.

const IMAGE_TYPES = ['image/jpeg', 'image/png'];

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

const mediaParams = async (media: PublishMedia): Promise<GraphParams> => (media.kind === 'video'
  ? { media_type: 'VIDEO', video_url: await media.publicUrl() }
  : { media_type: 'IMAGE', image_url: await mediaAddress(media, IMAGE_TYPES) });

async function containerParams(job: PublishJob): Promise<{ post: GraphParams; items: GraphParams[] }> {
  const post = { text: job.text || undefined, topic_tag: job.settings.topicTag as string | undefined };
  if (job.media.length === 0) return { post: { media_type: 'TEXT', ...post, link_attachment: job.settings.link as string | undefined }, items: [] };
  if (job.media.length === 1) return { post: { ...(await mediaParams(job.media[0]!)), ...post }, items: [] };
  return { post: { media_type: 'CAROUSEL', ...post }, items: await Promise.all(job.media.map(mediaParams)) };
}

export const threadsConnector: ConnectorModule = {
  create: (ctx: ConnectorContext) => containerConnector({
    platform: 'threads',
    label: 'Threads',
    graph: graphClient(ctx, 'threads', 'Threads'),
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
      return new NetworkError('threads', 'rejected', `Threads could not process the media: ${code}${meaning ? ` (${meaning})` : ''}.`);
    },
    // Unrefreshed for 60 days a token is dead for good; refreshing needs it at least a day old.
    refreshGrant: 'th_refresh_token',
    postMetrics: 'views,likes,replies,reposts,quotes,shares',
    accountInsights: { edge: 'threads_insights', params: { metric: 'views,likes,replies,reposts,quotes,followers_count' } },
  }, `${ctx.hosts.graph}/refresh_access_token`),
  liveHosts: { graph: 'https://graph.threads.net' },
  sandboxHosts: (base) => ({ graph: base }),
  clientEnv: { id: 'THREADS_CLIENT_ID', secret: 'THREADS_CLIENT_SECRET' },
};
