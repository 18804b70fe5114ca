// TikTok Content Posting API: in progress. Limits are recorded; publishing is not available yet.
import { utf16Units } from '../domain/textUnits.ts';
import { checkCarousel, issue, type NetworkRules, type PostContent } from './rules.ts';

export const tiktokLimits = {
  videoTitleUnits: 2200,
  photoCarousel: { min: 2, max: 35 },
  privacyLevels: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const,
};

function check(post: PostContent) {
  const issues = [issue('network_unavailable', 'Publishing to tiktok is in progress and not available yet.', 'Remove the tiktok account from targets for now.')];
  if (utf16Units(post.text) > tiktokLimits.videoTitleUnits) {
    issues.push(issue('caption_too_long', `text is ${utf16Units(post.text)} UTF-16 units; tiktok allows ${tiktokLimits.videoTitleUnits}.`, 'Shorten the text, or set overrides.tiktok.text.'));
  }
  const images = post.media.filter((m) => m.kind === 'image').length;
  if (images > 1) {
    const count = checkCarousel(images, tiktokLimits.photoCarousel.min, tiktokLimits.photoCarousel.max, 'tiktok photo');
    if (count) issues.push(count);
  }
  return issues;
}

export const tiktok: NetworkRules = { platform: 'tiktok', label: 'TikTok', available: false, check };
