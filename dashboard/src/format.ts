// How sizes, durations and times read in the dashboard. Times are always shown in the workspace zone.
import { DateTime } from 'luxon';
import { zoneLabel } from '../../domain/when.ts';

export function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function durationText(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** "24 Nov 2026, 14:30 CET" in the zone, with the zone labelled as the server's statusLine labels it. */
export function timeText(iso: string, zone: string): string {
  const local = DateTime.fromISO(iso, { zone });
  return `${local.setLocale('en-GB').toFormat('d LLL yyyy, HH:mm')} ${zoneLabel(local)}`;
}

/** The zone's short name right now ("CET"), for labels. */
export function zoneAbbreviation(zone: string): string {
  return zoneLabel(DateTime.now().setZone(zone));
}

/**
 * A time in words in the zone, for sentences and lists read at a glance: "today at 14:30 CET", "yesterday at
 * 09:05 CET", "Tue 24 Nov at 14:30 CET" (with the year when it is not this year's).
 */
export function dayTimeText(iso: string, zone: string, now: DateTime = DateTime.now()): string {
  const local = DateTime.fromISO(iso, { zone }).setLocale('en-GB');
  const today = now.setZone(zone).startOf('day');
  const days = Math.round(local.startOf('day').diff(today, 'days').days);
  const NAMED: Record<number, string> = { [-1]: 'yesterday', 0: 'today', 1: 'tomorrow' };
  const day = NAMED[days] ?? local.toFormat(local.year === today.year ? 'ccc d LLL' : 'ccc d LLL yyyy');
  return `${day} at ${local.toFormat('HH:mm')} ${zoneLabel(local)}`;
}

/** A month of the calendar in words: "November 2026" (from "2026-11"). */
export function monthText(month: string): string {
  return DateTime.fromISO(`${month}-01`).setLocale('en-GB').toFormat('LLLL yyyy');
}

/** A time of day in the zone with its label: "09:00 CET" (a row under its day's heading). */
export function clockText(iso: string, zone: string): string {
  const local = DateTime.fromISO(iso, { zone });
  return `${local.toFormat('HH:mm')} ${zoneLabel(local)}`;
}

/** A day's heading: "Today, Monday 23 March", "Tomorrow, …", "Wednesday 25 March" (a local date, yyyy-MM-dd). */
export function dayHeading(day: string, zone: string, now: DateTime = DateTime.now()): string {
  const date = DateTime.fromISO(day, { zone }).setLocale('en-GB');
  const days = Math.round(date.diff(now.setZone(zone).startOf('day'), 'days').days);
  const named = days === 0 ? 'Today, ' : days === 1 ? 'Tomorrow, ' : '';
  return `${named}${date.toFormat(date.year === now.setZone(zone).year ? 'cccc d LLLL' : 'cccc d LLLL yyyy')}`;
}
