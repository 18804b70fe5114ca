// A post's timeline in the dashboard's words: one sentence per event kind of the contract (PostEvent.kind), with
// times in the workspace zone, in words, and the facts the event carries as fields (why, what changed, who). The
// server's own sentence is shown only for an event recorded before events carried their facts.
import type { DateTime } from 'luxon';
import type { Platform, Schemas } from '../api.ts';
import { dayTimeText } from '../format.ts';
import { labelOf } from '../networks.ts';
import type { EventKind } from './words.ts';

type PostEvent = Schemas['PostEvent'];

interface EventFacts {
  network: string;
  /** The time the event names (queued, rescheduled, a worker's retry), in words; '' when it names none. */
  when: string;
  event: PostEvent;
}

/** How a sentence names each content field an edit changed. */
const FIELD_NAMES: Record<NonNullable<PostEvent['changed']>[number], string> = {
  text: 'the text',
  title: 'the title',
  tags: 'the tags',
  mediaIds: 'the files',
  perPlatform: 'the settings',
};

const listed = (names: string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');

const GIVEN_BACK = 'the post is a draft again, and its place in the month was given back.';

/** Why a post was cancelled, from the event's `reason`. */
const CANCELLED: Record<'asked' | 'accountDisconnected' | 'needsApproval', string> = {
  asked: `Cancelled: ${GIVEN_BACK}`,
  accountDisconnected: `Cancelled because its account was disconnected: ${GIVEN_BACK}`,
  needsApproval:
    'Changed by someone whose posts need approval: a draft again until it is approved, and its place in the ' +
    'month was given back.',
};

/** An event recorded before events carried their facts reads its own sentence, or `plain`. */
const asRecorded = (event: PostEvent, plain: string) => event.message ?? plain;

function rejectedWords({ by, comment, change, reason }: PostEvent): string {
  if (reason === 'leftQueue') return 'The change that waited for approval was dropped: the post left the queue.';
  const said = comment ? ` They said: “${comment}”` : '';
  return change
    ? `${by} rejected the change that waited for approval; the post stays as it was.${said}`
    : `Rejected by ${by}.${said}`;
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
  cancelled: ({ event }) =>
    event.reason && event.reason !== 'leftQueue' ? CANCELLED[event.reason] : asRecorded(event, 'Cancelled.'),
  rescheduled: (f) => (f.when ? `Moved to ${f.when}.` : 'Moved to another time.'),
  edited: ({ event }) =>
    event.changed?.length
      ? `Changed ${listed(event.changed.map((field) => FIELD_NAMES[field]))}.`
      : asRecorded(event, 'Edited.'),
  approvalRequested: (f) =>
    'Waiting for approval by an owner or administrator, ' +
    `${f.when ? `wanted for ${f.when}` : 'wanted as soon as approved'}.`,
  approved: ({ event }) =>
    event.by
      ? `Approved by ${event.by}${event.change ? ': the change that waited is applied.' : '.'}`
      : asRecorded(event, 'Approved.'),
  rejected: ({ event }) => (event.by || event.reason ? rejectedWords(event) : asRecorded(event, 'Rejected.')),
};

/** One timeline event as a sentence; a worker's retry time reads "today at 14:31 CET". */
export function eventWords(event: PostEvent, platform: Platform, zone: string, now?: DateTime): string {
  const when = event.publishAt ? dayTimeText(event.publishAt, zone, now) : '';
  return EVENT_WORDS[event.kind]({ network: labelOf(platform), when, event });
}
