// What the calendar shows, as plain data: posts made by one create call become one card (they share their batchId,
// and their time until one is moved), filtered by group, account, network and status, placed by day and
// hour in the workspace zone.
import { DateTime } from 'luxon';
import type { Platform, Post } from '../api.ts';
import type { PostStatus } from '../words/statusWords.ts';

export interface CalendarCard {
  key: string;
  posts: Post[];
  publishAt: string;
  /** In the workspace zone: "2026-12-08", 9, "09:15", "Tuesday 8 December". */
  day: string;
  hour: number;
  time: string;
  dayWords: string;
}

/** One card per create call and time, in time order; drafts (no time) are not on the calendar. */
export function cardsOf(posts: Post[], zone: string): CalendarCard[] {
  const byKey = new Map<string, Post[]>();
  for (const post of posts) {
    if (!post.publishAt) continue;
    const key = `${post.batchId} ${post.publishAt}`;
    const together = byKey.get(key);
    if (together) together.push(post);
    else byKey.set(key, [post]);
  }
  const cards = [...byKey].map(([key, together]) => {
    const local = DateTime.fromISO(together[0]!.publishAt!, { zone });
    return {
      key,
      posts: together,
      publishAt: together[0]!.publishAt!,
      day: local.toISODate()!,
      hour: local.hour,
      time: local.toFormat('HH:mm'),
      dayWords: local.setLocale('en-GB').toFormat('cccc d LLLL'),
    };
  });
  return cards.sort((a, b) => a.publishAt.localeCompare(b.publishAt) || a.key.localeCompare(b.key));
}

/** A card's posts on one network: one mark with their count, in the card's order of networks. */
export interface NetworkMarks {
  platform: Platform;
  posts: Post[];
  /** Their status when they agree. */
  status: PostStatus | 'mixed';
}

export function marksOf(posts: Post[]): NetworkMarks[] {
  const byNetwork = new Map<Platform, Post[]>();
  for (const post of posts) byNetwork.set(post.platform, [...(byNetwork.get(post.platform) ?? []), post]);
  return [...byNetwork].map(([platform, together]) => ({
    platform,
    posts: together,
    status: together.every((p) => p.status === together[0]!.status) ? together[0]!.status : 'mixed',
  }));
}

/** The moves of a card's posts to `to` (an instant), each with the post as it was read. */
export function movesOf(card: CalendarCard, to: string) {
  return card.posts.map((p) => ({ postId: p.id, publishAt: to, updatedAt: p.updatedAt }));
}

export interface CalendarFilter {
  /** The accounts of the chosen group. */
  accountIds?: string[];
  accountId?: string;
  network?: Platform;
  status?: PostStatus;
}

export function matches(post: Post, f: CalendarFilter): boolean {
  return (
    (!f.accountIds || f.accountIds.includes(post.accountId)) &&
    (!f.accountId || post.accountId === f.accountId) &&
    (!f.network || post.platform === f.network) &&
    (!f.status || post.status === f.status)
  );
}

/** Cards by day ("2026-12-08"), each day's in time order. */
export function byDay(cards: CalendarCard[]): Map<string, CalendarCard[]> {
  const out = new Map<string, CalendarCard[]>();
  for (const card of cards) {
    const list = out.get(card.day);
    if (list) list.push(card);
    else out.set(card.day, [card]);
  }
  return out;
}

/** The opening words of a text, cut at a word near `max` characters, with an ellipsis when cut. */
export function firstWords(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export type CalendarView = 'month' | 'week' | 'list';

/** The days a view shows around `date`: the month's weeks (Monday to Sunday), a week from Monday, a month. */
export function viewDays(view: CalendarView, date: DateTime): DateTime[] {
  const month = date.startOf('month');
  const [start, end] =
    view === 'month'
      ? [month.startOf('week'), month.endOf('month').endOf('week')]
      : view === 'week'
        ? [date.startOf('week'), date.endOf('week')]
        : [month, month.endOf('month')];
  const count = Math.round(end.diff(start, 'days').days);
  return Array.from({ length: count }, (_, i) => start.plus({ days: i }));
}

/** The view's next or previous page. */
export function stepped(view: CalendarView, date: DateTime, by: 1 | -1): DateTime {
  return view === 'week' ? date.plus({ weeks: by }) : date.plus({ months: by }).startOf('month');
}
