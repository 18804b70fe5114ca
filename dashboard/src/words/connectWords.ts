// The words of the form that connects an account by signing in (Bluesky's app passwords), where a network has no
// consent page of its own; and what a connection's outcome says on the accounts page: why nothing was connected,
// the plan's limit on accounts, and the posts a reconnect sent again.
import type { NothingFoundReason } from '../../../networks/oauth.ts';
import { nextPlanWith, PLANS, type PlanName } from '../../../domain/plans.ts';
import { failureWords, type FailureFacts, type Words } from './words.ts';

export const SIGN_IN_WORDS = {
  identifier: 'Handle or email',
  identifierHint: 'The account’s handle, such as acmeshop.bsky.social, or the email it signs in with.',
  password: 'App password',
  passwordHint:
    'Make one in Bluesky under Settings, Privacy and security, App passwords. Herald keeps only the session it ' +
    'opens with it, never the password, and you can revoke it there at any time.',
  server: 'Server',
  serverHint: 'Where the account lives. Most accounts live on https://bsky.social; leave it unless yours does not.',
  connect: 'Connect',
  cancel: 'Cancel',
} as const;

/** The form's title: connecting a new account of the network, or reconnecting one. */
export const signInTitle = (network: string, reconnecting?: string) =>
  reconnecting ? `Reconnect ${reconnecting}` : `Connect a ${network} account`;

/**
 * The banner over every page while accounts need reconnecting: their network refused Herald's access (a renewal the
 * token upkeep asked for, or a post's call), usually days before a post to them would have failed.
 */
export const reconnectBanner = (names: string[]) => ({
  title: names.length === 1 ? `${names[0]} needs reconnecting` : `${names.length} accounts need reconnecting`,
  hint: 'Their network no longer accepts Herald’s access, so posts to them wait. Reconnect them on the Accounts page.',
  link: 'Go to Accounts',
});

/** Why a network's grant held no account to connect (the refusal's `reason`), with the next step. */
export const NOTHING_FOUND_WORDS: Record<NothingFoundReason, Words> = {
  instagram_not_professional: {
    title:
      'Herald connects Instagram accounts that are professional (Business or Creator) and linked to a Facebook ' +
      'Page, and none of the Pages you chose has one. A personal account cannot be connected.',
    hint:
      'In Instagram, open Settings, then Account type and tools, and switch to a professional account; link it ' +
      'to your Facebook Page; then connect again and choose that Page.',
  },
  facebook_no_page: {
    title: 'Herald publishes to Facebook Pages, and no Page was chosen. A personal profile cannot be connected.',
    hint: 'Connect again and choose at least one Page you manage.',
  },
  youtube_no_channel: {
    title: 'This Google account has no YouTube channel.',
    hint: 'Create a channel at youtube.com, then connect again with the same Google account.',
  },
};

const planName = (plan: PlanName) => plan.charAt(0).toUpperCase() + plan.slice(1);
const accountsText = (n: number) => `${n} account${n === 1 ? '' : 's'}`;
const connectedText = (n: number) => `${n} ${n === 1 ? 'is' : 'are'} connected`;

/**
 * The plan's limit on accounts: told before a connection starts when the plan has no room for one more, and when a
 * grant chose more accounts than there is room for (the refusal's `limit` and `used`).
 */
export function accountLimitWords(plan: PlanName, limit: number, used: number): Words {
  const next = nextPlanWith(plan, (p) => p.accounts > limit);
  const more = next ? `, or move to the ${planName(next)} plan for up to ${accountsText(PLANS[next].accounts)}` : '';
  const title = `The ${planName(plan)} plan connects up to ${accountsText(limit)}`;
  if (used >= limit)
    return { title: `${title}, and ${connectedText(used)}.`, hint: `Disconnect one to connect another${more}.` };
  return {
    title:
      `${title}. ${connectedText(used)}, so there is room for ${limit - used} more, and the network granted ` +
      'more than that.',
    hint: `Connect again and choose fewer accounts at the network, or disconnect one${more}.`,
  };
}

/** The accounts page's words for a connection the server refused; the limit and the reason in connecting's terms. */
export function connectRefusalWords(f: FailureFacts, plan: PlanName): Words {
  const reason = f.body.reason as string;
  if (f.code === 'nothing_to_connect' && Object.hasOwn(NOTHING_FOUND_WORDS, reason))
    return NOTHING_FOUND_WORDS[reason as NothingFoundReason];
  const [limit, used] = [Number(f.body.limit), Number(f.body.used)];
  if (f.code === 'quota_exceeded' && Number.isInteger(limit) && Number.isInteger(used))
    return accountLimitWords(plan, limit, used);
  return failureWords(f);
}

/** "Connected 1 account.", or, after a reconnect, "Reconnected Acme Café." */
export const connectedTitle = (connected: number, reconnected: string | undefined) =>
  reconnected ? `Reconnected ${reconnected}.` : `Connected ${accountsText(connected)}.`;

/**
 * One post a reconnect sent again, named by the time it was meant for (`when`, in words) and its account:
 * "your post of yesterday at 12:00 CET to Acme Café" (the link), after "Sent again:".
 */
export const sentAgainWords = (when: string | undefined, account: string | undefined) => ({
  lead: 'Sent again:',
  post: `your post${when ? ` of ${when}` : ''}${account ? ` to ${account}` : ''}`,
});

/** The posts sent again beyond those named ("and 3 more posts"). */
export const sentAgainMore = (n: number) => `and ${n} more post${n === 1 ? '' : 's'}, sent again too.`;
