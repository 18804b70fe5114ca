// A rate limit read by a person: the real wait as a time of day in their zone, and what spent the workspace's
// hourly allowance of new posts, from the answer's facts (retryAt, limit, spentBy), never from its sentence.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { hourlyAllowanceWords, rateLimitWords } from './rateLimitWords.ts';
import { failureWords } from './words.ts';

const now = DateTime.fromISO('2026-11-26T09:40:00Z');

describe('rate limits in words', () => {
  it('says the workspace’s hourly allowance is spent, by what, and when it returns in the person’s zone', () => {
    const body = {
      code: 'rate_limited',
      message: 'This workspace created posts 60 times in the last hour, the hourly limit; …',
      hint: 'Wait 1492 seconds, then try again.',
      retryAt: '2026-11-26T10:04:52.000Z',
      limit: 60,
      actual: 60,
      spentBy: { keys: 58, people: 2 },
    };
    expect(rateLimitWords(body, 'Europe/Berlin', now)).toEqual({
      title:
        'The workspace’s hourly allowance of 60 new posts is spent: 58 through API keys and 2 from people in the ' +
        'dashboard. Nothing was saved.',
      hint: 'New posts can be saved again today at 11:04 CET.',
    });
    expect(rateLimitWords(body, 'America/New_York', now).hint).toBe('New posts can be saved again today at 05:04 EST.');
  });

  it('names only who spent it, and never the minute the old sentence guessed', () => {
    const body = { retryAt: '2026-11-26T10:04:52.000Z', limit: 60, actual: 60, spentBy: { keys: 60, people: 0 } };
    const words = rateLimitWords(body, 'UTC', now);
    expect(words.title).toMatch(/is spent: 60 through API keys\. Nothing was saved\.$/);
    expect(`${words.title} ${words.hint}`).not.toMatch(/minute/);
  });

  it('says any other limit’s wait as a time of day', () => {
    const words = rateLimitWords({ retryAt: '2026-11-26T09:45:12.000Z' }, 'Europe/Berlin', now);
    expect(words).toEqual({ title: 'Too many requests in a short time.', hint: 'Try again today at 10:45 CET.' });
  });

  it('is the words of every rate_limited answer', () => {
    const words = failureWords({
      code: 'rate_limited',
      message: 'This address sent more than 600 requests in the current window.',
      status: 429,
      body: { retryAt: DateTime.now().plus({ minutes: 5 }).toUTC().toISO() },
    });
    expect(words.title).toBe('Too many requests in a short time.');
    expect(words.hint).toMatch(/^Try again (today|tomorrow) at \d\d:\d\d \S+\.$/);
  });

  it('shows Settings the hour’s use, and when a spent hour returns', () => {
    const hour = { used: 12, limit: 60, spentBy: { keys: 10, people: 2 }, retryAt: null };
    expect(hourlyAllowanceWords(hour, 'UTC', now)).toEqual({
      text: '12 of 60 (10 through API keys and 2 from people in the dashboard)',
    });
    const spent = { ...hour, used: 60, spentBy: { keys: 60, people: 0 }, retryAt: '2026-11-26T10:04:52.000Z' };
    expect(hourlyAllowanceWords(spent, 'Europe/Berlin', now)).toEqual({
      text: '60 of 60 (60 through API keys)',
      note: 'The hour’s new posts are spent; new posts can be saved again today at 11:04 CET.',
    });
  });
});
