// A rate limit in words: when the request can go again, as a time of day in the person's own zone, and for the
// workspace's hourly allowance of new posts (all keys and people together) what spent it.
import { DateTime } from 'luxon';
import type { Schemas } from '../api.ts';
import { dayTimeText } from '../format.ts';

type RateLimit = Partial<Schemas['RateLimitError']>;

/** "58 through API keys and 2 from people in the dashboard"; empty when no creation of the hour is left to count. */
function spenders({ keys, people }: { keys: number; people: number }): string {
  const parts = [
    ...(keys ? [`${keys} through API keys`] : []),
    ...(people ? [`${people} from people in the dashboard`] : []),
  ];
  return parts.join(' and ');
}

/**
 * The words of a `rate_limited` answer. The wait reads as the person's clock does: "today at 11:04 CET" in the
 * browser's zone, not the workspace's, since it is the person who waits.
 */
export function rateLimitWords(
  body: RateLimit,
  zone: string = DateTime.local().zoneName,
  now: DateTime = DateTime.now(),
): { title: string; hint: string } {
  const when = body.retryAt ? dayTimeText(body.retryAt, zone, now) : undefined;
  if (body.spentBy && body.limit) {
    const by = spenders(body.spentBy);
    return {
      title:
        `The workspace’s hourly allowance of ${body.limit} new posts is spent${by ? `: ${by}` : ''}. ` +
        'Nothing was saved.',
      hint: when ? `New posts can be saved again ${when}.` : 'New posts can be saved again within the hour.',
    };
  }
  return {
    title: 'Too many requests in a short time.',
    hint: when ? `Try again ${when}.` : 'Try again later.',
  };
}

/**
 * Settings' line for the hour's new posts: "60 of 60 (58 through API keys and 2 from people in the dashboard)",
 * and once the hour is spent, when it returns.
 */
export function hourlyAllowanceWords(
  hour: { used: number; limit: number; spentBy: { keys: number; people: number }; retryAt: string | null },
  zone: string = DateTime.local().zoneName,
  now: DateTime = DateTime.now(),
): { text: string; note?: string } {
  const by = spenders(hour.spentBy);
  const text = `${hour.used} of ${hour.limit}${by ? ` (${by})` : ''}`;
  if (!hour.retryAt) return { text };
  return {
    text,
    note: `The hour’s new posts are spent; new posts can be saved again ${dayTimeText(hour.retryAt, zone, now)}.`,
  };
}
