// The time input's value: now, draft, the queue, or a local date and time in the workspace zone.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { defaultWhen, whenOf } from './when.ts';

describe('when', () => {
  it('gives now, draft and the queue as they are, and a local time with the workspace zone', () => {
    expect(whenOf({ mode: 'now', date: '', time: '' }, 'Europe/Berlin')).toEqual({ when: 'now' });
    expect(whenOf({ mode: 'draft', date: '', time: '' }, 'Europe/Berlin')).toEqual({ when: 'draft' });
    expect(whenOf({ mode: 'queue', date: '', time: '' }, 'Europe/Berlin')).toEqual({ when: 'queue' });
    expect(whenOf({ mode: 'at', date: '2026-11-24', time: '14:30' }, 'Europe/Berlin')).toEqual({
      when: { publishAt: '2026-11-24T14:30', timezone: 'Europe/Berlin' },
    });
  });

  it('says what is missing instead of sending a half-filled time', () => {
    expect(whenOf({ mode: 'at', date: '', time: '14:30' }, 'UTC')).toEqual({ problem: 'Pick a date.' });
    expect(whenOf({ mode: 'at', date: '2026-11-24', time: '' }, 'UTC')).toEqual({ problem: 'Pick a time.' });
  });

  it('starts at the next quarter hour at least 15 minutes ahead, in the workspace zone', () => {
    const now = DateTime.fromISO('2026-11-23T23:52:00Z');
    expect(defaultWhen('Europe/Berlin', now)).toEqual({ mode: 'at', date: '2026-11-24', time: '01:15' });
    expect(defaultWhen('America/New_York', now)).toEqual({ mode: 'at', date: '2026-11-23', time: '19:15' });
  });
});
