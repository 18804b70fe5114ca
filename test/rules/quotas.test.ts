// Quota rules over plain numbers: exactly at a limit passes, one more answers 402 quota_exceeded with
// `limit` and `used` and a hint naming the next plan; 60 post creations per hour answer 429 with the
// seconds until the oldest leaves the hour.
import { describe, expect, it } from 'vitest';
import type { QuotaExceededError } from '../../domain/errors.ts';
import { PLANS } from '../../domain/plans.ts';
import {
  assertApiAccess,
  assertCanAddMember,
  assertCanConnectAccount,
  assertCanCreatePosts,
  assertFileFits,
  assertGroupsAllowed,
  assertMonthQuota,
  CREATIONS_PER_HOUR,
  downgradeBlockers,
} from '../../domain/quotas.ts';

/** The refusal `run` throws, for its fields. */
function refusal(run: () => void): QuotaExceededError {
  try {
    run();
  } catch (err) {
    return err as never;
  }
  throw new Error('nothing was refused');
}

describe('posts per month: a post counts toward the month it reached queued', () => {
  it('passes exactly at the limit and refuses one more, with limit, used and the next plan', () => {
    expect(() => assertMonthQuota('creator', 199, 1)).not.toThrow();
    expect(() => assertMonthQuota('creator', 0, 200)).not.toThrow();
    const err = refusal(() => assertMonthQuota('creator', 198, 3));
    expect(err).toMatchObject({ status: 402, code: 'quota_exceeded', limit: 200, used: 198 });
    expect(err.message).toBe('The creator plan allows 200 posts a month; 198 are counted and this asks for 3 more.');
    expect(err.hint).toBe('Cancel a queued post or wait for next month, or upgrade to Studio (more posts).');
  });
  it('offers no upgrade beyond the largest plan sold', () => {
    expect(refusal(() => assertMonthQuota('agency', 2000, 1)).hint).toBe(
      'Cancel a queued post or wait for next month.',
    );
  });
});

describe('post creation: 60 POST /posts per hour per workspace', () => {
  const now = Date.parse('2027-01-15T12:00:00Z');
  const counts = (createdLastHour: number, oldestLastHour: string | null = null) => ({
    monthUsed: 0,
    createdLastHour,
    oldestLastHour,
    spentBy: { keys: createdLastHour, people: 0 },
  });
  it('passes the 60th creation and answers the 61st with 429 and the seconds until the oldest leaves the hour', () => {
    expect(() => assertCanCreatePosts('studio', counts(CREATIONS_PER_HOUR - 1), 1, now)).not.toThrow();
    const err = refusal(() =>
      assertCanCreatePosts('studio', counts(60, new Date(now - 3600_000 + 90_500).toISOString()), 1, now),
    );
    expect(err).toMatchObject({ status: 429, code: 'rate_limited', headers: { 'Retry-After': '91' } });
    expect(err.extra).toEqual({
      retryAt: '2027-01-15T12:01:31.000Z',
      limit: 60,
      actual: 60,
      spentBy: { keys: 60, people: 0 },
    });
  });
  it('waits at least a second, and a full hour when the oldest creation is unknown', () => {
    expect(
      refusal(() => assertCanCreatePosts('studio', counts(60, new Date(now - 3600_000).toISOString()), 1, now)).headers,
    ).toEqual({ 'Retry-After': '1' });
    expect(refusal(() => assertCanCreatePosts('studio', counts(60), 1, now)).headers).toEqual({
      'Retry-After': '3600',
    });
  });
  it('checks the month quota once the hourly limit allows', () => {
    expect(refusal(() => assertCanCreatePosts('free', { ...counts(0), monthUsed: 20 }, 1, now))).toMatchObject({
      status: 402,
      limit: 20,
      used: 20,
    });
  });
});

