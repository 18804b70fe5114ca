// A post's network settings as people read them: YouTube's category by name, choices capitalised, yes or no.
import { YOUTUBE_CATEGORIES } from '../../../networks/youtube/categories.ts';
import { SETTING_LABELS } from './fieldLabels.ts';

/** A YouTube category id by its name; an id the list lacks (set through the API) by its number. */
export const categoryName = (id: string): string => YOUTUBE_CATEGORIES[id] ?? `Category ${id}`;

/** "reel" → "Reel", "PUBLIC_TO_EVERYONE" → "Public to everyone". */
function choiceWords(value: string): string {
  const plain = /^[A-Z_]+$/.test(value) ? value.toLowerCase().replaceAll('_', ' ') : value;
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/** Values people typed (a link, a topic, a playlist) show as they are. */
const TYPED = new Set(['link', 'topicTag', 'playlistId']);

/**
 * The settings a post carries, labelled as compose labels them. A file (a thumbnail) is left out: the post's
 * preview shows it, and its id means nothing to a person. Settings compose does not offer keep their name.
 */
export function settingLines(settings: Record<string, unknown>): { label: string; value: string }[] {
  return Object.entries(settings)
    .filter(([name, value]) => !name.endsWith('MediaId') && value !== undefined && value !== null && value !== '')
    .map(([name, value]) => ({
      label: SETTING_LABELS[name as keyof typeof SETTING_LABELS] ?? choiceWords(name),
      value:
        name === 'category'
          ? categoryName(String(value))
          : typeof value === 'boolean'
            ? value
              ? 'Yes'
              : 'No'
            : TYPED.has(name)
              ? String(value)
              : choiceWords(String(value)),
    }));
}

/** TikTok's audiences in words, in TikTok's order; compose offers only those the creator's account lists. */
export const TIKTOK_AUDIENCES: Record<string, string> = {
  PUBLIC_TO_EVERYONE: 'Everyone',
  MUTUAL_FOLLOW_FRIENDS: 'Friends (followers you follow back)',
  FOLLOWER_OF_CREATOR: 'Followers',
  SELF_ONLY: 'Only me',
};

/** Why an interaction switch cannot be changed: the creator turned it off on the TikTok account itself. */
export const TIKTOK_SWITCHED_OFF = {
  disableComment: 'Comments are off on this TikTok account, so they stay off.',
  disableDuet: 'Duets are off on this TikTok account, so they stay off.',
  disableStitch: 'Stitches are off on this TikTok account, so they stay off.',
} as const;

/** The creator's longest video: "Videos up to 10 minutes." */
export function longestVideoWords(seconds: number): string {
  const minutes = seconds / 60;
  const span = Number.isInteger(minutes) ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${seconds} seconds`;
  return `Videos up to ${span}.`;
}

/**
 * Until TikTok has reviewed the operator's app (TikTok's content-sharing guidelines): the account itself must
 * be private, and at most 5 accounts a day may post through the app.
 */
export const TIKTOK_UNAUDITED = {
  accountPublic:
    'This TikTok account is public. Until TikTok has reviewed this Herald’s app, TikTok takes posts only from ' +
    'private accounts: in the TikTok app, turn on Settings and privacy, Privacy, Private account.',
  noPlaceLeft:
    'Until TikTok has reviewed this Herald’s app, it lets 5 TikTok accounts a day post through it, and 5 others ' +
    'have posted in the last 24 hours. Try again tomorrow.',
  /** Under the creator in compose: whether the account may post now, and the places left today. */
  standing(name: string, s: { accountPrivate: boolean; usersLeft: number; postedToday: boolean }): string {
    const account = s.accountPrivate
      ? `${name} is private on TikTok, as TikTok requires until it has reviewed this Herald’s app.`
      : `${name} is public on TikTok: set it to private first, as TikTok requires until it has reviewed this ` +
        'Herald’s app.';
    const places = s.postedToday
      ? 'It posted today, so it keeps its place among the 5 accounts a day TikTok allows.'
      : `${s.usersLeft} of the 5 accounts a day TikTok allows can still post.`;
    return `${account} ${places}`;
  },
};

/** Above the network's own words when TikTok could not be asked what an account may post. */
export const tiktokOptionsFailed = (account: string): string => `TikTok could not say what ${account} may post.`;

/** Bluesky's alt text fields in compose, one per file. */
export const ALT_TEXT_WORDS = {
  label: (file: string) => `Alt text of ${file}`,
  file: 'File',
  noFiles: 'Add files to describe them: each image or video gets its own alt text for people who cannot see it.',
};
