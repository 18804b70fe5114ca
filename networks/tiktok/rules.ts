// TikTok Content Posting API: in progress. Limits are recorded; publishing is not available yet.
// A connector still needs, before it can be offered: an audited TikTok app (an unaudited client may
// post only SELF_ONLY, private) to try the calls against the real API and a simulator; a media source
// TikTok accepts (PULL_FROM_URL only from a domain verified in TikTok's developer portal, which a
// self-hosted server rarely has, else FILE_UPLOAD in 5-64 MB chunks); creator_info read before each
// post (privacy options, max duration); and status polling that tolerates moderation taking hours,
// with no schedule field (Herald fires the post itself). The call shapes are in TikTok's reference,
// https://developers.tiktok.com/doc/content-posting-api-reference-direct-post.
import { utf16Units } from '../../domain/textUnits.ts';
import { checkCarousel, issue, type NetworkRules, type PostContent } from '../rules.ts';

export const tiktokLimits = {
  videoTitleUnits: 2200,
  photoCarousel: { min: 2, max: 35 },
  privacyLevels: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const,
};

function check(post: PostContent) {
  const issues = [
    issue(
      'network_unavailable',
      'Publishing to tiktok is in progress and not available yet.',
      'Remove the tiktok account from targets for now.',
    ),
  ];
  if (utf16Units(post.text) > tiktokLimits.videoTitleUnits) {
    issues.push(
      issue(
        'caption_too_long',
        `text is ${utf16Units(post.text)} UTF-16 units; tiktok allows ${tiktokLimits.videoTitleUnits}.`,
        'Shorten the text, or set overrides.tiktok.text.',
      ),
    );
  }
  const images = post.media.filter((m) => m.kind === 'image').length;
  if (images > 1) {
    const count = checkCarousel(images, tiktokLimits.photoCarousel.min, tiktokLimits.photoCarousel.max, 'tiktok photo');
    if (count) issues.push(count);
  }
  return issues;
}

export const tiktokRules: NetworkRules = {
  platform: 'tiktok',
  label: 'TikTok',
  available: false,
  textLimits: [{ field: 'text', unit: 'utf16Units', max: tiktokLimits.videoTitleUnits }],
  check,
};
