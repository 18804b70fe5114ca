// TikTok Content Posting API: limits and checks of a post that hold for every account. A post is one
// video (its caption is the text, 2,200 UTF-16 units) or a photo carousel of 2 to 35 images (a title of
// 90 and a description of 4,000 UTF-16 units; PNG is converted to JPEG, as TikTok takes JPEG and WebP).
// What depends on the account (the privacy levels it offers, the interactions it switched off, its
// longest video, an unaudited app's private-only rule) is checked against its creator_info at plan time
// (accountCheck.ts). https://developers.tiktok.com/doc/content-posting-api-reference-direct-post
import { utf16Units } from '../../domain/textUnits.ts';
import type { Issue } from '../../domain/issues.ts';
import {
  checkCarousel,
  checkChoice,
  checkImageSize,
  checkVideoDuration,
  checkVideoSize,
  counted,
  issue,
  type NetworkRules,
  type PostContent,
} from '../rules.ts';

const MB = 1024 * 1024;

export const PRIVACY_LEVELS = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;
export type PrivacyLevel = (typeof PRIVACY_LEVELS)[number];

export const tiktokLimits = {
  videoTitleUnits: 2200,
  photoTitleUnits: 90,
  photoDescriptionUnits: 4000,
  photoCarousel: { min: 2, max: 35 },
  photoMaxBytes: 20 * MB,
  videoMinSeconds: 3,
  /** The longest any creator may post; each account's own limit (creator_info) is checked at plan time. */
  videoMaxSeconds: 60 * 60,
  videoMaxBytes: 4 * 1024 * MB,
  videoTypes: ['video/mp4', 'video/webm', 'video/quicktime'],
  photoTypes: ['image/jpeg', 'image/webp', 'image/png'],
};

/** Settings that apply to one kind of post only, and the kind they belong to. */
const ONLY_FOR: Record<string, 'video' | 'photo'> = {
  disableDuet: 'video',
  disableStitch: 'video',
  coverTimestampMs: 'video',
  autoAddMusic: 'photo',
};

function tooLong(code: 'caption_too_long' | 'title_too_long', field: string, units: number, max: number): Issue {
  const override = field === 'title' ? 'overrides.tiktok.title' : 'overrides.tiktok.text';
  return issue(
    code,
    `${field} is ${counted(units, max)} UTF-16 units; tiktok allows ${max}${field === 'title' ? ' for a title' : ''}.`,
    `Shorten the ${field}, or set ${override}.`,
    { field, limit: max, actual: units },
  );
}

function checkVideo(post: PostContent, issues: Issue[]): void {
  const video = post.media[0]!;
  if (!tiktokLimits.videoTypes.includes(video.mime))
    issues.push(
      issue(
        'media_kind',
        `mediaIds[0] is ${video.mime}; tiktok takes MP4, WebM or MOV videos.`,
        'Export the video as MP4 (H.264).',
        { field: 'mediaIds[0]', actual: video.mime },
      ),
    );
  const duration = checkVideoDuration(
    video,
    'mediaIds[0]',
    tiktokLimits.videoMinSeconds,
    tiktokLimits.videoMaxSeconds,
    'a tiktok video',
  );
  if (duration) issues.push(duration);
  const size = checkVideoSize(video, 'mediaIds[0]', tiktokLimits.videoMaxBytes, 'tiktok');
  if (size) issues.push(size);
  const units = utf16Units(post.text);
  if (units > tiktokLimits.videoTitleUnits)
    issues.push(tooLong('caption_too_long', 'text', units, tiktokLimits.videoTitleUnits));
}

function checkPhotos(post: PostContent, issues: Issue[]): void {
  const count = checkCarousel(
    post.media.length,
    tiktokLimits.photoCarousel.min,
    tiktokLimits.photoCarousel.max,
    'tiktok photo',
  );
  if (count) issues.push(count);
  post.media.forEach((m, i) => {
    if (!tiktokLimits.photoTypes.includes(m.mime))
      issues.push(
        issue(
          'media_kind',
          `mediaIds[${i}] is ${m.mime}; tiktok takes JPEG or WebP photos (PNG is converted to JPEG).`,
          'Export the image as JPEG.',
          { field: `mediaIds[${i}]`, actual: m.mime },
        ),
      );
    const size = checkImageSize(m, `mediaIds[${i}]`, tiktokLimits.photoMaxBytes, 'tiktok');
    if (size) issues.push(size);
  });
  const description = utf16Units(post.text);
  if (description > tiktokLimits.photoDescriptionUnits)
    issues.push(tooLong('caption_too_long', 'text', description, tiktokLimits.photoDescriptionUnits));
  checkPhotoTitle(post, issues);
}

