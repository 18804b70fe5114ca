// The posting queue: an account's weekly posting times in the workspace zone, and the next free one.
// Pure: the caller reads the slots and the instants already taken.
import { DateTime } from 'luxon';
import { localToInstant, MIN_LEAD_MS } from './when.ts';

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Day = (typeof DAYS)[number];
export interface Slot {
  day: Day;
  time: string;
}

/** Repeated slots once, in week order. */
export function weekOrder(slots: Slot[]): Slot[] {
  const key = (s: Slot) => `${DAYS.indexOf(s.day)}${s.time}`;
  const unique = new Map(slots.map((s) => [key(s), { day: s.day, time: s.time }]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, s]) => s);
}

/** A day's local time as an instant; a time the clocks skip moves to the next minute that exists. */
function slotInstant(date: string, time: string, zone: string): number {
  let local = DateTime.fromISO(`${date}T${time}`, { zone: 'utc' });
  for (let minutes = 0; minutes <= 24 * 60; minutes++, local = local.plus({ minutes: 1 })) {
    const found = localToInstant(local.toFormat("yyyy-MM-dd'T'HH:mm"), zone);
    if (found) return found.at.toMillis();
  }
  throw new Error(`no valid minute after ${date}T${time} in ${zone}`);
}

const HORIZON_DAYS = 366;

/**
 * The coming free posting times in order, at most `count`: each at least 2 minutes after `nowMs`, within a year,
 * not in `taken` (instants, ms) nor given twice (a repeated local time is taken once, at its earlier instant).
 */
export function freeTimes(slots: Slot[], zone: string, nowMs: number, taken: Set<number>, count: number): number[] {
  const out: number[] = [];
  if (!slots.length) return out;
  const earliest = nowMs + MIN_LEAD_MS;
  const latest = DateTime.fromMillis(nowMs).plus({ years: 1 }).toMillis();
  const seen = new Set(taken);
  const ordered = weekOrder(slots);
  const today = DateTime.fromMillis(nowMs, { zone });
  const first = DateTime.utc(today.year, today.month, today.day);
  for (let i = 0; i <= HORIZON_DAYS && out.length < count; i++) {
    const date = first.plus({ days: i });
    const day = DAYS[date.weekday - 1]!;
    for (const slot of ordered) {
      if (slot.day !== day) continue;
      const at = slotInstant(date.toISODate()!, slot.time, zone);
      if (at < earliest || at > latest || seen.has(at)) continue;
      seen.add(at);
      out.push(at);
      if (out.length === count) break;
    }
  }
  return out;
}
