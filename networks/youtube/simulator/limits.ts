// YouTube's own limits as the simulator enforces them, written from YouTube's documentation and never
// imported from Herald's rules (networks/youtube/rules.ts), so that a miscount on either side fails a test:
// https://developers.google.com/youtube/v3/docs/videos (snippet and status fields),
// https://developers.google.com/youtube/v3/docs/thumbnails/set, and the quota page
// https://developers.google.com/youtube/v3/determine_quota_cost.
import { codePoints } from '../../../domain/textUnits.ts';

export const youtubeSandboxLimits = {
  titleChars: 100,
  descriptionBytes: 5000,
  /** The whole tag list, commas included, a tag with a space counting 2 more for its implied quotes. */
  tagsChars: 500,
  privacyStatuses: ['public', 'unlisted', 'private'],
  uploadsPerDay: 100,
  channelUploadsPer24h: 50,
  /** YouTube says only that sessions are "finite"; a week outlasts any worker retry. */
  sessionLifetimeMs: 7 * 24 * 3600_000,
  /** Older pages say 2 MB, newer ones 50 MB: the sandbox keeps to the limit every version accepts. */
  thumbnailMaxBytes: 2 * 1024 * 1024,
  playlistMaxItems: 5000,
};

/** Category ids assignable in the US (videoCategories.list?regionCode=US, assignable=true). */
export const ASSIGNABLE_CATEGORIES = [
  '1',
  '2',
  '10',
  '15',
  '17',
  '19',
  '20',
  '22',
  '23',
  '24',
  '25',
  '26',
  '27',
  '28',
  '29',
];

/** The tag list's length as YouTube counts it: commas between tags, and quotes around a tag with a space. */
export function tagListLength(tags: string[]): number {
  return tags.reduce((sum, tag, i) => sum + codePoints(tag) + (/\s/.test(tag) ? 2 : 0) + (i > 0 ? 1 : 0), 0);
}