/** The title goes out with photo posts only (a video's caption is its text). */
function checkPhotoTitle(post: PostContent, issues: Issue[]): void {
  const title = utf16Units(post.title ?? '');
  if (title > tiktokLimits.photoTitleUnits)
    issues.push(tooLong('title_too_long', 'title', title, tiktokLimits.photoTitleUnits));
}

/** `video` for one video, `photo` for images only; undefined for anything else (no file, or a mix). */
export function postKind(media: readonly { kind: 'image' | 'video' | null }[]): 'video' | 'photo' | undefined {
  if (media.length === 1 && media[0]!.kind === 'video') return 'video';
  if (media.length > 0 && media.every((m) => m.kind === 'image')) return 'photo';
  return undefined;
}

function check(post: PostContent): Issue[] {
  const issues: Issue[] = [];
  const level = checkChoice(post.settings, 'tiktok', 'privacyLevel', PRIVACY_LEVELS);
  if (level) issues.push(level);
  if (post.settings.privacyLevel === undefined)
    issues.push(
      issue(
        'setting_invalid',
        'perPlatform.tiktok.privacyLevel is required: TikTok asks the creator to choose who may see each post.',
        `Set perPlatform.tiktok.privacyLevel to one of the account's levels: ${PRIVACY_LEVELS.join(', ')}.`,
        { field: 'perPlatform.tiktok.privacyLevel' },
      ),
    );
  if (post.settings.brandContent === true && post.settings.privacyLevel === 'SELF_ONLY')
    issues.push(
      issue(
        'setting_invalid',
        'perPlatform.tiktok.brandContent cannot be private: TikTok does not allow branded content with ' +
          'privacyLevel SELF_ONLY.',
        'Choose another privacy level, or leave brandContent out.',
        { field: 'perPlatform.tiktok.brandContent' },
      ),
    );
  const kind = postKind(post.media);
  if (!kind) {
    issues.push(
      issue(
        'media_kind',
        post.media.length
          ? `mediaIds mixes ${post.media.length} files of both kinds; a tiktok post is one video or 2 to 35 photos.`
          : 'mediaIds is empty; a tiktok post is one video or 2 to 35 photos.',
        'Give one video, or 2 to 35 images.',
        { field: 'mediaIds', actual: post.media.length },
      ),
    );
    const units = utf16Units(post.text);
    if (units > tiktokLimits.videoTitleUnits)
      issues.push(tooLong('caption_too_long', 'text', units, tiktokLimits.videoTitleUnits));
    checkPhotoTitle(post, issues);
  } else if (kind === 'video') checkVideo(post, issues);
  else checkPhotos(post, issues);
  for (const [name, only] of Object.entries(ONLY_FOR)) {
    if (kind && post.settings[name] !== undefined && kind !== only)
      issues.push(
        issue(
          'setting_invalid',
          `perPlatform.tiktok.${name} applies to ${only === 'video' ? 'videos' : 'photo posts'} only, and this ` +
            `post is ${kind === 'video' ? 'a video' : 'a photo post'}.`,
          `Remove perPlatform.tiktok.${name}.`,
          { field: `perPlatform.tiktok.${name}`, limit: only, actual: kind },
        ),
      );
  }
  const cover = post.settings.coverTimestampMs;
  const seconds = post.media[0]?.durationSeconds;
  if (kind === 'video' && typeof cover === 'number' && seconds != null && cover > seconds * 1000)
    issues.push(
      issue(
        'setting_invalid',
        `perPlatform.tiktok.coverTimestampMs ${cover} is past the end of the video (${Math.round(seconds * 1000)} ms).`,
        'Give a frame within the video.',
        { field: 'perPlatform.tiktok.coverTimestampMs', limit: Math.round(seconds * 1000), actual: cover },
      ),
    );
  return issues;
}

const LEVEL_WORDS: Record<PrivacyLevel, string> = {
  PUBLIC_TO_EVERYONE: 'everyone',
  MUTUAL_FOLLOW_FRIENDS: 'friends (followers you follow back)',
  FOLLOWER_OF_CREATOR: 'followers',
  SELF_ONLY: 'only the creator',
};

/** Who sees a post that is not public, in words: "only the creator", "followers", ... */
export const privateAudience = (level: unknown) =>
  typeof level === 'string' && level in LEVEL_WORDS ? LEVEL_WORDS[level as PrivacyLevel] : 'not public';

export const tiktokRules: NetworkRules = {
  platform: 'tiktok',
  label: 'TikTok',
  available: true,
  textLimits: [
    { field: 'text', unit: 'utf16Units', max: tiktokLimits.videoTitleUnits },
    { field: 'title', unit: 'utf16Units', max: tiktokLimits.photoTitleUnits },
  ],
  choices: { privacyLevel: PRIVACY_LEVELS },
  check,
  describe: (name, value) =>
    name === 'privacyLevel' && typeof value === 'string' && value in LEVEL_WORDS
      ? `${value} (${LEVEL_WORDS[value as PrivacyLevel]})`
      : String(value),
};
