// A post's timeline in the dashboard's words: one sentence per event kind of the contract (PostEvent.kind), with
// times in the workspace zone, in words. The server's own event message is for programs and logs.
import type { DateTime } from 'luxon';
import type { Platform, Schemas } from '../api.ts';
import { dayTimeText } from '../format.ts';
import { labelOf } from '../networks.ts';
import type { EventKind } from './words.ts';

interface EventFacts {
  network: string;
  /** The time the event names (queued, rescheduled, a worker's retry), in words; '' when it names none. */
  when: string;
  /** The server's own sentence, read only for what the kind alone does not say (why a post was cancelled). */
  message: string;
}

export const EVENT_WORDS: Record<EventKind, (f: EventFacts) => string> = {
  created: () => 'Created.',
  queued: (f) => (f.when ? `Scheduled for ${f.when}.` : 'Scheduled.'),
  publishing: (f) => `Sending to ${f.network} started.`,
  live: (f) => `Published on ${f.network}.`,
  failed: (f) => `Publishing to ${f.network} failed.`,
  retried: () => 'Sent again, by a person or after the account was reconnected.',
  retriedByWorker: (f) =>
    `${f.network} had a passing problem; Herald tries again by itself${f.when ? ` ${f.when}` : ''}.`,
  cancelled: (f) =>
    /need approval/.test(f.message)
      ? 'Changed by someone whose posts need approval: a draft again until it is approved, and its place in the ' +
        'month was given back.'
      : `Cancelled${/account was disconnected/.test(f.message) ? ' because its account was disconnected' : ''}: ` +
        'the post is a draft again, and its place in the month was given back.',
  rescheduled: (f) => (f.when ? `Moved to ${f.when}.` : 'Moved to another time.'),
  // The server names what changed in words already ("Changed the text and the files.").
  edited: (f) => (/^Changed (the [a-z]+(, | and )?)+\.$/.test(f.message) ? f.message : 'Edited.'),
  approvalRequested: (f) =>
    'Waiting for approval by an owner or administrator, ' +
    `${f.when ? `wanted for ${f.when}` : 'wanted as soon as approved'}.`,
  // The server names the approver ("Approved by Ann Berg."), and a rejection's comment after a colon.
  approved: (f) => (/^Approved by .+\.$/.test(f.message) ? f.message : 'Approved.'),
  rejected: (f) => (/^Rejected by /.test(f.message) ? f.message : 'Rejected.'),
};

/** One timeline event as a sentence; a worker's retry time reads "today at 14:31 CET". */
export function eventWords(event: Schemas['PostEvent'], platform: Platform, zone: string, now?: DateTime): string {
  const when = event.publishAt ? dayTimeText(event.publishAt, zone, now) : '';
  return EVENT_WORDS[event.kind]({ network: labelOf(platform), when, message: event.message ?? '' });
}
