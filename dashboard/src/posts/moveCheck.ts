// A post dragged on the calendar is checked against the server's time rule before any request: a time that has
// passed, or is less than the lead the server needs away, is said so at once instead of after a refused plan.
import { DateTime } from 'luxon';
import { MIN_LEAD_MS } from '../../../domain/when.ts';
import { dayTimeText } from '../format.ts';

/** Why a post cannot move to `to`, in words; undefined when the time can be asked for. */
export function moveProblem(to: DateTime, zone: string, now: DateTime = DateTime.now()): string | undefined {
  const when = dayTimeText(to.toUTC().toISO()!, zone, now);
  if (to <= now) return `${when} has passed. Drag the post to a later time.`;
  if (to.toMillis() < now.toMillis() + MIN_LEAD_MS)
    return `${when} is less than 2 minutes away. Drag the post to a later time.`;
  return undefined;
}