describe('connected accounts', () => {
  it('passes up to the limit, counting every account one consent would add', () => {
    expect(() => assertCanConnectAccount('free', 1)).not.toThrow();
    expect(() => assertCanConnectAccount('creator', 3, 3)).not.toThrow();
    expect(refusal(() => assertCanConnectAccount('free', 2))).toMatchObject({
      limit: 2,
      used: 2,
      message: 'The free plan allows 2 connected accounts and 2 are connected.',
    });
    expect(refusal(() => assertCanConnectAccount('creator', 4, 3)).message).toBe(
      'The creator plan allows 6 connected accounts and 4 are connected; this would add 3.',
    );
  });
});

describe('storage and size per file', () => {
  it('passes a file of exactly the per-file limit and refuses one byte more', () => {
    expect(() => assertFileFits('free', PLANS.free.maxFileBytes, 0)).not.toThrow();
    const err = refusal(() => assertFileFits('free', PLANS.free.maxFileBytes + 1, 0));
    expect(err).toMatchObject({ status: 402, limit: PLANS.free.maxFileBytes, used: PLANS.free.maxFileBytes + 1 });
    expect(err.hint).toBe('Send a smaller file (compress or shorten it), or upgrade to Creator (larger files).');
  });
  it('counts storage used and reserved: filling it exactly passes, one byte over refuses', () => {
    const storage = PLANS.creator.storageBytes;
    expect(() => assertFileFits('creator', 1000, storage - 1000)).not.toThrow();
    expect(refusal(() => assertFileFits('creator', 1000, storage - 999))).toMatchObject({
      limit: storage,
      used: storage - 999,
    });
  });
});

describe('members: members plus pending invitations', () => {
  it('lets the last seat be taken and refuses the next', () => {
    expect(() => assertCanAddMember('studio', 2)).not.toThrow();
    expect(refusal(() => assertCanAddMember('studio', 3)).message).toBe(
      'The studio plan allows 3 members, and 3 seats are taken (members plus pending invitations).',
    );
    expect(refusal(() => assertCanAddMember('free', 1)).message).toBe(
      'The free plan allows 1 member, and 1 seat is taken (members plus pending invitations).',
    );
  });
});

describe('Free: no API access, no groups', () => {
  it('refuses the API and groups on Free only', () => {
    expect(refusal(() => assertApiAccess('free'))).toMatchObject({ status: 402, code: 'quota_exceeded' });
    expect(() => assertApiAccess('creator')).not.toThrow();
    expect(refusal(() => assertGroupsAllowed('free', 0)).hint).toBe(
      'Target accounts by accountIds instead, or upgrade to Creator (groups).',
    );
    expect(() => assertGroupsAllowed('creator', 5)).not.toThrow();
  });
});

describe('a downgrade below current usage is refused, naming what must go first', () => {
  const usage = { accounts: 2, seats: 1, storageBytes: 0, posts: 20, groups: 0 };
  it('fits exactly at every limit', () => expect(downgradeBlockers('free', usage)).toEqual([]));
  it("names each limit over, with the plan's figure", () => {
    expect(
      downgradeBlockers('free', {
        accounts: 3,
        seats: 2,
        storageBytes: PLANS.free.storageBytes + 1,
        posts: 21,
        groups: 1,
      }).map((b) => [b.field, b.limit, b.actual, b.sentence]),
    ).toEqual([
      ['accounts', 2, 3, 'Disconnect 1 of the 3 connected accounts (Free allows 2).'],
      ['members', 1, 2, 'Remove 1 of the 2 members and pending invitations (Free allows 1).'],
      [
        'storageBytes',
        PLANS.free.storageBytes,
        PLANS.free.storageBytes + 1,
        'Delete 1 MB of files (Free stores 2,048 MB).',
      ],
      [
        'postsPerMonth',
        20,
        21,
        'This month counts 21 posts and Free allows 20: cancel 1 queued posts, or change the plan next month.',
      ],
      ['groups', 0, 1, 'Delete the 1 account groups (Free has no groups).'],
    ]);
  });
});
