// Time zones: a local `when` read in its IANA zone, shown in the workspace zone with the zone's
// label, across the DST changes of Europe/Berlin, America/New_York and Australia/Lord_Howe (a
// 30-minute shift) and in Asia/Kolkata (no DST, +05:30). Expected instants are computed here from
// offsets known for those dates, with plain Date arithmetic, never with domain/when.ts.
import { DateTime, Settings } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../domain/errors.ts';
import { formatInZone, localToInstant, resolveWhen, zoneLabel } from '../domain/when.ts';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { nextClockChanges, type ClockChange } from './support/posts.ts';

interface Offset {
  minutes: number;
  label: string;
}
interface ZoneSpec {
  zone: string;
  city: string;
  standard: Offset;
  /** Daylight saving time and the month (1 or 7) in which it is in force; none for Kolkata. */
  daylight?: Offset & { month: 1 | 7 };
}

const ZONES: ZoneSpec[] = [
  {
    zone: 'Europe/Berlin',
    city: 'Berlin',
    standard: { minutes: 60, label: 'CET' },
    daylight: { minutes: 120, label: 'CEST', month: 7 },
  },
  {
    zone: 'America/New_York',
    city: 'New York',
    standard: { minutes: -300, label: 'EST' },
    daylight: { minutes: -240, label: 'EDT', month: 7 },
  },
  { zone: 'Asia/Kolkata', city: 'Kolkata', standard: { minutes: 330, label: 'IST' } },
  {
    zone: 'Australia/Lord_Howe',
    city: 'Lord Howe',
    standard: { minutes: 630, label: 'LHST' },
    daylight: { minutes: 660, label: 'LHDT', month: 1 },
  },
];

const offsetIn = (spec: ZoneSpec, month: 1 | 7): Offset =>
  spec.daylight?.month === month ? spec.daylight : spec.standard;

// ---- wall times, by hand: a wall time is held as the UTC milliseconds of the same fields.
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const pad = (n: number) => String(n).padStart(2, '0');

