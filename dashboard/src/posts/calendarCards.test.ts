// What the calendar shows: posts made by one create call share a card until one of them is moved; filters; the days
// of each view in the zone; the first words of a text.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { Post } from '../api.ts';
import { byDay, cardsOf, firstWords, marksOf, matches, movesOf, viewDays } from './calendarCards.ts';

const post = (id: string, over: Partial<Post>): Post => ({
  id,
  batchId: 'bat_a',
  accountId: 'acc_a',
  platform: 'instagram',
  status: 'queued',
  statusLine: '',
  publishAt: '2026-12-08T08:15:00.000Z',
  text: 'Winter menu',
  title: null,
  tags: [],
  mediaIds: [],
  perPlatform: {},
  createdVia: 'dashboard',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

describe('calendar cards', () => {
  it('puts the posts of one creation at one time on one card, in the zone, in time order', () => {
    const cards = cardsOf(
      [
        post('p1', { accountId: 'acc_a' }),
        post('p2', { accountId: 'acc_b', platform: 'threads' }),
        // The same creation, moved to another time: a card of its own.
        post('p3', { accountId: 'acc_c', publishAt: '2026-12-08T07:00:00.000Z' }),
        // Another creation at the same time.
        post('p4', { batchId: 'bat_b' }),
        // A draft has no place on a calendar.
        post('p5', { status: 'draft', publishAt: null }),
      ],
      'Europe/Berlin',
    );
    expect(cards.map((c) => c.posts.map((p) => p.id))).toEqual([['p3'], ['p1', 'p2'], ['p4']]);
    expect(cards[1]).toMatchObject({ day: '2026-12-08', hour: 9, time: '09:15' });
  });

  it('shows one mark per network with its posts, and moves every post of a card as it was read', () => {
    const facebook = Array.from({ length: 10 }, (_, i) =>
      post(`f${i}`, { platform: 'facebook', accountId: `acc_${i}` }),
    );
    const card = cardsOf(
      [...facebook, post('i1', { status: 'live' }), post('f10', { platform: 'facebook' })],
      'UTC',
    )[0]!;
    expect(card.dayWords).toBe('Tuesday 8 December');
    expect(marksOf(card.posts).map((m) => [m.platform, m.posts.length, m.status])).toEqual([
      ['facebook', 11, 'queued'],
      ['instagram', 1, 'live'],
    ]);
    expect(marksOf([post('a', {}), post('b', { status: 'failed' })])[0]!.status).toBe('mixed');
    expect(movesOf(card, '2026-12-09T13:00:00.000Z')[0]).toEqual({
      postId: 'f0',
      publishAt: '2026-12-09T13:00:00.000Z',
      updatedAt: '2026-11-20T10:00:00.000Z',
    });
  });

  it('files a card under its day in the zone, not in UTC', () => {
    const days = byDay(cardsOf([post('p1', { publishAt: '2026-12-08T23:30:00.000Z' })], 'Europe/Berlin'));
    expect([...days.keys()]).toEqual(['2026-12-09']);
  });

  it('keeps the posts of the chosen group, account, network and status', () => {
    const p = post('p1', { accountId: 'acc_b', platform: 'threads', status: 'live' });
    expect(matches(p, {})).toBe(true);
    expect(matches(p, { accountIds: ['acc_a', 'acc_b'], network: 'threads', status: 'live' })).toBe(true);
    expect(matches(p, { accountIds: ['acc_a'] })).toBe(false);
    expect(matches(p, { accountId: 'acc_a' })).toBe(false);
    expect(matches(p, { network: 'instagram' })).toBe(false);
    expect(matches(p, { status: 'queued' })).toBe(false);
  });
});

describe('calendar views', () => {
  const date = DateTime.fromISO('2026-12-17', { zone: 'Europe/Berlin' });
  const iso = (days: DateTime[]) => [days[0]!.toISODate(), days.at(-1)!.toISODate(), days.length];

  it('shows the weeks of the month from Monday, one week, or the month as a list', () => {
    expect(iso(viewDays('month', date))).toEqual(['2026-11-30', '2027-01-03', 35]);
    expect(iso(viewDays('week', date))).toEqual(['2026-12-14', '2026-12-20', 7]);
    expect(iso(viewDays('list', date))).toEqual(['2026-12-01', '2026-12-31', 31]);
    // March 2026 starts on a Sunday and spans six weeks; the week of the clock change has seven days.
    expect(viewDays('month', DateTime.fromISO('2026-03-10', { zone: 'Europe/Berlin' }))).toHaveLength(42);
    expect(viewDays('week', DateTime.fromISO('2026-03-29', { zone: 'Europe/Berlin' }))).toHaveLength(7);
  });
});

describe('first words', () => {
  it('keeps a short text whole and cuts a long one at a word', () => {
    expect(firstWords('  Fresh\nsourdough  ')).toBe('Fresh sourdough');
    expect(firstWords('Winter menu tasting this Friday: six courses', 24)).toBe('Winter menu tasting…');
  });
});
