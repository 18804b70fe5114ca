// The "when" of a post as the form holds it, and what the contract takes: `now`, `draft`, `queue` (each account's
// next free posting time), or a local date and time in the workspace zone.
import { DateTime } from 'luxon';
import type { Schemas } from '../api.ts';
import { dayTimeText } from '../format.ts';
import { PREVIEW_WORDS } from '../words/previewWords.ts';
import { QUEUE_WORDS } from '../words/scheduleWords.ts';

export type WhenMode = 'now' | 'draft' | 'queue' | 'at';
export interface WhenForm {
  mode: WhenMode;
  date: string;
  time: string;
}

/** The contract's When, or a sentence saying what is missing. */
export function whenOf(form: WhenForm, zone: string): { when: Schemas['When'] } | { problem: string } {
  if (form.mode !== 'at') return { when: form.mode };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(form.date)) return { problem: 'Pick a date.' };
  if (!/^\d{2}:\d{2}$/.test(form.time)) return { problem: 'Pick a time.' };
  const at = DateTime.fromISO(`${form.date}T${form.time}`, { zone });
  if (!at.isValid) return { problem: `${form.date} ${form.time} does not exist in ${zone}.` };
  return { when: { publishAt: `${form.date}T${form.time}`, timezone: zone } };
}

/** A form for the next round quarter hour at least 15 minutes away, in the zone. */
export function defaultWhen(zone: string, now: DateTime = DateTime.now()): WhenForm {
  const local = now.setZone(zone).plus({ minutes: 15 });
  const rounded = local.startOf('hour').plus({ minutes: Math.ceil(local.minute / 15) * 15 });
  return { mode: 'at', date: rounded.toISODate()!, time: rounded.toFormat('HH:mm') };
}

/** A form for the time a post is set for, in the zone. */
export function whenAt(publishAt: string, zone: string): WhenForm {
  const local = DateTime.fromISO(publishAt).setZone(zone);
  return { mode: 'at', date: local.toISODate()!, time: local.toFormat('HH:mm') };
}

/** Where moving a post starts: its own time while that is ahead (a move is usually a nudge), else the default. */
export function startingWhen(publishAt: string | null, zone: string, now: DateTime = DateTime.now()): WhenForm {
  return publishAt && DateTime.fromISO(publishAt) > now ? whenAt(publishAt, zone) : defaultWhen(zone, now);
}

/** The time as a post's head shows it in a preview: "Just now", "Draft", "tomorrow at 14:30 CET". */
export function whenWords(form: WhenForm, zone: string): string | undefined {
  if (form.mode === 'queue') return QUEUE_WORDS.preview;
  if (form.mode !== 'at') return PREVIEW_WORDS.when[form.mode];
  const at = DateTime.fromISO(`${form.date}T${form.time}`, { zone });
  return at.isValid ? dayTimeText(at.toISO()!, zone) : undefined;
}
