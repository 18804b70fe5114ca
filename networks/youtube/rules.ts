// YouTube Data API v3 (videos.insert): limits and checks. Title 100 characters and description
// 5000 UTF-8 bytes, neither with < or >; tags 500 characters counting commas and implied quotes.
import { codePoints, utf8Bytes } from '../../domain/textUnits.ts';
import type { Issue } from '../../domain/issues.ts';
import { formatOf } from '../../domain/mediaTypes.ts';
import {
  checkChoice,
  checkImageSize,
  checkReady,
  checkVideoDuration,
  issue,
  type MediaFacts,
  type NetworkRules,
  type PostContent,
} from '../rules.ts';
import { YOUTUBE_CATEGORIES } from './categories.ts';

export const youtubeLimits = {
  titleChars: 100,
  descriptionBytes: 5000,
  tagsChars: 500,
  /** Uploads may last up to 12 hours (over 15 minutes needs a phone-verified channel). */
  videoMaxSeconds: 12 * 3600,
  /** A square or vertical video up to 3 minutes is marked as a Short by YouTube itself. */
  shortMaxSeconds: 180,
  visibilities: ['public', 'unlisted', 'private'] as const,
  /** What YouTube itself uses when an upload leaves them out: public, People & Blogs. */
  defaults: { visibility: 'public', category: '22' },
  /** thumbnails.set: 2 MB on the older reference pages, 50 MB on the current ones; the lower holds on both. */
  thumbnailMaxBytes: 2 * 1024 * 1024,
  thumbnailTypes: ['image/jpeg', 'image/png'],
};

/** The whole tag list as YouTube counts it: commas between tags, and a tag with a space counts as quoted. */
export function youtubeTagsLength(tags: string[]): number {
  return tags.reduce((sum, tag, i) => sum + codePoints(tag) + (/\s/.test(tag) ? 2 : 0) + (i > 0 ? 1 : 0), 0);
}

/** perPlatform.youtube.thumbnailMediaId: a ready JPEG or PNG of this workspace, small enough for thumbnails.set. */
function checkThumbnail(id: string, image: MediaFacts | undefined): Issue | undefined {
  const setting = 'perPlatform.youtube.thumbnailMediaId';
  const field = `${setting} (${id})`;
  // The same words for an id that does not exist and one of another workspace: nothing leaks.
  if (!image)
    return issue(
      'setting_invalid',
      `${field} is not a file of this workspace.`,
      'Give the mediaId of an uploaded JPEG or PNG image, or leave thumbnailMediaId out.',
      { field: setting, actual: id },
    );
  const notReady = checkReady(image, field);
  if (notReady) return { ...notReady, field: setting };
  if (image.kind !== 'image' || !youtubeLimits.thumbnailTypes.includes(image.mime)) {
    return issue(
      'media_kind',
      `${field} is a ${formatOf(image.mime)?.label ?? image.mime}; a youtube thumbnail must be a JPEG or PNG image.`,
      'Give a JPEG or PNG image as the thumbnail.',
      { field: setting, limit: 'image', actual: image.mime },
    );
  }
  const size = checkImageSize(image, field, youtubeLimits.thumbnailMaxBytes, 'a youtube thumbnail');
  return size && { ...size, field: setting };
}

