// Sign-up: a person and their own workspace on Free, in their browser's time zone. Sign-ups count against the
// sign-in limit per client address. The answer never tells whether the email already has an account: a sign-up
// with a taken email changes nothing and mails a note to that address instead.
import type { Db } from '../../db/connect.ts';
import { createWorkspace, EmailTaken, NotFirstAccount } from '../../db/identity.ts';
import { ApiError, invalidRequest } from '../../domain/errors.ts';
import { isValidZone } from '../../domain/when.ts';
import type { SignUpPolicy } from '../../runtime/config.ts';
import type { Services } from '../../runtime/services.ts';
import { checkedPassword, hashPassword, isEmailAddress } from '../../signin/passwords.ts';
import { createRateLimiter, type RateLimiter } from '../rateLimit.ts';
import type { AuthHandler } from '../../handlers/authTypes.ts';

/** At most one "you already have an account" note per address in this time, so the form cannot flood a mailbox. */
const NOTICE_GAP_MS = 60_000;

export interface NewPerson {
  email: string;
  name: string;
  password: string;
  timeZone: string;
}

/** The sign-up form's fields, checked beyond their types; throws invalid_request naming the first wrong one. */
export function readSignUp(body: { email?: string; name?: string; password?: string; timeZone?: string }): NewPerson {
  const email = (body.email ?? '').trim().toLowerCase();
  const name = (body.name ?? '').trim();
  const timeZone = body.timeZone?.trim() || 'UTC';
  if (!isEmailAddress(email)) {
    throw invalidRequest(
      '`email` must be an email address.',
      'Type the address you sign in with, like ana@example.com.',
    );
  }
  if (!name || name.length > 100)
    throw invalidRequest('`name` must be 1 to 100 characters.', 'Type your name as teammates should see it.', {
      field: 'name',
    });
  const password = checkedPassword(body.password);
  if (!isValidZone(timeZone))
    throw invalidRequest(`\`timeZone\` "${timeZone}" is not an IANA time zone.`, 'Send a zone like Europe/Paris.');
  return { email, name, password, timeZone };
}

/** The refusal while sign-up is by invitation: said alike to everyone, so it tells no one who has an account. */
export function signUpClosed(): ApiError {
  return new ApiError(
    403,
    'sign_up_closed',
    'This Herald instance takes new accounts by invitation only.',
    "Ask your workspace's owner for an invitation; if you have an account, sign in.",
  );
}

/** Whether anyone may sign up now, and whether nobody has yet (a fresh instance sends its first visitor there). */
async function signUpState(db: Db, policy: SignUpPolicy): Promise<{ open: boolean; firstUser: boolean }> {
  const firstUser = !(await db('users').first('id'));
  return { open: policy === 'open' || (policy === 'first-account' && firstUser), firstUser };
}

export const getSignUpState: AuthHandler<'getSignUpState'> = async ({ services }) => ({
  status: 200,
  body: await signUpState(services.db, services.config.signUp),
});

/** One notice limiter per database, so every app on it counts the same notices. */
const noticeLimiters = new WeakMap<Db, RateLimiter>();

/** Tells the owner of a taken address that someone tried to sign up with it, and where to go if it was them. */
async function noticeTaken(services: Services, email: string): Promise<void> {
  const { db, config, mailer } = services;
  const notices = noticeLimiters.get(db) ?? createRateLimiter(db, 1, NOTICE_GAP_MS);
  noticeLimiters.set(db, notices);
  if (!(await notices.hit(`sign-up-notice:${email}`)).allowed) return;
  const app = `${config.publicUrl}/app`;
  await mailer.send({
    to: email,
    subject: 'Your Herald account already exists',
    text:
      `Someone tried to create a Herald account with ${email}, which already has one; nothing was changed.\n\n` +
      `If it was you, sign in at ${app}/sign-in, or choose a new password at ${app}/forgot-password.\n\n` +
      'If it was not you, ignore this mail.',
  });
}

export const signUp: AuthHandler<'signUp'> = async ({ body, request, signIn, services }) => {
  const { db, config, logger } = services;
  await signIn.limitAddress(request.ip);
  const person = readSignUp(body);
  if (!(await signUpState(db, config.signUp)).open) throw signUpClosed();
  // The email is checked where the account is made, in one transaction: a sign-up beside this one cannot
  // take it in between. Hashed first, so the answer takes as long whether or not the address is taken.
  await createWorkspace(db, {
    name: `${person.name}'s workspace`,
    plan: 'free',
    tz: person.timeZone,
    email: person.email,
    userName: person.name,
    passwordHash: await hashPassword(person.password),
    onlyFirstAccount: config.signUp === 'first-account',
  }).catch((err: unknown) => {
    // Another first sign-up won the instance meanwhile: this one is refused as any later one is.
    if (err instanceof NotFirstAccount) throw signUpClosed();
    if (!(err instanceof EmailTaken)) throw err;
    // Sent after the answer: its time must not tell whether the address has an account.
    noticeTaken(services, person.email).catch((e: unknown) =>
      logger.warn({ err: e, reqId: request.id }, 'the sign-up notice could not be sent'),
    );
  });
  return {
    status: 202,
    body: {
      message:
        `Sign in as ${person.email} with the password you chose. If that address already had a Herald ` +
        'account, nothing was changed and a note went to it instead.',
    },
  };
};