function parseWall(local: string): number {
  const [y, mo, d, h, mi] = local.split(/[-T:]/).map(Number) as [number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi);
}
function wallText(wall: number): string {
  const t = new Date(wall);
  const date = `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  return `${date}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`;
}
/** `15 January, 14:30 (CET)`, the form of the table and the statusLine. */
function shown(wall: number, label: string): string {
  const t = new Date(wall);
  return `${t.getUTCDate()} ${MONTHS[t.getUTCMonth()]}, ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())} (${label})`;
}
const instantOf = (wall: number, offset: Offset) => new Date(wall - offset.minutes * 60_000).toISOString();
const wallOf = (instantMs: number, offset: Offset) => instantMs + offset.minutes * 60_000;

/** A day of `month` (1 or 7) at `time`, more than 3 days and less than 360 days ahead. */
function dayIn(month: 1 | 7, time: string): number {
  const year = new Date().getUTCFullYear();
  const [h, mi] = time.split(':').map(Number) as [number, number];
  for (const y of [year, year + 1]) {
    for (let d = 1; d <= 31; d++) {
      const wall = Date.UTC(y, month - 1, d, h, mi);
      if (wall > Date.now() + 3 * 86_400_000 && wall < Date.now() + 360 * 86_400_000) return wall;
    }
  }
  throw new Error('unreachable: some day of every month lies within the next year');
}

/**
 * The zone's next gap and overlap, from nextClockChanges. It looks 2 to 360 days ahead of `from`; two
 * looks (from just now, and from 5 days on) cover the whole coming year, so that no day of the year
 * leaves a change out.
 */
function clockChanges(zone: string): ClockChange[] {
  const now = DateTime.utc();
  const found = [
    ...nextClockChanges(zone, now.minus({ days: 2 }).plus({ hours: 1 })),
    ...nextClockChanges(zone, now.plus({ days: 5 })),
  ];
  return (['gap', 'overlap'] as const).flatMap((kind) => found.filter((c) => c.kind === kind).slice(0, 1));
}

interface Row {
  accountId: string;
  publishAt: string;
  ok: boolean;
  issues: { code: string; message: string; hint: string }[];
}

describe.each(DATABASES)('time zones on %s', (kind) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startHerald(kind);
  });
  afterAll(() => env.close());

  describe.each(ZONES.map((spec, i) => ({ ...spec, other: ZONES[(i + 1) % ZONES.length]! })))(
    'workspace in $zone',
    (spec) => {
      let ws: Seeded;
      let account: string;
      const name = `Acme ${spec.city}`;

      beforeAll(async () => {
        ws = await seedWorkspace(env, { plan: 'creator', tz: spec.zone });
        account = await addAccount(env, ws.workspaceId, 'threads', name);
      });

      const body = (local: number | string, zone = spec.zone) => ({
        targets: { accountIds: [account] },
        mediaIds: [],
        text: 'Autumn sale',
        when: { publishAt: typeof local === 'string' ? local : wallText(local), timezone: zone },
      });
      async function plan(local: number | string, zone = spec.zone): Promise<{ row: Row; line: string }> {
        const res = await call(env, 'post', '/v1/posts/plan', { key: ws.readKey, body: body(local, zone) });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.rows).toHaveLength(1);
        return { row: res.body.rows[0], line: res.body.table.split('\n')[1] };
      }
      async function create(local: number | string, zone = spec.zone) {
        return call(env, 'post', '/v1/posts', { key: ws.writeKey, body: { ...body(local, zone), confirm: true } });
      }
      const queuedLine = (wall: number, label: string) => `Queued. Threads · ${name} · ${shown(wall, label)}.`;

      it("reads 14:30 local in January and in July as the UTC instant of that month's offset", async () => {
        for (const month of [1, 7] as const) {
          const wall = dayIn(month, '14:30');
          const offset = offsetIn(spec, month);
          const { row, line } = await plan(wall);
          expect(row).toEqual({
            accountId: account,
            platform: 'threads',
            publishAt: instantOf(wall, offset),
            ok: true,
            issues: [],
            settings: {},
          });
          expect(line).toContain(`  ${shown(wall, offset.label)}  `);
        }
      });

      it('gives the created post the exact statusLine in the workspace zone and its label', async () => {
        for (const month of [1, 7] as const) {
          const wall = dayIn(month, '09:05');
          const offset = offsetIn(spec, month);
          const res = await create(wall);
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          expect(res.body.posts).toEqual([
            { id: expect.any(String), status: 'queued', statusLine: queuedLine(wall, offset.label) },
          ]);
          const post = await call(env, 'get', `/v1/posts/${res.body.posts[0].id}`, { key: ws.readKey });
          expect(post.body).toMatchObject({
            publishAt: instantOf(wall, offset),
            statusLine: queuedLine(wall, offset.label),
          });
        }
      });

      it('shows a time written in another zone in the workspace zone', async () => {
        const written = dayIn(1, '09:00');
        const instant = written - offsetIn(spec.other, 1).minutes * 60_000;
        const local = wallOf(instant, offsetIn(spec, 1));
        const label = offsetIn(spec, 1).label;
        const { row, line } = await plan(written, spec.other.zone);
        expect(row.publishAt).toBe(new Date(instant).toISOString());
        expect(line).toContain(`  ${shown(local, label)}  `);
        const res = await create(written, spec.other.zone);
        expect(res.status).toBe(201);
        expect(res.body.posts[0].statusLine).toBe(queuedLine(local, label));
      });

      const daylight = spec.daylight;
      if (!daylight) {
        it('has no clock changes: +05:30 applies all year', async () => {
          expect(nextClockChanges(spec.zone)).toEqual([]);
          expect(clockChanges(spec.zone)).toEqual([]);
          for (const month of [1, 7] as const) {
            const wall = dayIn(month, '00:15'); // 18:45 UTC on the day before
            const { row, line } = await plan(wall);
            expect(row.publishAt).toBe(instantOf(wall, { minutes: 330, label: 'IST' }));
            expect(row.publishAt).toMatch(/T18:45:00\.000Z$/);
            expect(line).toContain(shown(wall, 'IST'));
          }
        });
        it('answers 400 invalid_request for 24:00, a malformed time rather than a skipped one', async () => {
          const res = await call(env, 'post', '/v1/posts/plan', {
            key: ws.readKey,
            body: body(`${wallText(dayIn(1, '00:00')).slice(0, 10)}T24:00`),
          });
          expect(res.status).toBe(400);
          expect(res.body).toMatchObject({
            code: 'invalid_request',
            message: expect.stringContaining('is not a calendar date and time'),
          });
        });
        return;
      }

      const len = daylight.minutes - spec.standard.minutes; // 60, or 30 on Lord Howe
      const changes = clockChanges(spec.zone);
      const gap = changes.find((c) => c.kind === 'gap')!;
      const overlap = changes.find((c) => c.kind === 'overlap')!;

      it('changes its clocks twice within the next year: one gap, one overlap', () => {
        expect(changes.map((c) => c.kind).sort()).toEqual(['gap', 'overlap']);
      });

      it('refuses a time in the next gap with time_nonexistent; the row is not ok and nothing is created', async () => {
        const { row, line } = await plan(gap.local);
        expect(row.ok).toBe(false);
        expect(row.issues.map((i) => i.code)).toEqual(['time_nonexistent']);
        expect(row.issues[0]!.message).toContain(`when.publishAt ${gap.local} does not exist in ${spec.zone}`);
        expect(line).toContain('time_nonexistent: ');
        const before = (await call(env, 'get', '/v1/posts', { key: ws.readKey })).body.posts.length;
        const res = await create(gap.local);
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({
          code: 'checks_failed',
          rows: [{ ok: false, issues: [expect.objectContaining({ code: 'time_nonexistent' })] }],
        });
        expect((await call(env, 'get', '/v1/posts', { key: ws.readKey })).body.posts).toHaveLength(before);
      });

      it('takes the earlier instant of a time in the next overlap, notes time_ambiguous; the row is ok', async () => {
        const wall = parseWall(overlap.local);
        const earlier = instantOf(wall, daylight); // the first pass, still on daylight time
        expect(overlap.earlierUtc).toBe(earlier);
        const { row, line } = await plan(overlap.local);
        expect(row.ok).toBe(true);
        expect(row.publishAt).toBe(earlier);
        expect(row.issues.map((i) => i.code)).toEqual(['time_ambiguous']);
        expect(row.issues[0]!.message).toContain(`the earlier one was taken: ${shown(wall, daylight.label)}`);
        expect(line).toMatch(
          new RegExp(`  ${shown(wall, daylight.label).replace(/[()]/g, '\\$&')}  ok \\(time_ambiguous\\)$`),
        );
        const res = await create(overlap.local);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body.posts[0].statusLine).toBe(queuedLine(wall, daylight.label));
      });

      it('reads times just around the gap and the overlap with the offset then in force', async () => {
        const cases: [number, Offset][] = [
          [parseWall(gap.local) - len * 60_000, spec.standard],
          [parseWall(gap.local) + len * 60_000, daylight],
          [parseWall(overlap.local) - len * 60_000, daylight],
          [parseWall(overlap.local) + len * 60_000, spec.standard],
        ];
        for (const [wall, offset] of cases) {
          const { row, line } = await plan(wall);
          expect(row, wallText(wall)).toMatchObject({ ok: true, issues: [], publishAt: instantOf(wall, offset) });
          expect(line).toContain(shown(wall, offset.label));
        }
      });
    },
  );
});

describe('localToInstant (domain/when.ts), on fixed dates of 2027', () => {
  const cases: [string, string, string | undefined, boolean?][] = [
    // Berlin: CET +1, CEST +2; clocks forward 28 March 02:00 -> 03:00, back 31 October 03:00 -> 02:00.
    ['Europe/Berlin', '2027-01-15T14:30', '2027-01-15T13:30:00.000Z'],
    ['Europe/Berlin', '2027-07-15T14:30', '2027-07-15T12:30:00.000Z'],
    ['Europe/Berlin', '2027-03-28T01:59', '2027-03-28T00:59:00.000Z'],
    ['Europe/Berlin', '2027-03-28T02:00', undefined],
    ['Europe/Berlin', '2027-03-28T02:59', undefined],
    ['Europe/Berlin', '2027-03-28T03:00', '2027-03-28T01:00:00.000Z'],
    ['Europe/Berlin', '2027-10-31T01:59', '2027-10-30T23:59:00.000Z'],
    ['Europe/Berlin', '2027-10-31T02:00', '2027-10-31T00:00:00.000Z', true],
    ['Europe/Berlin', '2027-10-31T02:59', '2027-10-31T00:59:00.000Z', true],
    ['Europe/Berlin', '2027-10-31T03:00', '2027-10-31T02:00:00.000Z'],
    // New York: EST -5, EDT -4; forward 14 March 02:00 -> 03:00, back 7 November 02:00 -> 01:00.
    ['America/New_York', '2027-01-15T14:30', '2027-01-15T19:30:00.000Z'],
    ['America/New_York', '2027-03-14T01:59', '2027-03-14T06:59:00.000Z'],
    ['America/New_York', '2027-03-14T02:30', undefined],
    ['America/New_York', '2027-03-14T03:00', '2027-03-14T07:00:00.000Z'],
    ['America/New_York', '2027-11-07T00:59', '2027-11-07T04:59:00.000Z'],
    ['America/New_York', '2027-11-07T01:30', '2027-11-07T05:30:00.000Z', true],
    ['America/New_York', '2027-11-07T02:00', '2027-11-07T07:00:00.000Z'],
    // Kolkata: +05:30 all year.
    ['Asia/Kolkata', '2027-01-15T00:15', '2027-01-14T18:45:00.000Z'],
    ['Asia/Kolkata', '2027-07-15T14:30', '2027-07-15T09:00:00.000Z'],
    // Lord Howe: LHST +10:30, LHDT +11; back 4 April 02:00 -> 01:30, forward 3 October 02:00 -> 02:30.
    ['Australia/Lord_Howe', '2027-01-15T14:30', '2027-01-15T03:30:00.000Z'],
    ['Australia/Lord_Howe', '2027-07-15T14:30', '2027-07-15T04:00:00.000Z'],
    ['Australia/Lord_Howe', '2027-04-04T01:29', '2027-04-03T14:29:00.000Z'],
    ['Australia/Lord_Howe', '2027-04-04T01:30', '2027-04-03T14:30:00.000Z', true],
    ['Australia/Lord_Howe', '2027-04-04T01:59', '2027-04-03T14:59:00.000Z', true],
    ['Australia/Lord_Howe', '2027-04-04T02:00', '2027-04-03T15:30:00.000Z'],
    ['Australia/Lord_Howe', '2027-10-03T01:59', '2027-10-02T15:29:00.000Z'],
    ['Australia/Lord_Howe', '2027-10-03T02:00', undefined],
    ['Australia/Lord_Howe', '2027-10-03T02:29', undefined],
    ['Australia/Lord_Howe', '2027-10-03T02:30', '2027-10-02T15:30:00.000Z'],
  ];
  it.each(cases)('%s %s -> %s', (zone, local, utc, ambiguous = false) => {
    const found = localToInstant(local, zone);
    if (utc === undefined) {
      expect(found).toBeUndefined();
    } else {
      expect(found?.at.toISO()).toBe(utc);
      expect(found?.ambiguous).toBe(ambiguous);
    }
  });

  it('refuses a malformed time or a date that does not exist with 400 invalid_request', () => {
    for (const local of [
      '2027-01-15 14:30',
      '2027-1-15T14:30',
      '2027-01-15T14:30:00',
      '2027-01-15T14:30+01:00',
      '2027-02-30T10:00',
      '2027-01-15T24:00',
    ]) {
      let thrown: unknown;
      try {
        localToInstant(local, 'Europe/Berlin');
      } catch (err) {
        thrown = err;
      }
      expect(thrown, local).toBeInstanceOf(ApiError);
      expect((thrown as ApiError).status).toBe(400);
      expect((thrown as ApiError).code).toBe('invalid_request');
      expect((thrown as ApiError).message).toContain('when.publishAt');
    }
  });
});

describe('zoneLabel and formatInZone (domain/when.ts)', () => {
  const at = (month: 1 | 7, zone: string) => DateTime.fromMillis(Date.UTC(2027, month - 1, 15, 12)).setZone(zone);
  it.each(ZONES)('labels $zone in January and July', (spec) => {
    for (const month of [1, 7] as const) expect(zoneLabel(at(month, spec.zone))).toBe(offsetIn(spec, month).label);
  });
  it('falls back to the offset for a zone without a known abbreviation', () => {
    expect(zoneLabel(at(1, 'Asia/Tokyo'))).toBe('GMT+9');
    expect(zoneLabel(at(7, 'UTC'))).toBe('UTC');
  });
  it('formats an instant as `d MMMM, HH:mm (label)` in the given zone', () => {
    const instant = DateTime.fromISO('2027-01-15T13:30:00.000Z', { zone: 'utc' });
    expect(formatInZone(instant, 'Europe/Berlin')).toBe('15 January, 14:30 (CET)');
    expect(formatInZone(instant, 'Australia/Lord_Howe')).toBe('16 January, 00:30 (LHDT)');
    expect(formatInZone(instant, 'America/New_York')).toBe('15 January, 08:30 (EST)');
    expect(formatInZone(instant, 'Asia/Kolkata')).toBe('15 January, 19:00 (IST)');
  });
});

describe("resolveWhen: the answer never depends on today's date", () => {
  const original = Settings.now;
  afterEach(() => {
    Settings.now = original;
  });
  const JULY = Date.UTC(2026, 6, 15, 10);
  const DECEMBER = Date.UTC(2026, 11, 15, 10);

  function resolveOn(today: number, publishAt: string, timezone: string) {
    Settings.now = () => today;
    expect(DateTime.now().toMillis()).toBe(today);
    const resolved = resolveWhen({ publishAt, timezone }, DateTime.utc(), 'Europe/Berlin');
    Settings.now = original;
    if (resolved.kind !== 'at') throw new Error(`expected a time, got ${resolved.kind}`);
    return resolved;
  }

  // Luxon's own reading of an overlap follows the zone's offset on "today" (see the stack notes, §7).
  it.each([
    ['Europe/Berlin', '2027-10-31T02:30', '2027-10-31T00:30:00.000Z'],
    ['America/New_York', '2027-11-07T01:30', '2027-11-07T05:30:00.000Z'],
    ['Australia/Lord_Howe', '2027-04-04T01:45', '2027-04-03T14:45:00.000Z'],
  ])('%s %s: the earlier instant %s whether today is in July or in December', (zone, local, earlier) => {
    const inJuly = resolveOn(JULY, local, zone);
    const inDecember = resolveOn(DECEMBER, local, zone);
    expect(inJuly.at.toISO()).toBe(earlier);
    expect(inDecember.at.toISO()).toBe(earlier);
    expect(inJuly.notes.map((n) => n.code)).toEqual(['time_ambiguous']);
    expect(inDecember.notes).toEqual(inJuly.notes);
  });

  it('refuses a gap time whether today is in July or in December', () => {
    for (const today of [JULY, DECEMBER]) {
      const resolved = resolveOn(today, '2027-03-28T02:30', 'Europe/Berlin');
      expect(resolved.issues.map((i) => i.code)).toEqual(['time_nonexistent']);
    }
  });

  it('refuses an unknown zone with 400 invalid_request', () => {
    expect(() =>
      resolveWhen({ publishAt: '2027-01-15T14:30', timezone: 'Mars/Olympus_Mons' }, DateTime.utc(), 'Europe/Berlin'),
    ).toThrow(expect.objectContaining({ status: 400, code: 'invalid_request' }));
  });
});
