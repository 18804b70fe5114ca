// An account's health on the Accounts page, and the banner a week before a token can no longer be renewed: the
// contract's Account.token and Account.restrictions in words, times in the workspace's zone.
import type { Account } from '../api.ts';
import { dayTimeText } from '../format.ts';
import { labelOf } from '../networks.ts';

type Restriction = NonNullable<Account['restrictions']>[number];

/** A renewal end this close warns the owners and administrators. */
const WARN_MS = 7 * 86_400_000;

/** Whether the token's renewal end is within a week (or past) while the account still works. */
export const renewalEndsSoon = (account: Account, now = Date.now()) =>
  account.status === 'ok' &&
  !!account.token?.renewableUntil &&
  Date.parse(account.token.renewableUntil) - now <= WARN_MS;

/**
 * The token's life in sentences: last refresh, then for a working account the access's end and how long Herald can
 * renew it (an account that needs reconnecting has only a refresh time worth saying).
 */
export function tokenLines(account: Account, zone: string): string[] {
  const token = account.token!;
  const lines = [`Access last refreshed ${dayTimeText(token.refreshedAt, zone)}.`];
  if (account.status !== 'ok') return lines;
  lines.push(
    token.expiresAt
      ? `The current access ends ${dayTimeText(token.expiresAt, zone)}; Herald renews it before then.`
      : 'The current access has no end date.',
  );
  if (token.renewableUntil)
    lines.push(`Herald can keep renewing it until ${dayTimeText(token.renewableUntil, zone)} without a reconnect.`);
  return lines;
}

/** What the network holds back until it reviews the operator's app, keyed by the contract's codes. */
const RESTRICTION_WORDS: Record<Restriction['code'], (r: Restriction) => string> = {
  tiktok_unaudited_app: (r) =>
    'Until TikTok audits this Herald’s app, TikTok shows its posts to the creator only, takes them only while the ' +
    `account itself is set to private, and from at most 5 accounts a day: ${placesLeft(r.usersLeft ?? 0)}.`,
  youtube_unaudited_project: () =>
    'Until Google audits this Herald’s YouTube project, YouTube makes every upload private, whatever visibility ' +
    'is chosen.',
};

const placesLeft = (n: number) => (n === 1 ? '1 of 5 places is left today' : `${n} of 5 places are left today`);

export const restrictionText = (r: Restriction) => RESTRICTION_WORDS[r.code](r);

export const guideLinkText = (account: Account) => `${labelOf(account.platform)} guide for operators`;

/** The banner for owners and administrators while tokens near the end of their renewals. */
export function renewalBanner(accounts: Account[], zone: string) {
  const [first] = [...accounts].sort((a, b) => a.token!.renewableUntil!.localeCompare(b.token!.renewableUntil!));
  const when = dayTimeText(first!.token!.renewableUntil!, zone);
  return accounts.length === 1
    ? {
        title: `${first!.displayName} must be reconnected by ${when}`,
        hint:
          `${labelOf(first!.platform)} stops renewing Herald’s access to it then, and posts to it would wait. ` +
          'Reconnect it on the Accounts page before then.',
        link: 'Go to Accounts',
      }
    : {
        title: `${accounts.length} accounts must be reconnected soon`,
        hint:
          `Their networks will stop renewing Herald’s access to them; the first, ${first!.displayName}, must be ` +
          `reconnected by ${when}. Reconnect them on the Accounts page.`,
        link: 'Go to Accounts',
      };
}
