// `when`: a local time must be at least 2 minutes and at most one year ahead, decided against the
// `now` it is given (the DST gap and overlap rules are in timeZones.test.ts).
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { formatInZone, MIN_LEAD_MS, resolveWhen, zoneLabel } from '../../domain/when.ts';

const NOW = DateTime.fromISO('2027-01-15T12:00:00.000Z', { zone: 'utc' });
/** `when` written in UTC for `now` moved by `ms`, and what it resolves to. */
const at = (ms: number, now = NOW) => {
  const resolved = resolveWhen(
    { publishAt: now.plus(ms).toFormat("yyyy-MM-dd'T'HH:mm"), timezone: 'UTC' },
    now,
    'Europe/Berlin',
  );
  if (resolved.kind !== 'at') throw new Error(`expected a time, got ${resolved.kind}`);
  return resolved;
};
const codes = (r: ReturnType<typeof at>) => r.issues.map((i) => i.code);

describe('when: at least 2 minutes ahead (time_too_soon)', () => {
  it('passes exactly 2 minutes ahead and refuses a millisecond less, naming when.publishAt', () => {
    expect(codes(at(MIN_LEAD_MS))).toEqual([]);
    const soon = at(MIN_LEAD_MS, NOW.plus(1));
    expect(codes(soon)).toEqual(['time_too_soon']);
    expect(soon.issues[0]!.message).toBe('when.publishAt 15 January, 13:02 (CET) is less than 2 minutes ahead.');
  });
  it('says a time before now is in the past', () => {
    expect(at(-60_000).issues[0]!.message).toBe('when.publishAt 15 January, 12:59 (CET) is in the past.');
  });
});

describe('when: at most one year ahead (time_too_far)', () => {
  it('passes exactly one year ahead and refuses a minute more', () => {
    expect(codes(at(NOW.plus({ years: 1 }).diff(NOW).toMillis()))).toEqual([]);
    const far = at(NOW.plus({ years: 1, minutes: 1 }).diff(NOW).toMillis());
    expect(codes(far)).toEqual(['time_too_far']);
    expect(far.issues[0]!.message).toBe('when.publishAt 15 January, 13:01 (CET) is more than one year ahead.');
  });
  it('counts a year by the calendar across 29 February', () => {
    const leap = DateTime.fromISO('2028-02-29T12:00:00.000Z', { zone: 'utc' });
    expect(codes(at(leap.plus({ years: 1 }).diff(leap).toMillis(), leap))).toEqual([]);
  });
});

describe('when: now and draft', () => {
  it('publishes now at the given instant and keeps a draft without time', () => {
    expect(resolveWhen('now', NOW, 'Europe/Berlin')).toEqual({ kind: 'now', at: NOW });
    expect(resolveWhen('draft', NOW, 'Europe/Berlin')).toEqual({ kind: 'draft' });
  });
});

describe('formatInZone: day, month and time in the zone, as luxon writes them', () => {
  it('matches luxon every quarter hour around the clock changes, in zones with odd offsets and fixed ones', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Pacific/Kiritimati', 'Australia/Lord_Howe'];
    const starts = [
      '2026-03-29T00:00Z',
      '2026-10-25T00:00Z',
      '2026-03-08T06:00Z',
      '2026-11-01T05:00Z',
      '2026-04-04T14:00Z',
    ];
    for (const zone of [...zones, 'UTC', 'utc', 'Etc/GMT-14', 'UTC+3']) {
      for (const start of starts) {
        for (let minutes = 0; minutes < 180; minutes += 15) {
          const instant = DateTime.fromISO(start, { zone: 'utc' }).plus({ minutes });
          const local = instant.setZone(zone);
          const luxon = `${local.setLocale('en-GB').toFormat('d LLLL, HH:mm')} (${zoneLabel(local)})`;
          expect(formatInZone(instant, zone), `${zone} ${instant.toISO()}`).toBe(luxon);
          expect(formatInZone(instant.toMillis(), zone), `${zone} ${instant.toISO()} as milliseconds`).toBe(luxon);
        }
      }
    }
    expect(formatInZone(DateTime.fromISO('2026-01-05T23:05Z', { zone: 'utc' }), 'Europe/Berlin')).toBe(
      '6 January, 00:05 (CET)',
    );
  });

  it('matches luxon at every hour and a half of a year, through each clock change, in zones that have them', () => {
    const start = DateTime.fromISO('2026-01-01T00:17Z', { zone: 'utc' });
    for (const zone of ['Europe/Berlin', 'America/Santiago', 'Australia/Lord_Howe', 'Pacific/Chatham']) {
      for (let minutes = 0; minutes < 366 * 24 * 60; minutes += 90) {
        const local = start.plus({ minutes }).setZone(zone);
        const luxon = `${local.setLocale('en-GB').toFormat('d LLLL, HH:mm')} (${zoneLabel(local)})`;
        expect(formatInZone(local.toMillis(), zone), `${zone} ${local.toISO()}`).toBe(luxon);
      }
    }
  });
});
