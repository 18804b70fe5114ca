// Instagram Graph API content publishing (business and creator accounts): limits and checks.
import { codePoints, hashtags, mentions } from '../../domain/textUnits.ts';
import type { Issue } from '../../domain/issues.ts';
import {
  aspect,
  checkCarousel,
  checkChoice,
  checkImageSize,
  checkVideoDuration,
  checkVideoSize,
  COUNT_PAST_LIMIT,
  counted,
  issue,
  type MediaFacts,
  type NetworkRules,
  type PostContent,
} from '../rules.ts';

const MB = 1024 * 1024;

export const instagramLimits = {
  captionChars: 2200,
  hashtags: 30,
  mentions: 20,
  carousel: { min: 2, max: 10 },
  imageMaxBytes: 8 * MB,
  /** Feed images: from 4:5 (portrait) to 1.91:1 (landscape). */
  feedAspect: { min: 4 / 5, max: 1.91 },
  reel: { minSeconds: 3, maxSeconds: 15 * 60, maxBytes: 300 * MB },
  /** A video up to this length counts as a reel in the feed. */
  reelFeedSeconds: 90,
  storyVideo: { minSeconds: 3, maxSeconds: 60, maxBytes: 100 * MB },
  contentTypes: ['feed', 'reel', 'story', 'carousel'] as const,
};

/** The content type from the settings, or from the media: one image is feed, one video a reel, several a carousel. */
export function instagramContentType(
  post: Pick<PostContent, 'settings'> & { media: readonly { kind: MediaFacts['kind'] }[] },
): string {
  const given = post.settings.contentType;
  if (typeof given === 'string') return given;
  if (post.media.length > 1) return 'carousel';
  return post.media[0]?.kind === 'video' ? 'reel' : 'feed';
}

function checkFeedImage(media: MediaFacts, field: string): Issue[] {
  const found: Issue[] = [];
  const ratio = aspect(media);
  const { min, max } = instagramLimits.feedAspect;
  // Exact bounds: 1080×1350 is 4:5 and passes, 1080×1351 is narrower and is refused by Instagram.
  if (ratio !== undefined && (ratio < min || ratio > max)) {
    found.push(
      issue(
        'aspect_unsupported',
        `${field} is ${media.width}×${media.height} (${ratio.toFixed(2)}:1); instagram feed images must be ` +
          `between 4:5 and 1.91:1.`,
        'Crop the image to between 4:5 (portrait) and 1.91:1 (landscape).',
        { field, actual: `${media.width}×${media.height}` },
      ),
    );
  }
  const size = checkImageSize(media, field, instagramLimits.imageMaxBytes, 'instagram');
  if (size) found.push(size);
  return found;
}

function checkReel(media: MediaFacts, field: string): Issue[] {
  const found: Issue[] = [];
  const { minSeconds, maxSeconds, maxBytes } = instagramLimits.reel;
  const duration = checkVideoDuration(media, field, minSeconds, maxSeconds, 'an instagram reel');
  if (duration) found.push(duration);
  const size = checkVideoSize(media, field, maxBytes, 'an instagram reel');
  if (size) found.push(size);
  return found;
}

function check(post: PostContent): Issue[] {
  const issues: Issue[] = [];
  const choice = checkChoice(post.settings, 'instagram', 'contentType', instagramLimits.contentTypes);
  if (choice) return [choice];
  const type = instagramContentType(post);
  if (type === 'story') {
    if (post.text.trim())
      issues.push(
        issue(
          'caption_too_long',
          'text is set, but an instagram story carries no text.',
          'Set overrides.instagram.text to "" or choose another contentType.',
          { field: 'text', limit: 0, actual: codePoints(post.text) },
        ),
      );
  } else {
    const chars = codePoints(post.text);
    if (chars > instagramLimits.captionChars) {
      issues.push(
        issue(
          'caption_too_long',
          `text is ${chars} characters; an instagram caption allows ${instagramLimits.captionChars}.`,
          'Shorten the text, or set overrides.instagram.text.',
          { field: 'text', limit: instagramLimits.captionChars, actual: chars },
        ),
      );
    }
    const tags = hashtags(post.text, COUNT_PAST_LIMIT * instagramLimits.hashtags).length;
    if (tags > instagramLimits.hashtags) {
      issues.push(
        issue(
          'hashtags_too_many',
          `text has ${counted(tags, instagramLimits.hashtags)} hashtags; instagram allows ${instagramLimits.hashtags}.`,
          'Remove some hashtags.',
          { field: 'text', limit: instagramLimits.hashtags, actual: tags },
        ),
      );
    }
    const named = mentions(post.text, COUNT_PAST_LIMIT * instagramLimits.mentions).length;
    if (named > instagramLimits.mentions) {
      issues.push(
        issue(
          'mentions_too_many',
          `text has ${counted(named, instagramLimits.mentions)} @ mentions; instagram allows ` +
            `${instagramLimits.mentions}.`,
          'Remove some mentions.',
          { field: 'text', limit: instagramLimits.mentions, actual: named },
        ),
      );
    }
  }
  if (post.media.length === 0) {
    issues.push(
      issue(
        'media_kind',
        'mediaIds is empty; instagram needs an image or a video.',
        'Upload a file and give its mediaId.',
        { field: 'mediaIds', actual: 0 },
      ),
    );
    return issues;
  }
  if (type === 'carousel') {
    const count = checkCarousel(
      post.media.length,
      instagramLimits.carousel.min,
      instagramLimits.carousel.max,
      'instagram',
    );
    if (count) issues.push(count);
    post.media.forEach((m, i) =>
      issues.push(...(m.kind === 'video' ? checkReel(m, `mediaIds[${i}]`) : checkFeedImage(m, `mediaIds[${i}]`))),
    );
    return issues;
  }
  if (post.media.length > 1) {
    issues.push(
      issue(
        'media_kind',
        `mediaIds holds ${post.media.length} files; an instagram ${type} takes one.`,
        'Give one file, or set perPlatform.instagram.contentType to carousel.',
        { field: 'mediaIds', limit: 1, actual: post.media.length },
      ),
    );
    return issues;
  }
  const media = post.media[0]!;
  if (type === 'reel' && media.kind === 'image') {
    issues.push(
      issue(
        'media_kind',
        'mediaIds[0] is an image; an instagram reel needs a video.',
        'Give a video, or set perPlatform.instagram.contentType to feed.',
        { field: 'mediaIds[0]', limit: 'video', actual: 'image' },
      ),
    );
  } else if (type === 'feed') {
    issues.push(...(media.kind === 'video' ? checkReel(media, 'mediaIds[0]') : checkFeedImage(media, 'mediaIds[0]')));
  } else if (type === 'reel') {
    issues.push(...checkReel(media, 'mediaIds[0]'));
  } else if (media.kind === 'video') {
    const { minSeconds, maxSeconds } = instagramLimits.storyVideo;
    const duration = checkVideoDuration(
      media,
      'mediaIds[0]',
      minSeconds,
      maxSeconds,
      'an instagram story',
      'story_too_long',
    );
    if (duration) issues.push(duration);
  } else {
    const size = checkImageSize(media, 'mediaIds[0]', instagramLimits.imageMaxBytes, 'instagram');
    if (size) issues.push(size);
  }
  return issues;
}

export const instagramRules: NetworkRules = {
  platform: 'instagram',
  label: 'Instagram',
  available: true,
  textLimits: [{ field: 'text', unit: 'codePoints', max: instagramLimits.captionChars }],
  choices: { contentType: instagramLimits.contentTypes },
  check,
  defaults: (post) => (post.media.length ? { contentType: instagramContentType(post) } : {}),
};
