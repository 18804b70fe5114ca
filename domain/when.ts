// `when` of a plan or create request: `now`, `draft`, or a local time in an IANA zone. Gaps (clocks
// forward) are refused and overlaps (clocks back) take the earlier instant, decided from the zone's
// rules alone, so the answer never depends on today's date (luxon's own guess would).
import { DateTime, Info } from 'luxon';
import { invalidRequest } from './errors.ts';
import type { Issue } from './issues.ts';

export type When = 'now' | 'draft' | 'queue' | { publishAt: string; timezone: string };

export const MIN_LEAD_MS = 2 * 60_000;

export type ResolvedWhen =
  | { kind: 'draft' }
  | { kind: 'now'; at: DateTime }
  /** Each account's next free posting time (domain/postingQueue.ts): `at` by account id, absent when it has none. */
  | { kind: 'queue'; at: Map<string, DateTime> }
  /** `issues` fail every row (too soon, too far, nonexistent); `notes` inform (ambiguous). */
  | { kind: 'at'; at: DateTime; issues: Issue[]; notes: Issue[] };

/** The instant of a local wall time in `zone`; undefined when that time does not exist there. */
export function localToInstant(local: string, zone: string): { at: DateTime; ambiguous: boolean } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) throw invalidRequest(`\`when.publishAt\` must be a local time like 2026-11-24T14:30; got "${local}".`);
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  const guess = DateTime.fromObject({ year, month, day, hour, minute }, { zone });
  // Luxon reads 24:00 as the next midnight; it is not a time of this date, so it is malformed, not a gap.
  if (!guess.isValid || hour > 23)
    throw invalidRequest(`\`when.publishAt\` "${local}" is not a calendar date and time.`);
  const wall = (dt: DateTime) =>
    dt.year === year && dt.month === month && dt.day === day && dt.hour === hour && dt.minute === minute;
  const candidates = guess.getPossibleOffsets().filter(wall);
  if (candidates.length === 0) return undefined;
  const earliest = candidates.reduce((a, b) => (b.toMillis() < a.toMillis() ? b : a));
  return { at: earliest.toUTC(), ambiguous: candidates.length > 1 };
}

const knownZones = new Map<string, boolean>();

/** luxon builds an Intl formatter for every validity check; zones do not change while we run. */
export function isValidZone(zone: string): boolean {
  let valid = knownZones.get(zone);
  if (valid === undefined) {
    valid = Info.isValidIANAZone(zone);
    if (knownZones.size < 1000) knownZones.set(zone, valid);
  }
  return valid;
}

export function resolveWhen(
  when: Exclude<When, 'queue'>,
  now: DateTime,
  workspaceZone: string,
): Exclude<ResolvedWhen, { kind: 'queue' }> {
  if (when === 'draft') return { kind: 'draft' };
  if (when === 'now') return { kind: 'now', at: now };
  if (!isValidZone(when.timezone)) {
    throw invalidRequest(
      `\`when.timezone\` "${when.timezone}" is not an IANA time zone.`,
      'Use a zone such as Europe/Berlin or America/New_York.',
    );
  }
  const resolved = localToInstant(when.publishAt, when.timezone);
  const shown = (dt: DateTime) => formatInZone(dt, workspaceZone);
  if (!resolved) {
    const issue: Issue = {
      code: 'time_nonexistent',
      message: `when.publishAt ${when.publishAt} does not exist in ${when.timezone}: the clocks skip that hour.`,
      hint: 'Pick a time outside the skipped hour, for example one hour later.',
    };
    return { kind: 'at', at: now, issues: [issue], notes: [] };
  }
  const { at, ambiguous } = resolved;
  const notes: Issue[] = [];
  if (ambiguous) {
    notes.push({
      code: 'time_ambiguous',
      message:
        `when.publishAt ${when.publishAt} occurs twice in ${when.timezone}; the earlier one was taken: ` +
        `${shown(at)}.`,
      hint: 'To publish at the later one, pick the time one hour after it, or give the time in another zone.',
    });
  }
  return { kind: 'at', at, issues: timeIssues(at, now, workspaceZone, 'when.publishAt'), notes };
}

/** An instant as RFC 3339 writes it (`2026-11-24T13:30:00Z`, a four-digit year and an offset). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * An ISO 8601 instant a person or client sent, or undefined: JavaScript's Date takes years up to ±275760 (and
 * more shapes besides), which no formatter can write in a zone: such a year is refused here, not met as a 500 later.
 */
export function parseInstant(text: unknown): DateTime | undefined {
  if (typeof text !== 'string' || !INSTANT.test(text)) return undefined;
  const at = DateTime.fromISO(text, { zone: 'utc' });
  return at.isValid ? at : undefined;
}

