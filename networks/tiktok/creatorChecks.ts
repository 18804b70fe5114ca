// What a post must respect on one account as TikTok reports it now (creator_info), checked at plan time:
// the privacy levels the account offers, the interactions it switched off, and its longest video; and
// until TikTok audits the app, its rules: the account itself set to private, SELF_ONLY posts, and at most
// 5 accounts posting in 24 hours.
// https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info
// https://developers.tiktok.com/doc/content-sharing-guidelines (read 2026-11-29)
import type { Issue } from '../../domain/issues.ts';
import type { PostingOptions } from '../connector.ts';
import { UNAUDITED_PRIVATE, UNAUDITED_USERS } from './api.ts';
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

/**
 * An unaudited app's standing for one account: whether the account is private (a private account offers
 * no public level; [3RD]: TikTok's pages do not say so outright), and the free places among the 5 accounts
 * a day, from Herald's own posts (every workspace's: the app is the operator's).
 */
export function unauditedStanding(creator: CreatorInfo, accountId: string, posters: string[]) {
  const postedToday = posters.includes(accountId);
  return {
    accountPrivate: !creator.privacy_level_options.includes('PUBLIC_TO_EVERYONE'),
    usersLeft: usersLeft(posters),
    postedToday,
  };
}

const UNAUDITED_USER_CAP = 5;

/** The free places among the 5 accounts a day an unaudited app may post from, after `posters`. */
export const usersLeft = (posters: string[]) => Math.max(0, UNAUDITED_USER_CAP - posters.length);

/** An unaudited app's rules as plan findings: a public account, a level other than SELF_ONLY, no place left. */
function unauditedIssues(standing: ReturnType<typeof unauditedStanding>, level: unknown): Issue[] {
  const issues: Issue[] = [];
  if (!standing.accountPrivate)
    issues.push(
      issue(
        'setting_invalid',
        "This TikTok account is public: until TikTok audits Herald's app, TikTok takes posts only from " +
          'accounts set to private.',
        UNAUDITED_PRIVATE,
        { limit: 'private', actual: 'public' },
      ),
    );
  if (typeof level === 'string' && level !== 'SELF_ONLY')
    issues.push(
      issue(
        'setting_invalid',
        `perPlatform.tiktok.privacyLevel ${level}: until TikTok audits Herald's app, TikTok takes private posts only.`,
        'Set perPlatform.tiktok.privacyLevel to SELF_ONLY, or have TikTok audit the app and set ' +
          'HERALD_TIKTOK_AUDITED=true.',
        { field: 'perPlatform.tiktok.privacyLevel', limit: 'SELF_ONLY', actual: level },
      ),
    );
  if (!standing.postedToday && standing.usersLeft === 0)
    issues.push(
      issue(
        'setting_invalid',
        `TikTok lets ${UNAUDITED_USER_CAP} accounts a day post through an unaudited app, and ` +
          `${UNAUDITED_USER_CAP} other accounts have posted in the last 24 hours.`,
        UNAUDITED_USERS,
        { limit: UNAUDITED_USER_CAP, actual: UNAUDITED_USER_CAP },
      ),
    );
  return issues;
}

export function creatorIssues(
  creator: CreatorInfo,
  post: PostContent,
  unaudited?: ReturnType<typeof unauditedStanding>,
): Issue[] {
  const level = post.settings.privacyLevel;
  const options = creator.privacy_level_options;
  const issues: Issue[] = unaudited ? unauditedIssues(unaudited, level) : [];
  // An unaudited app's wrong level is said once, above, whatever the account offers.
  const levelSaid = unaudited !== undefined && level !== 'SELF_ONLY';
  if (!levelSaid && typeof level === 'string' && !options.includes(level))
    issues.push(
      issue(
        'setting_invalid',
        `perPlatform.tiktok.privacyLevel ${level} is not among the levels this account offers: ${options.join(', ')}.`,
        `Set perPlatform.tiktok.privacyLevel to one of: ${options.join(', ')}.`,
        { field: 'perPlatform.tiktok.privacyLevel', actual: level },
      ),
    );
  for (const [setting, disabled, what] of SWITCHES) {
    if (creator[disabled] && post.settings[setting] === false)
      issues.push(
        issue(
          'setting_invalid',
          `perPlatform.tiktok.${setting} is false, but the account turned ${what} off in TikTok.`,
          `Leave perPlatform.tiktok.${setting} out (${what} stay off), or turn ${what} on in the TikTok app.`,
          { field: `perPlatform.tiktok.${setting}`, limit: true, actual: false },
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
        { field: 'mediaIds[0]', limit: max, actual: seconds },
      ),
    );
  return issues;
}

const isLevel = (level: string): level is PrivacyLevel => (PRIVACY_LEVELS as readonly string[]).includes(level);

/**
 * creator_info as compose offers it: the levels Herald knows among the account's, and only SELF_ONLY
 * until TikTok audits the app, whatever the account offers.
 */
export function creatorOptions(creator: CreatorInfo, unaudited?: ReturnType<typeof unauditedStanding>): PostingOptions {
  const levels = creator.privacy_level_options.filter(isLevel);
  return {
    nickname: creator.creator_nickname || creator.creator_username,
    avatarUrl: creator.creator_avatar_url || null,
    privacyLevels: unaudited ? levels.filter((l) => l === 'SELF_ONLY') : levels,
    commentDisabled: creator.comment_disabled,
    duetDisabled: creator.duet_disabled,
    stitchDisabled: creator.stitch_disabled,
    maxVideoSeconds: creator.max_video_post_duration_sec,
    ...(unaudited ? { unauditedApp: unaudited } : {}),
  };
}
