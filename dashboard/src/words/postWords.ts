// How a post is named and its state said in lists, and what a bulk action on several posts did, in sentences.
import type { Platform, Post } from '../api.ts';
import { dayTimeText } from '../format.ts';
import { labelOf } from '../networks.ts';
import { type PostStatus, STATUS_WORDS } from './statusWords.ts';

const HEADING_CHARACTERS = 70;

/**
 * A post's own heading: a YouTube video's title, else the first words of its text (cut at a word, with an
 * ellipsis), else a sentence saying it has none.
 */
export function postHeading(post: Pick<Post, 'title' | 'text' | 'platform'>): string {
  if (post.platform === 'youtube' && post.title?.trim()) return post.title.trim();
  const text = post.text.replace(/\s+/g, ' ').trim();
  if (!text) return 'No text';
  if (text.length <= HEADING_CHARACTERS) return text;
  const cut = text.slice(0, HEADING_CHARACTERS + 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > HEADING_CHARACTERS / 2 ? cut.slice(0, atWord) : cut.slice(0, HEADING_CHARACTERS)).trimEnd()}…`;
}

export type BulkAction = 'cancel' | 'reschedule' | 'delete';

/** The states each bulk action applies to; delete cancels a scheduled post first, as a single delete asks. */
export const BULK_APPLIES: Record<BulkAction, PostStatus[]> = {
  cancel: ['queued'],
  reschedule: ['queued', 'draft'],
  delete: ['draft', 'failed', 'queued'],
};

const DONE: Record<BulkAction, string> = { cancel: 'cancelled', reschedule: 'rescheduled', delete: 'deleted' };

const LEFT: Record<BulkAction, string> = {
  cancel: 'only scheduled posts can be cancelled',
  reschedule: 'published and failed posts keep their time',
  delete: 'published posts stay',
};

const posts = (n: number) => (n === 1 ? '1 post' : `${n} posts`);

/** "3 posts deleted." or "3 posts deleted, 1 could not be:", the reasons then listed beside it. */
export function bulkSummary(action: BulkAction, counts: { done: number; failed: number }): string {
  const done = `${posts(counts.done)} ${DONE[action]}`;
  return counts.failed ? `${done}, ${counts.failed} could not be:` : `${done}.`;
}

/** The posts of a selection a bulk action leaves alone (`tense`: before or after it), or '' when none. */
export function bulkLeftAlone(action: BulkAction, skipped: number, tense: 'is' | 'was'): string {
  if (!skipped) return '';
  const one = skipped === 1;
  const subject = one ? `1 selected post ${tense}` : `${skipped} selected posts ${tense === 'is' ? 'are' : 'were'}`;
  const as = one ? `it ${tense}` : `they ${tense === 'is' ? 'are' : 'were'}`;
  return `${subject} left as ${as}: ${LEFT[action]}.`;
}

/** Why a published post is shown to its account only (the post's `shownPrivately`), by network. */
const SHOWN_PRIVATELY: Partial<Record<Platform, string>> = {
  youtube:
    'YouTube made this video private, whatever visibility was chosen: it keeps every video uploaded through a ' +
    'Google Cloud project it has not audited private. Ask whoever runs this Herald to have the project audited by ' +
    'YouTube; until then, make each video public yourself in YouTube Studio.',
  tiktok:
    'TikTok shows this post privately and gives no link to it: until TikTok has reviewed this Herald, it takes ' +
    "private posts only. It is on the account's TikTok profile.",
};

export function shownPrivatelyText(platform: Platform): string {
  return SHOWN_PRIVATELY[platform] ?? `${labelOf(platform)} shows this post only to the account, not to the public.`;
}

/**
 * A post's state and where it goes, in the dashboard's words, for the one line a list gives it: "Scheduled ·
 * Instagram · Acme Shop · today at 14:30 CET", "Draft, awaiting approval · … · wanted for tomorrow at 09:00 CET".
 * A failed post's reason is its error's words (words.ts), shown beside it.
 */
export function postStateText(
  post: Pick<Post, 'status' | 'platform' | 'publishAt' | 'approval'>,
  account: string | undefined,
  zone: string,
): string {
  const approval = post.status === 'draft' ? post.approval : undefined;
  const state =
    approval?.state === 'pending'
      ? 'Draft, awaiting approval'
      : approval?.state === 'rejected'
        ? 'Draft, rejected'
        : STATUS_WORDS[post.status];
  const when =
    approval?.state === 'pending'
      ? approval.wantedAt
        ? `wanted for ${dayTimeText(approval.wantedAt, zone)}`
        : 'wanted as soon as it is approved'
      : post.publishAt
        ? dayTimeText(post.publishAt, zone)
        : 'no time set';
  return [state, labelOf(post.platform), account, when].filter(Boolean).join(' · ');
}
