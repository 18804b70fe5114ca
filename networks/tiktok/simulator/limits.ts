// TikTok's own limits as the simulator enforces them, from its reference pages and never from Herald's rules.
const MB = 1024 * 1024;
export const HOUR = 3600_000;
export const LIMITS = {
  videoTitleUnits: 2200,
  photoTitleUnits: 90,
  photoDescriptionUnits: 4000,
  photos: { min: 1, max: 35 },
  chunk: { min: 5 * MB, max: 64 * MB, lastMax: 128 * MB, maxCount: 1000 },
  maxVideoSeconds: 600,
  longReviewMs: 2 * HOUR,
  /** An upload_url's life ([3RD]: TikTok's pages give none; a PUT after it answers 403). */
  uploadUrlMs: HOUR,
  /** Accounts an unaudited app may let post in 24 hours (content-sharing-guidelines). */
  unauditedUsers: 5,
  /** A photo's longest sides: 1080p, either way round. */
  photoSides: { short: 1080, long: 1920 },
  privacyLevels: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
};
