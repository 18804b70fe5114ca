// What a post must respect on one account as TikTok reports it now (creator_info), checked at plan time:
// the privacy levels the account offers (only SELF_ONLY until TikTok audits the app), the interactions
// it switched off, and its longest video.
// https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info
import type { Issue } from '../../domain/issues.ts';
import type { PostingOptions } from '../connector.ts';
import { issue, secondsText, type PostContent } from '../rules.ts';
import { postKind, PRIVACY_LEVELS, type PrivacyLevel } from './rules.ts';

/** creator_info/query's answer. */
export interface CreatorInfo {
  creator_avatar_url?: string;
  creator_username: string;
  creator_nickname?: string;
  privacy_level_options: string[];
  comment_disabled: boolean;
  duet_disabled: boolean;
  stitch_disabled: boolean;
  max_video_post_duration_sec: number;
}

const SWITCHES = [
  ['disableComment', 'comment_disabled', 'comments'],
  ['disableDuet', 'duet_disabled', 'duets'],
  ['disableStitch', 'stitch_disabled', 'stitches'],
] as const;

export function creatorIssues(creator: CreatorInfo, post: PostContent, audited: boolean): Issue[] {
  const issues: Issue[] = [];
  const level = post.settings.privacyLevel;
  const options = creator.privacy_level_options;
  if (typeof level === 'string' && !audited && level !== 'SELF_ONLY')
    issues.push(
      issue(
        'setting_invalid',
        `perPlatform.tiktok.privacyLevel ${level}: until TikTok audits Herald's app, TikTok takes private posts only.`,
        'Set perPlatform.tiktok.privacyLevel to SELF_ONLY, or have TikTok audit the app and set ' +
          'HERALD_TIKTOK_AUDITED=true.',
      ),
    );
  else if (typeof level === 'string' && !options.includes(level))
    issues.push(
      issue(
        'setting_invalid',
        `perPlatform.tiktok.privacyLevel ${level} is not among the levels this account offers: ${options.join(', ')}.`,
        `Set perPlatform.tiktok.privacyLevel to one of: ${options.join(', ')}.`,
      ),
    );
  for (const [setting, disabled, what] of SWITCHES) {
    if (creator[disabled] && post.settings[setting] === false)
      issues.push(
        issue(
          'setting_invalid',
          `perPlatform.tiktok.${setting} is false, but the account turned ${what} off in TikTok.`,
          `Leave perPlatform.tiktok.${setting} out (${what} stay off), or turn ${what} on in the TikTok app.`,
        ),
      );
  }
  const seconds = post.media[0]?.durationSeconds;
  const max = creator.max_video_post_duration_sec;
  if (postKind(post.media) === 'video' && seconds != null && seconds > max)
    issues.push(
      issue(
        'video_too_long',
        `mediaIds[0] is ${secondsText(seconds)}; this TikTok account may post videos up to ${secondsText(max)}.`,
        'Trim the video.',
      ),
    );
  return issues;
}

const isLevel = (level: string): level is PrivacyLevel => (PRIVACY_LEVELS as readonly string[]).includes(level);

/**
 * creator_info as compose offers it: the levels Herald knows among the account's, and only SELF_ONLY
 * until TikTok audits the app, whatever the account offers.
 */
export function creatorOptions(creator: CreatorInfo, audited: boolean): PostingOptions {
  const levels = creator.privacy_level_options.filter(isLevel);
  return {
    nickname: creator.creator_nickname || creator.creator_username,
    avatarUrl: creator.creator_avatar_url || null,
    privacyLevels: audited ? levels : levels.filter((l) => l === 'SELF_ONLY'),
    commentDisabled: creator.comment_disabled,
    duetDisabled: creator.duet_disabled,
    stitchDisabled: creator.stitch_disabled,
    maxVideoSeconds: creator.max_video_post_duration_sec,
  };
}
