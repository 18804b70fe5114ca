// The reporting rule: a post's statusLine is one sentence with the network, the account and the
// absolute time in the workspace zone; the queued form is the spec's exactly.
import { describe, expect, it } from 'vitest';
import { statusLine, type StatusLineFacts } from '../../domain/statusLine.ts';

const post = (facts: Partial<StatusLineFacts>): StatusLineFacts => ({
  status: 'queued',
  network: 'Instagram',
  accountName: 'Acme Shop',
  at: '2027-01-15T13:30:00.000Z',
  ...facts,
});

// Queued form: `Queued. <Network> · <account displayName> · <day month, HH:MM> (<zone label>).`
describe('statusLine: one sentence with the network, the account and the time in the workspace zone', () => {
  it('writes the queued form in the workspace zone with its label, standard and daylight time', () => {
    expect(statusLine(post({}), 'Europe/Berlin')).toBe('Queued. Instagram · Acme Shop · 15 January, 14:30 (CET).');
    expect(statusLine(post({ at: '2027-07-15T12:30:00.000Z' }), 'Europe/Berlin')).toBe(
      'Queued. Instagram · Acme Shop · 15 July, 14:30 (CEST).',
    );
    expect(statusLine(post({}), 'Asia/Kolkata')).toBe('Queued. Instagram · Acme Shop · 15 January, 19:00 (IST).');
  });

  it('shows the day the instant falls on in the workspace zone, not in UTC', () => {
    expect(statusLine(post({ at: '2027-01-15T23:30:00.000Z' }), 'Europe/Berlin')).toBe(
      'Queued. Instagram · Acme Shop · 16 January, 00:30 (CET).',
    );
    expect(statusLine(post({ at: '2027-01-15T03:30:00.000Z' }), 'America/New_York')).toBe(
      'Queued. Instagram · Acme Shop · 14 January, 22:30 (EST).',
    );
  });

  it('says when a queued post is tried again after a temporary failure', () => {
    expect(statusLine(post({ nextAttemptAt: '2027-01-15T13:35:00.000Z' }), 'Europe/Berlin')).toBe(
      'Queued. Instagram · Acme Shop · 15 January, 14:30 (CET). ' +
        'Next attempt 15 January, 14:35 (CET), after a temporary failure.',
    );
  });

  it('writes a draft without a time', () => {
    expect(statusLine(post({ status: 'draft', at: null }), 'Europe/Berlin')).toBe(
      'Draft. Instagram · Acme Shop · no time set.',
    );
  });

  it('writes a live post with the time it went live', () => {
    expect(statusLine(post({ status: 'live' }), 'Europe/Berlin')).toBe(
      'Live. Instagram · Acme Shop · 15 January, 14:30 (CET).',
    );
  });

  it('says so when the network shows a live post to its account only (an unaudited YouTube project)', () => {
    expect(statusLine(post({ status: 'live', network: 'YouTube', shownPrivately: true }), 'Europe/Berlin')).toBe(
      'Live. YouTube · Acme Shop · 15 January, 14:30 (CET). YouTube shows it privately: only the account sees it.',
    );
  });

  it("writes a failed post with the network's message, or a plain reason when none was kept", () => {
    expect(
      statusLine(
        post({ status: 'failed', errorMessage: 'Instagram answered: "The Instagram account is restricted."' }),
        'Europe/Berlin',
      ),
    ).toBe(
      'Failed. Instagram · Acme Shop · 15 January, 14:30 (CET): ' +
        'Instagram answered: "The Instagram account is restricted."',
    );
    expect(statusLine(post({ status: 'failed' }), 'Europe/Berlin')).toBe(
      'Failed. Instagram · Acme Shop · 15 January, 14:30 (CET): the network refused the post.',
    );
  });
});
