// The spec's retry guidance for errors a network returns at send time: token or permission messages
// need a reconnect; limit or quota messages retry by themselves or later; file or field messages need
// a changed post; server errors are retried by the worker after 1, 5 and 15 minutes.
import { describe, expect, it } from 'vitest';
import type { FailureKind } from '../../networks/connector.ts';
import { accountStatusAfter, hintFor, isTemporary } from '../../networks/failureGuidance.ts';

const KINDS: FailureKind[] = [
  'token_rejected',
  'permission_missing',
  'rate_limited',
  'quota_exceeded',
  'unverified',
  'unavailable',
  'rejected',
];

describe('retry guidance: which failures the worker retries by itself', () => {
  it('retries limits, quotas and server errors; never tokens, permissions, verification or refusals', () => {
    expect(KINDS.filter(isTemporary)).toEqual(['rate_limited', 'quota_exceeded', 'unavailable']);
  });
});

describe('token or permission messages need a reconnect', () => {
  it('marks the account expired after a refused token, revoked after a removed permission; nothing else', () => {
    expect(Object.fromEntries(KINDS.map((kind) => [kind, accountStatusAfter(kind)]))).toEqual({
      token_rejected: 'expired',
      permission_missing: 'revoked',
      rate_limited: undefined,
      quota_exceeded: undefined,
      unverified: undefined,
      unavailable: undefined,
      rejected: undefined,
    });
  });
  it('tells the person to reconnect, naming the network', () => {
    expect(hintFor('token_rejected', 'Instagram')).toMatch(/^Reconnect the Instagram account/);
    expect(hintFor('permission_missing', 'Threads')).toMatch(
      /^Reconnect the Threads account and grant every permission/,
    );
  });
});

describe('every kind has its action, in a sentence naming the network', () => {
  it.each([
    ['quota_exceeded', /retry the post after the next reset/i],
    ['rate_limited', /retry the post the next day/i],
    ['unverified', /^Verify the YouTube channel by phone/],
    ['unavailable', /retried after 1, 5 and 15 minutes/],
    ['rejected', /^Change the file or field YouTube names/],
  ] as [FailureKind, RegExp][])('%s', (kind, action) => {
    const hint = hintFor(kind, 'YouTube');
    expect(hint).toMatch(action);
    expect(hint).toContain('YouTube');
    expect(hint.endsWith('.')).toBe(true);
  });
});