/** Too soon (past or under 2 minutes ahead) or too far (over a year): `field` names the time in the message. */
export function timeIssues(at: DateTime, now: DateTime, zone: string, field: string): Issue[] {
  const shown = formatInZone(at, zone);
  if (at.toMillis() < now.toMillis() + MIN_LEAD_MS) {
    const gap = at < now ? 'is in the past' : 'is less than 2 minutes ahead';
    return [
      {
        code: 'time_too_soon',
        message: `${field} ${shown} ${gap}.`,
        hint: 'Pick a time at least 2 minutes ahead, or use when: "now".',
        field,
      },
    ];
  }
  if (at > now.plus({ years: 1 }))
    return [
      {
        code: 'time_too_far',
        message: `${field} ${shown} is more than one year ahead.`,
        hint: 'Pick a time within the next 12 months, or save a draft.',
        field,
      },
    ];
  return [];
}

const LABEL_LOCALES = ['en-GB', 'en-US', 'en-IN', 'en-AU'];
const labels = new Map<string, string>();

/** A short zone label people know (CET, EST, IST, LHDT), else the offset (GMT+9). */
export function zoneLabel(dt: DateTime): string {
  const cacheKey = `${dt.zoneName}|${dt.offset}`;
  let label = labels.get(cacheKey);
  if (!label) {
    const names = LABEL_LOCALES.map((locale) => dt.setLocale(locale).offsetNameShort ?? '');
    label = names.find((name) => name && !/^(GMT|UTC)[+-]/.test(name)) ?? names[0] ?? dt.toFormat('ZZ');
    labels.set(cacheKey, label);
  }
  return label;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat | null>();

/**
 * One Intl formatter per zone, for the zone's offset at an instant (`GMT+01:00`); null for zones Intl does not
 * know (luxon's own fixed offsets, such as UTC+3).
 */
function offsetFormat(zone: string): Intl.DateTimeFormat | null {
  let format = offsetFormats.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'longOffset' });
    } catch {
      format = null;
    }
    offsetFormats.set(zone, format);
  }
  return format;
}

/** Zone labels by zone and offset, so a known offset needs no luxon DateTime. */
const labelsByOffset = new Map<string, string>();

/** The zone's offset in minutes from Intl's `GMT+05:45` (plain `GMT` at zero). */
function offsetMinutes(format: Intl.DateTimeFormat, ms: number): number {
  const name = format.formatToParts(ms).find((p) => p.type === 'timeZoneName')!.value;
  const m = /([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

const DAY_MS = 86_400_000;
/** Month names as luxon's `LLLL` writes them in en-GB, asked of Intl on first use (at load it cost a start 40 ms). */
let months: string[] | undefined;
function monthName(month: number): string {
  months ??= Info.months('long', { locale: 'en-GB' });
  return months[month]!;
}
/**
 * A zone's offset through a UTC day, by zone and day number; null when the clocks change that day. Asking
 * Intl for each instant was a fifth of a list page's CPU (50 status lines, luxon's own formatting costs more
 * still); a day's two ends settle all of its instants, as no zone's rules change its clocks twice within a day.
 */
const dayOffsets = new Map<string, number | null>();

function dayOffset(zone: string, format: Intl.DateTimeFormat, ms: number): number | null {
  const day = Math.floor(ms / DAY_MS);
  const key = `${zone}|${day}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    const first = offsetMinutes(format, day * DAY_MS);
    offset = first === offsetMinutes(format, (day + 1) * DAY_MS - 1) ? first : null;
    if (dayOffsets.size >= 100_000) dayOffsets.clear();
    dayOffsets.set(key, offset);
  }
  return offset;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** `24 November, 14:30 (CET)` in the workspace zone; `instant` as a DateTime or epoch milliseconds. */
export function formatInZone(instant: DateTime | number, zone: string): string {
  const ms = typeof instant === 'number' ? instant : instant.toMillis();
  const format = offsetFormat(zone);
  if (!format) {
    const local = DateTime.fromMillis(ms, { zone });
    return `${local.setLocale('en-GB').toFormat('d LLLL, HH:mm')} (${zoneLabel(local)})`;
  }
  const offset = dayOffset(zone, format, ms) ?? offsetMinutes(format, ms);
  const key = `${zone}|${offset}`;
  let label = labelsByOffset.get(key);
  if (!label) {
    label = zoneLabel(DateTime.fromMillis(ms, { zone }));
    labelsByOffset.set(key, label);
  }
  // The wall clock in the zone, read with the UTC getters of the instant moved by the offset.
  const local = new Date(ms + offset * 60_000);
  const time = `${twoDigits(local.getUTCHours())}:${twoDigits(local.getUTCMinutes())}`;
  return `${local.getUTCDate()} ${monthName(local.getUTCMonth())}, ${time} (${label})`;
}
