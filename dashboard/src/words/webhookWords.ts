// Webhooks in the dashboard's words: a name for each event type of the contract (EventType, and the test event),
// the groups the event picker shows them in, a delivery's state, why no answer came, and why Herald turned a
// webhook off. Keyed by the contract's values, so a new event type or state without words fails tsc.
import type { Schemas } from '../api.ts';
import { dayTimeText } from '../format.ts';

export type WebhookEventType = Schemas['EventType'];
export type Delivery = Schemas['WebhookDelivery'];

/** Each event type as the picker and the delivery log name it. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType | 'webhook.test', string> = {
  'post.live': 'Post published',
  'post.failed': 'Post failed to publish',
  'post.publishing': 'Post started publishing',
  'post.retried_by_worker': 'Post retried after a passing network problem',
  'post.queued': 'Post scheduled (also after a retry)',
  'post.rescheduled': 'Post moved to another time',
  'post.cancelled': 'Post cancelled',
  'post.created': 'Post created',
  'post.updated': 'Post edited',
  'post.deleted': 'Post deleted',
  'post.approval_requested': 'Post waits for approval',
  'post.approved': 'Post approved',
  'post.rejected': 'Post rejected',
  'media.ready': 'File ready to post',
  'media.failed': 'File could not be processed',
  'account.needs_reconnect': 'Account needs reconnecting (its sign-in expired or was revoked)',
  'webhook.test': 'Test event',
};

/** The picker's groups, in the order a person looks for them; every event type is in exactly one. */
export const WEBHOOK_EVENT_GROUPS: { title: string; events: WebhookEventType[] }[] = [
  { title: 'Publishing', events: ['post.live', 'post.failed', 'post.publishing', 'post.retried_by_worker'] },
  { title: 'Schedule', events: ['post.queued', 'post.rescheduled', 'post.cancelled'] },
  { title: 'Post changes', events: ['post.created', 'post.updated', 'post.deleted'] },
  { title: 'Approvals', events: ['post.approval_requested', 'post.approved', 'post.rejected'] },
  { title: 'Files and accounts', events: ['media.ready', 'media.failed', 'account.needs_reconnect'] },
];

/** What a new webhook starts with: the two events every integration needs. */
export const DEFAULT_WEBHOOK_EVENTS: WebhookEventType[] = ['post.live', 'post.failed'];

/** A delivery's state in a word, for its badge. */
export const DELIVERY_STATUS_LABELS: Record<Delivery['status'], string> = {
  delivered: 'Delivered',
  pending: 'Not delivered yet',
  failed: 'Failed',
};

/** What a delivery's state means and what comes next; '' when the badge says it all. */
export const DELIVERY_STATUS_WORDS: Record<Delivery['status'], (d: Delivery, zone: string, on: boolean) => string> = {
  delivered: (d) => (d.attempts > 1 ? `Delivered on attempt ${d.attempts}.` : ''),
  pending: (d, zone, on) =>
    !on
      ? 'It waits until the webhook is turned on again.'
      : d.attempts === 0
        ? 'Sending now.'
        : `Attempt ${d.attempts} failed; Herald tries again` +
          `${d.nextAttemptAt ? ` ${dayTimeText(d.nextAttemptAt, zone)}` : ''}.`,
  failed: (d) => `All ${d.attempts} attempts failed over about three days, so Herald stopped trying.`,
};

export type DeliveryAttempt = Schemas['WebhookDeliveryAttempt'];

/** Why no answer came, by the attempt's `noAnswer` code; `timeout` says how long Herald waited. */
export const NO_ANSWER_WORDS: Record<NonNullable<DeliveryAttempt['noAnswer']>, (a: DeliveryAttempt) => string> = {
  timeout: (a) => `Your server did not answer within ${Math.round(a.durationMs / 1000)} seconds.`,
  host_unknown: () => 'The address’s host name does not exist.',
  connection_refused: () => 'Your server refused the connection.',
  connection_reset: () => 'The connection was cut before an answer came.',
  certificate_untrusted: () => 'Your server’s https certificate is not trusted.',
  address_not_public: () => 'The address now leads to a private or local network; Herald sends nothing there.',
  other: () => 'No answer came.',
};

/** Why the last attempt got no answer, or a general sentence when it names no reason. */
export function noAnswerWords(attempt: DeliveryAttempt | undefined): string {
  return attempt?.noAnswer ? NO_ANSWER_WORDS[attempt.noAnswer](attempt) : 'No answer came.';
}

/** "84 ms", "2.4 s". */
export const durationMsText = (ms: number) => (ms < 1000 ? `${ms}\u00a0ms` : `${(ms / 1000).toFixed(1)}\u00a0s`);

/** A webhook's state, for its badge: off by a person, or by Herald after its deliveries kept failing. */
export const WEBHOOK_STATE_LABELS = { on: 'On', off: 'Off', offByHerald: 'Turned off by Herald' } as const;

/** Why Herald turned a webhook off (the webhook's disabledReason is set only then) and what to do. */
export const WEBHOOK_DISABLED_WORDS = {
  title: 'Herald turned this webhook off',
  body:
    'Every attempt to deliver one of its events failed for about three days, so Herald stopped sending to it. ' +
    'The delivery log below shows what your server answered. Fix the server, then turn the webhook on again: ' +
    'sending starts again with the next event, and you can send the failed delivery again from the log.',
  /** The Settings banner, naming the webhook by its address. */
  banner: (url: string) => `Herald turned off the webhook to ${url}: its deliveries kept failing for about three days.`,
};
