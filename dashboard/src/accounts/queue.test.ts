// An account's queue as its page lists it: the queued posts and the free posting times between, in time order by
// day, and what one step earlier or later reaches (a post to swap with, or a free time).
import { describe, expect, it } from 'vitest';
import type { Post } from '../api.ts';
import { byLocalDay, localWhen, queueEntries, stepTarget } from './queue.ts';

const zone = 'Europe/Berlin';
const now = Date.parse('2026-03-23T06:00:00Z'); // Monday 07:00 CET
const post = (id: string, publishAt: string, status: Post['status'] = 'queued') =>
  ({ id, publishAt, status, text: id, platform: 'threads' }) as Post;
const slots = [
  { day: 'mon' as const, time: '09:00' },
  { day: 'tue' as const, time: '09:00' },
  { day: 'wed' as const, time: '09:00' },
];

describe('the queue of an account', () => {
  it('lists the posts and the free posting times of the coming days in order, a post on a slot once', () => {
    const onSlot = post('a', '2026-03-24T08:00:00.000Z');
    const between = post('b', '2026-03-23T12:30:00.000Z');
    const later = post('c', '2026-04-20T08:00:00.000Z');
    const entries = queueEntries([onSlot, between, later], slots, zone, now, 3);
    expect(entries.map((e) => [e.at, e.post?.id])).toEqual([
      ['2026-03-23T08:00:00.000Z', undefined],
      ['2026-03-23T12:30:00.000Z', 'b'],
      ['2026-03-24T08:00:00.000Z', 'a'],
      ['2026-03-25T08:00:00.000Z', undefined],
    ]);
    expect(byLocalDay(entries, zone).map(([day, list]) => [day, list.length])).toEqual([
      ['2026-03-23', 2],
      ['2026-03-24', 1],
      ['2026-03-25', 1],
    ]);
  });

  it('moves one step to the neighbour, post or free time, and nowhere past either end', () => {
    const entries = queueEntries([post('a', '2026-03-24T08:00:00.000Z')], slots, zone, now, 3);
    expect(stepTarget(entries, 'a', -1)).toEqual({ at: '2026-03-23T08:00:00.000Z' });
    expect(stepTarget(entries, 'a', 1)).toEqual({ at: '2026-03-25T08:00:00.000Z' });
    expect(stepTarget(entries.slice(1), 'a', -1)).toBeUndefined();
    expect(stepTarget(entries, 'missing', 1)).toBeUndefined();
  });

  it('gives a free time to reschedule as its local time in the zone', () => {
    expect(localWhen('2026-03-29T07:00:00.000Z', zone)).toEqual({ publishAt: '2026-03-29T09:00', timezone: zone });
  });
});
