// Bluesky (app.bsky.feed.post): limits and checks of a post. Text is 300 graphemes and 3,000 UTF-8 bytes (the
// lexicon's maxGraphemes and maxLength); a post carries up to 4 images (app.bsky.embed.images), or one MP4 video
// (app.bsky.embed.video, 100 MB; Bluesky plays up to 3 minutes), or neither. Images over the blob limit are scaled
// down when published (images.ts), so their size is no finding here. Alt text: up to 2,000 graphemes for an image
// (Bluesky's app), 1,000 for a video (the lexicon). https://docs.bsky.app/docs/advanced-guides/posts
import { graphemes, utf8Bytes } from '../../domain/textUnits.ts';
import type { Issue } from '../../domain/issues.ts';
import {
  checkCarousel,
  checkVideoDuration,
  checkVideoSize,
  COUNT_PAST_LIMIT,
  counted,
  issue,
  type NetworkRules,
  type PostContent,
} from '../rules.ts';

export const blueskyLimits = {
  textGraphemes: 300,
  textBytes: 3000,
  images: { min: 1, max: 4 },
  /** app.bsky.embed.images' blob limit: larger images are sent scaled down. */
  imageMaxBytes: 2_000_000,
  videoMaxSeconds: 3 * 60,
  videoMaxBytes: 100_000_000,
  videoTypes: ['video/mp4'],
  imageAltGraphemes: 2000,
  videoAltGraphemes: 1000,
};

function checkText(post: PostContent, issues: Issue[]): void {
  const max = blueskyLimits.textGraphemes;
  const units = graphemes(post.text, COUNT_PAST_LIMIT * max);
  if (units > max)
    issues.push(
      issue(
        'caption_too_long',
        `text is ${counted(units, max)} graphemes; bluesky allows ${max}.`,
        'Shorten the text, or set overrides.bluesky.text.',
        { field: 'text', limit: max, actual: units },
      ),
    );
  else if (utf8Bytes(post.text) > blueskyLimits.textBytes)
    issues.push(
      issue(
        'caption_too_long',
        `text is ${utf8Bytes(post.text)} bytes of UTF-8; bluesky allows ${blueskyLimits.textBytes}.`,
        'Use fewer long emoji sequences, or set overrides.bluesky.text.',
        { field: 'text', limit: blueskyLimits.textBytes, actual: utf8Bytes(post.text) },
      ),
    );
  if (post.media.length === 0 && !post.text.trim())
    issues.push(
      issue(
        'text_required',
        'text is empty and there is no file; a bluesky post needs one of them.',
        'Write the text or add a file.',
        { field: 'text' },
      ),
    );
}

function checkVideo(post: PostContent, issues: Issue[]): void {
  const video = post.media[0]!;
  if (!blueskyLimits.videoTypes.includes(video.mime))
    issues.push(
      issue(
        'media_kind',
        `mediaIds[0] is ${video.mime}; bluesky takes MP4 videos.`,
        'Export the video as MP4 (H.264).',
        { field: 'mediaIds[0]', actual: video.mime },
      ),
    );
  const duration = checkVideoDuration(video, 'mediaIds[0]', 0, blueskyLimits.videoMaxSeconds, 'a bluesky video');
  if (duration) issues.push(duration);
  const size = checkVideoSize(video, 'mediaIds[0]', blueskyLimits.videoMaxBytes, 'bluesky');
  if (size) issues.push(size);
}

/** perPlatform.bluesky.altTexts: one per file at most, each within its kind's limit. */
function checkAltTexts(post: PostContent, issues: Issue[]): void {
  const alts = post.settings.altTexts;
  if (!Array.isArray(alts)) return;
  if (alts.length > post.media.length)
    issues.push(
      issue(
        'setting_invalid',
        `perPlatform.bluesky.altTexts holds ${alts.length} texts for ${post.media.length} file` +
          `${post.media.length === 1 ? '' : 's'}; each text describes the file in the same place of mediaIds.`,
        'Give at most one alt text per file, in the order of mediaIds.',
        { field: 'perPlatform.bluesky.altTexts', limit: post.media.length, actual: alts.length },
      ),
    );
  alts.forEach((alt, i) => {
    const media = post.media[i];
    if (!media || typeof alt !== 'string') return;
    const max = media.kind === 'video' ? blueskyLimits.videoAltGraphemes : blueskyLimits.imageAltGraphemes;
    const units = graphemes(alt, max);
    if (units > max)
      issues.push(
        issue(
          'setting_invalid',
          `perPlatform.bluesky.altTexts[${i}] is more than ${max} graphemes; bluesky allows ${max} for ` +
            `${media.kind === 'video' ? 'a video' : 'an image'}.`,
          'Shorten the alt text.',
          { field: `perPlatform.bluesky.altTexts[${i}]`, limit: max, actual: units },
        ),
      );
  });
}

/** `video` for one video, `images` for 1 to any number of images, undefined for none or a mix. */
export function postKind(media: readonly { kind: 'image' | 'video' | null }[]): 'video' | 'images' | undefined {
  if (media.length === 1 && media[0]!.kind === 'video') return 'video';
  if (media.length > 0 && media.every((m) => m.kind === 'image')) return 'images';
  return undefined;
}

function check(post: PostContent): Issue[] {
  const issues: Issue[] = [];
  checkText(post, issues);
  const kind = postKind(post.media);
  if (kind === 'video') checkVideo(post, issues);
  else if (kind === 'images') {
    const count = checkCarousel(post.media.length, blueskyLimits.images.min, blueskyLimits.images.max, 'bluesky');
    if (count)
      issues.push({
        ...count,
        message: `mediaIds holds ${post.media.length} images; a bluesky post takes up to ${blueskyLimits.images.max}.`,
      });
  } else if (post.media.length) {
    const videos = post.media.every((m) => m.kind === 'video');
    issues.push(
      issue(
        'media_kind',
        `mediaIds holds ${post.media.length} ${videos ? 'videos' : 'files of both kinds'}; a bluesky post takes up ` +
          'to 4 images or one video.',
        'Give up to 4 images, or one video.',
        { field: 'mediaIds', limit: 1, actual: post.media.length },
      ),
    );
  }
  checkAltTexts(post, issues);
  return issues;
}

export const blueskyRules: NetworkRules = {
  platform: 'bluesky',
  label: 'Bluesky',
  available: true,
  textLimits: [{ field: 'text', unit: 'graphemes', max: blueskyLimits.textGraphemes }],
  check,
};
