// A calendar move into the past is told before any request, in the workspace zone.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { moveProblem } from './moveCheck.ts';

const now = DateTime.fromISO('2026-11-26T10:00:00Z');

describe('moving a post on the calendar', () => {
  it('says the time has passed, in words in the zone', () => {
    const to = DateTime.fromISO('2026-11-25T09:30:00Z');
    expect(moveProblem(to, 'Europe/Berlin', now)).toBe(
      'yesterday at 10:30 CET has passed. Drag the post to a later time.',
    );
  });

  it('says a time under 2 minutes away is too soon, and lets a later one through', () => {
    expect(moveProblem(now.plus({ seconds: 90 }), 'UTC', now)).toMatch(/is less than 2 minutes away/);
    expect(moveProblem(now.plus({ minutes: 5 }), 'UTC', now)).toBeUndefined();
  });
});
