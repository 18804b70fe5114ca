// Facebook Pages (feed, photos, videos, reels, stories): limits and checks. The Pages API documents
// no message length, so none is enforced here.
import type { Issue } from '../../domain/issues.ts';
import { codePoints } from '../../domain/textUnits.ts';
import {
  aspect,
  checkCarousel,
  checkChoice,
  checkImageSize,
  checkLink,
  checkVideoDuration,
  issue,
  type MediaFacts,
  type NetworkRules,
  type PostContent,
} from '../rules.ts';

const MB = 1024 * 1024;

export const facebookLimits = {
  photos: { min: 1, max: 10 },
  reel: { minSeconds: 3, maxSeconds: 90, aspect: 9 / 16 },
  /** API-published reels per Page per rolling 24 hours (enforced by Facebook at publish time). */
  reelsPerDay: 30,
  storyVideoMaxSeconds: 60,
  storyImageMaxBytes: 10 * MB,
  contentTypes: ['text', 'link', 'photo', 'video', 'reel', 'story'] as const,
};

type MediaShape = Pick<MediaFacts, 'kind' | 'width' | 'height' | 'durationSeconds'>;

/** A video Facebook takes as a reel: 9:16 and 3 to 90 seconds. */
function reelShaped(media: MediaShape): boolean {
  const ratio = aspect(media);
  const { minSeconds, maxSeconds } = facebookLimits.reel;
  return (
    media.kind === 'video' &&
    ratio !== undefined &&
    Math.abs(ratio - facebookLimits.reel.aspect) <= 0.01 &&
    media.durationSeconds !== null &&
    media.durationSeconds >= minSeconds &&
    media.durationSeconds <= maxSeconds
  );
}

/** The content type from the settings, or from what is given: a link, images, a vertical short video (reel), a video,
 * or text. */
export function facebookContentType(post: Pick<PostContent, 'settings'> & { media: readonly MediaShape[] }): string {
  const given = post.settings.contentType;
  if (typeof given === 'string') return given;
  if (post.media.length === 0) return post.settings.link ? 'link' : 'text';
  if (post.media.length === 1 && reelShaped(post.media[0]!)) return 'reel';
  return post.media[0]!.kind === 'video' ? 'video' : 'photo';
}

function check(post: PostContent): Issue[] {
  const issues: Issue[] = [];
  const choice = checkChoice(post.settings, 'facebook', 'contentType', facebookLimits.contentTypes);
  if (choice) return [choice];
  const type = facebookContentType(post);
  const badLink = checkLink(post.settings, 'facebook');
  if (badLink) issues.push(badLink);
  if (type === 'link' && post.settings.link === undefined) {
    issues.push(
      issue(
        'setting_invalid',
        'perPlatform.facebook.link is required for a link post.',
        'Set perPlatform.facebook.link to an https address.',
        { field: 'perPlatform.facebook.link' },
      ),
    );
  }
  if (type === 'text' || type === 'link') {
    if (post.media.length)
      issues.push(
        issue(
          'media_kind',
          `mediaIds holds files, but a facebook ${type} post has none.`,
          'Remove the files, or set perPlatform.facebook.contentType to photo or video.',
          { field: 'mediaIds', limit: 0, actual: post.media.length },
        ),
      );
    if (!post.text.trim())
      issues.push(
        issue(
          'text_required',
          'text is empty; a facebook text post needs text.',
          'Write the text, or add a photo or video.',
          { field: 'text' },
        ),
      );
    return issues;
  }
  if (post.media.length === 0) {
    issues.push(
      issue(
        'media_kind',
        `mediaIds is empty; a facebook ${type} needs a file.`,
        'Upload a file and give its mediaId.',
        {
          field: 'mediaIds',
          actual: 0,
        },
      ),
    );
    return issues;
  }
  const kinds = new Set(post.media.map((m) => m.kind));
  if (type === 'photo') {
    if (kinds.has('video'))
      issues.push(
        issue(
          'media_kind',
          'mediaIds holds a video; a facebook photo post takes images only.',
          'Remove the video, or set perPlatform.facebook.contentType to video.',
          { field: 'mediaIds', limit: 'image', actual: 'video' },
        ),
      );
    const count = checkCarousel(
      post.media.length,
      facebookLimits.photos.min,
      facebookLimits.photos.max,
      'facebook photo',
    );
    if (count) issues.push(count);
    return issues;
  }
  if (post.media.length > 1) {
    issues.push(
      issue(
        'media_kind',
        `mediaIds holds ${post.media.length} files; a facebook ${type} takes one.`,
        'Give one file.',
        {
          field: 'mediaIds',
          limit: 1,
          actual: post.media.length,
        },
      ),
    );
    return issues;
  }
  const media = post.media[0]!;
  if (type === 'story') {
    if (post.text.trim())
      issues.push(
        issue(
          'caption_too_long',
          'text is set, but a facebook story carries no text.',
          'Set overrides.facebook.text to "" or choose another contentType.',
          { field: 'text', limit: 0, actual: codePoints(post.text) },
        ),
      );
    const found =
      media.kind === 'video'
        ? checkVideoDuration(
            media,
            'mediaIds[0]',
            1,
            facebookLimits.storyVideoMaxSeconds,
            'a facebook story',
            'story_too_long',
          )
        : checkImageSize(media, 'mediaIds[0]', facebookLimits.storyImageMaxBytes, 'facebook stories');
    if (found) issues.push(found);
    return issues;
  }
  if (media.kind !== 'video') {
    issues.push(
      issue(
        'media_kind',
        `mediaIds[0] is an image; a facebook ${type} needs a video.`,
        'Give a video, or set perPlatform.facebook.contentType to photo.',
        { field: 'mediaIds[0]', limit: 'video', actual: 'image' },
      ),
    );
    return issues;
  }
  if (type === 'reel') {
    const { minSeconds, maxSeconds } = facebookLimits.reel;
    const duration = checkVideoDuration(media, 'mediaIds[0]', minSeconds, maxSeconds, 'a facebook reel');
    if (duration) issues.push(duration);
    const ratio = aspect(media);
    if (ratio !== undefined && Math.abs(ratio - facebookLimits.reel.aspect) > 0.01) {
      issues.push(
        issue(
          'aspect_unsupported',
          `mediaIds[0] is ${media.width}×${media.height}; a facebook reel must be 9:16.`,
          'Export the video at 9:16, for example 1080×1920.',
          { field: 'mediaIds[0]', actual: `${media.width}×${media.height}` },
        ),
      );
    }
  }
  return issues;
}

export const facebookRules: NetworkRules = {
  platform: 'facebook',
  label: 'Facebook',
  available: true,
  textLimits: [],
  choices: { contentType: facebookLimits.contentTypes },
  check,
  defaults: (post) => ({ contentType: facebookContentType(post) }),
};
