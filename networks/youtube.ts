// YouTube Data API v3 (videos.insert): limits and checks. Title 100 characters and description
// 5000 UTF-8 bytes, neither with < or >; tags 500 characters counting commas and implied quotes.
import { codePoints, utf8Bytes } from '../domain/textUnits.ts';
import type { Issue } from '../domain/issues.ts';
import { checkChoice, checkVideoDuration, issue, type NetworkRules, type PostContent } from './rules.ts';

export const youtubeLimits = {
  titleChars: 100,
  descriptionBytes: 5000,
  tagsChars: 500,
  /** Uploads may last up to 12 hours (over 15 minutes needs a phone-verified channel). */
  videoMaxSeconds: 12 * 3600,
  /** A square or vertical video up to 3 minutes is marked as a Short by YouTube itself. */
  shortMaxSeconds: 180,
  visibilities: ['public', 'unlisted', 'private'] as const,
};

/** The whole tag list as YouTube counts it: commas between tags, and a tag with a space counts as quoted. */
export function youtubeTagsLength(tags: string[]): number {
  return tags.reduce((sum, tag, i) => sum + codePoints(tag) + (/\s/.test(tag) ? 2 : 0) + (i > 0 ? 1 : 0), 0);
}

function check(post: PostContent): Issue[] {
  const issues: Issue[] = [];
  const title = post.title ?? '';
  if (!title.trim()) {
    issues.push(issue('youtube_title_required', 'title is required for youtube accounts.', 'Give a title (at most 100 characters), or overrides.youtube.title.'));
  } else if (codePoints(title) > youtubeLimits.titleChars) {
    issues.push(issue('title_too_long', `title is ${codePoints(title)} characters; youtube allows ${youtubeLimits.titleChars}.`, 'Shorten the title, or set overrides.youtube.title.'));
  }
  for (const [field, value] of [['title', title], ['text', post.text]] as const) {
    if (/[<>]/.test(value)) {
      issues.push(issue('forbidden_chars', `${field} contains < or >, which youtube refuses in titles and descriptions.`, `Remove < and > from ${field}, or set overrides.youtube.${field}.`));
    }
  }
  if (utf8Bytes(post.text) > youtubeLimits.descriptionBytes) {
    issues.push(issue('caption_too_long', `text is ${utf8Bytes(post.text)} UTF-8 bytes; a youtube description allows ${youtubeLimits.descriptionBytes}.`,
      'Shorten the text, or set overrides.youtube.text.'));
  }
  const tagsLength = youtubeTagsLength(post.tags);
  if (tagsLength > youtubeLimits.tagsChars) {
    issues.push(issue('tags_too_long', `tags count ${tagsLength} characters (commas included, tags with spaces count 2 more for their quotes); youtube allows ${youtubeLimits.tagsChars}.`,
      'Remove some tags, or set overrides.youtube.tags.'));
  }
  if (post.settings.visibility === undefined || post.settings.category === undefined) {
    issues.push(issue('setting_invalid', 'perPlatform.youtube needs visibility and category.', 'Set perPlatform.youtube to {"visibility": "public"|"unlisted"|"private", "category": "22"}.'));
  }
  const visibility = checkChoice(post.settings, 'youtube', 'visibility', youtubeLimits.visibilities);
  if (visibility) issues.push(visibility);
  if (post.settings.category !== undefined && !/^[0-9]+$/.test(String(post.settings.category))) {
    issues.push(issue('setting_invalid', `perPlatform.youtube.category "${String(post.settings.category)}" is not a category id.`, 'Use a numeric category id as a string, for example "22" (People & Blogs).'));
  }
  if (post.media.length === 0) {
    issues.push(issue('media_required', 'mediaIds is empty; youtube needs one video.', 'Upload a video and give its mediaId.'));
  } else if (post.media.length > 1 || post.media[0]!.kind === 'image') {
    issues.push(issue('media_kind', 'mediaIds must hold exactly one video for youtube.', 'Give one video; images and several files cannot be posted to youtube.'));
  } else {
    const tooLong = checkVideoDuration(post.media[0]!, `mediaIds[0]`, 1, youtubeLimits.videoMaxSeconds, 'a youtube upload');
    if (tooLong) issues.push(tooLong);
  }
  return issues;
}

export const youtube: NetworkRules = { platform: 'youtube', label: 'YouTube', available: true, check };