function check(post: PostContent): Issue[] {
  const issues: Issue[] = [];
  const title = post.title ?? '';
  if (!title.trim()) {
    issues.push(
      issue(
        'youtube_title_required',
        'title is required for youtube accounts.',
        'Give a title (at most 100 characters), or overrides.youtube.title.',
        { field: 'title' },
      ),
    );
  } else if (codePoints(title) > youtubeLimits.titleChars) {
    issues.push(
      issue(
        'title_too_long',
        `title is ${codePoints(title)} characters; youtube allows ${youtubeLimits.titleChars}.`,
        'Shorten the title, or set overrides.youtube.title.',
        { field: 'title', limit: youtubeLimits.titleChars, actual: codePoints(title) },
      ),
    );
  }
  for (const [field, value] of [
    ['title', title],
    ['text', post.text],
  ] as const) {
    if (/[<>]/.test(value)) {
      issues.push(
        issue(
          'forbidden_chars',
          `${field} contains < or >, which youtube refuses in titles and descriptions.`,
          `Remove < and > from ${field}, or set overrides.youtube.${field}.`,
          { field },
        ),
      );
    }
  }
  if (utf8Bytes(post.text) > youtubeLimits.descriptionBytes) {
    issues.push(
      issue(
        'caption_too_long',
        `text is ${utf8Bytes(post.text)} UTF-8 bytes; a youtube description allows ${youtubeLimits.descriptionBytes}.`,
        'Shorten the text, or set overrides.youtube.text.',
        { field: 'text', limit: youtubeLimits.descriptionBytes, actual: utf8Bytes(post.text) },
      ),
    );
  }
  const tagsLength = youtubeTagsLength(post.tags);
  if (tagsLength > youtubeLimits.tagsChars) {
    issues.push(
      issue(
        'tags_too_long',
        `tags count ${tagsLength} characters (commas included, tags with spaces count 2 more for their quotes); ` +
          `youtube allows ${youtubeLimits.tagsChars}.`,
        'Remove some tags, or set overrides.youtube.tags.',
        { field: 'tags', limit: youtubeLimits.tagsChars, actual: tagsLength },
      ),
    );
  }
  const visibility = checkChoice(post.settings, 'youtube', 'visibility', youtubeLimits.visibilities);
  if (visibility) issues.push(visibility);
  if (post.settings.category !== undefined && !/^[0-9]+$/.test(String(post.settings.category))) {
    issues.push(
      issue(
        'setting_invalid',
        `perPlatform.youtube.category "${String(post.settings.category)}" is not a category id.`,
        'Use a numeric category id as a string, for example "22" (People & Blogs).',
        { field: 'perPlatform.youtube.category', actual: String(post.settings.category) },
      ),
    );
  }
  if (post.media.length === 0) {
    issues.push(
      issue('media_kind', 'mediaIds is empty; youtube needs one video.', 'Upload a video and give its mediaId.', {
        field: 'mediaIds',
        actual: 0,
      }),
    );
  } else if (post.media.length > 1 || post.media[0]!.kind === 'image') {
    issues.push(
      issue(
        'media_kind',
        'mediaIds must hold exactly one video for youtube.',
        'Give one video; images and several files cannot be posted to youtube.',
        post.media.length > 1
          ? { field: 'mediaIds', limit: 1, actual: post.media.length }
          : { field: 'mediaIds[0]', limit: 'video', actual: 'image' },
      ),
    );
  } else {
    const tooLong = checkVideoDuration(
      post.media[0]!,
      `mediaIds[0]`,
      1,
      youtubeLimits.videoMaxSeconds,
      'a youtube upload',
    );
    if (tooLong) issues.push(tooLong);
  }
  const thumbnail = post.settings.thumbnailMediaId;
  if (thumbnail !== undefined) {
    const found = checkThumbnail(String(thumbnail), post.settingFiles.thumbnailMediaId);
    if (found) issues.push(found);
  }
  return issues;
}

export const youtubeRules: NetworkRules = {
  platform: 'youtube',
  label: 'YouTube',
  available: true,
  fileSettings: ['thumbnailMediaId'],
  textLimits: [
    { field: 'title', unit: 'codePoints', max: youtubeLimits.titleChars },
    { field: 'text', unit: 'utf8Bytes', max: youtubeLimits.descriptionBytes },
  ],
  choices: { visibility: youtubeLimits.visibilities },
  check,
  quotaResetZone: 'America/Los_Angeles',
  defaults: () => youtubeLimits.defaults,
  describe: (name, value) =>
    name === 'category' && YOUTUBE_CATEGORIES[String(value)]
      ? `${String(value)} (${YOUTUBE_CATEGORIES[String(value)]})`
      : String(value),
};
