// The words of the session-only routes' refusals that say why (auth.yaml): an invitation or reset link that cannot
// be used, a member invited twice, a downgrade the workspace does not fit. Each is worded from the refusal's facts
// (`field`, `limit`, `actual`), never from its message.
import { bytesText } from '../format.ts';

type Body = Record<string, unknown>;
interface Said {
  title: string;
  hint?: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A link's refusal by why it cannot be used (`actual`), with a sentence for any other reason. */
function unusableWords(sentences: Record<string, string>, hint: string, body: Body): Said {
  const title = sentences[String(body.actual)] ?? sentences.other!;
  const altered = 'Open the link exactly as it came in the email, or ask for a new one.';
  return { title, hint: body.actual === 'altered' ? altered : hint };
}

const INVITE_UNUSABLE = {
  used: 'This invitation was already accepted.',
  expired: 'This invitation has expired.',
  withdrawn: 'This invitation was withdrawn or replaced by a newer one.',
  altered: 'This invitation link is incomplete or was altered.',
  other: 'This invitation can no longer be used.',
};

const RESET_UNUSABLE = {
  used: 'This password reset link was already used.',
  expired: 'This password reset link has expired.',
  altered: 'This password reset link is incomplete or was altered.',
  other: 'This password reset link can no longer be used.',
};

/** Why an invitation cannot be used (`actual`: used, expired, withdrawn, altered, missing). */
export const inviteUnusableWords = (body: Body): Said =>
  unusableWords(INVITE_UNUSABLE, 'Ask the person who invited you for a new one.', body);

/** Why a password reset link cannot be used (`actual`: used, expired, altered, missing). */
export const resetUnusableWords = (body: Body): Said =>
  unusableWords(RESET_UNUSABLE, 'Ask for a new one from the sign-in page.', body);

/** Inviting a member (`field: email`), or accepting an invitation to a workspace one is in already. */
export function alreadyMemberWords(body: Body): Said {
  return body.field === 'email'
    ? { title: 'This person is already a member of the workspace.', hint: 'Change their role instead.' }
    : { title: 'You are already a member of this workspace.', hint: 'Switch to it from the workspace menu.' };
}

/** What a downgrade is over, from its first limit: `field` the usage, `limit` the plan's allowance, `actual` it. */
const OVER: Record<string, (limit: number, actual: number) => Said> = {
  accounts: (limit, actual) => ({
    title: `This workspace has ${plural(actual, 'connected account')}; that plan allows ${limit}.`,
    hint: 'Disconnect accounts first, then change the plan.',
  }),
  members: (limit, actual) => ({
    title: `This workspace has ${plural(actual, 'member')} and pending invitations; that plan allows ${limit}.`,
    hint: 'Remove members or withdraw invitations first, then change the plan.',
  }),
  storageBytes: (limit, actual) => ({
    title: `This workspace stores ${bytesText(actual)} of files; that plan stores ${bytesText(limit)}.`,
    hint: 'Delete files you no longer need first, then change the plan.',
  }),
  postsPerMonth: (limit, actual) => ({
    title: `This month counts ${plural(actual, 'post')}; that plan allows ${limit} a month.`,
    hint: 'Cancel queued posts first, or change the plan next month.',
  }),
  groups: (_limit, actual) => ({
    title: `This workspace has ${plural(actual, 'account group')}; that plan has no groups.`,
    hint: 'Delete the groups first, then change the plan.',
  }),
};

/** A downgrade the workspace does not fit, by the first limit it is over. */
export function downgradeWords(body: Body): Said {
  const over = OVER[String(body.field)];
  if (over && typeof body.limit === 'number' && typeof body.actual === 'number') return over(body.limit, body.actual);
  return {
    title: 'The workspace uses more than the smaller plan allows.',
    hint: 'Disconnect accounts or remove members first, then change the plan.',
  };
}
