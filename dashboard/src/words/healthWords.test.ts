// An account's health in words: times as people read them in the workspace's zone (never ISO), the restrictions by
// the contract's codes, and the banner a week before a token can no longer be renewed.
import { describe, expect, it } from 'vitest';
import type { Account } from '../api.ts';
import { renewalBanner, renewalEndsSoon, restrictionText, tokenLines } from './healthWords.ts';

const DAY_MS = 86_400_000;
const at = (ms: number) => new Date(ms).toISOString();
const ISO = /\d{4}-\d\d-\d\dT/;
const A_TIME = String.raw`(today|yesterday|tomorrow|\w{3} \d{1,2} \w{3}( \d{4})?) at \d\d:\d\d (CET|CEST|GMT[+\d]*)`;

function account(days: number | null, status: Account['status'] = 'ok'): Account {
  const now = Date.now();
  return {
    id: 'acc_1',
    platform: 'youtube',
    displayName: 'Acme TV',
    status,
    token: {
      refreshedAt: at(now - DAY_MS),
      expiresAt: at(now + 3600_000),
      renewableUntil: days === null ? null : at(now + days * DAY_MS),
    },
    restrictions: [],
  };
}

describe('token lines', () => {
  it('say the last refresh, the access end and the renewal end, in words', () => {
    const lines = tokenLines(account(100), 'Europe/Berlin');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^Access last refreshed ${A_TIME}\\.$`));
    expect(lines[1]).toMatch(new RegExp(`^The current access ends ${A_TIME}; Herald renews it before then\\.$`));
    expect(lines[2]).toMatch(new RegExp(`^Herald can keep renewing it until ${A_TIME} without a reconnect\\.$`));
    expect(lines.join(' ')).not.toMatch(ISO);
  });

  it('say only the last refresh of an account that needs reconnecting, and no end for a token without one', () => {
    expect(tokenLines(account(100, 'expired'), 'Europe/Berlin')).toHaveLength(1);
    const page = account(null);
    page.token = { ...page.token!, expiresAt: null };
    expect(tokenLines(page, 'Europe/Berlin').slice(1)).toEqual(['The current access has no end date.']);
  });
});

describe('restrictions', () => {
  it("say TikTok's unaudited app with the places left today, and YouTube's unaudited project", () => {
    expect(restrictionText({ code: 'tiktok_unaudited_app', usersLeft: 3 })).toBe(
      'Until TikTok audits this Herald’s app, TikTok shows its posts to the creator only, takes them only while ' +
        'the account itself is set to private, and from at most 5 accounts a day: 3 of 5 places are left today.',
    );
    expect(restrictionText({ code: 'tiktok_unaudited_app', usersLeft: 1 })).toMatch(/1 of 5 places is left today\.$/);
    expect(restrictionText({ code: 'youtube_unaudited_project' })).toBe(
      'Until Google audits this Herald’s YouTube project, YouTube makes every upload private, whatever visibility ' +
        'is chosen.',
    );
  });
});

describe('the renewal banner', () => {
  it('warns a week ahead, for working accounts only', () => {
    expect(renewalEndsSoon(account(6))).toBe(true);
    expect(renewalEndsSoon(account(8))).toBe(false);
    expect(renewalEndsSoon(account(-1))).toBe(true);
    expect(renewalEndsSoon(account(6, 'expired'))).toBe(false);
    expect(renewalEndsSoon(account(null))).toBe(false);
  });

  it('names the account and the date, or counts several and names the first', () => {
    const one = renewalBanner([account(6)], 'Europe/Berlin');
    expect(one.title).toMatch(new RegExp(`^Acme TV must be reconnected by ${A_TIME}$`));
    expect(one.hint).toBe(
      'YouTube stops renewing Herald’s access to it then, and posts to it would wait. Reconnect it on the ' +
        'Accounts page before then.',
    );
    const first = { ...account(2), displayName: 'Acme Bluesky', platform: 'bluesky' as const };
    const two = renewalBanner([account(6), first], 'Europe/Berlin');
    expect(two.title).toBe('2 accounts must be reconnected soon');
    expect(two.hint).toMatch(new RegExp(`the first, Acme Bluesky, must be reconnected by ${A_TIME}\\. Reconnect`));
    expect(`${one.title} ${two.hint}`).not.toMatch(ISO);
  });
});
