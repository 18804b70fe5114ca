// Passwords: a reset by an emailed single-use link, and a change while signed in. A reset is always answered 202,
// so the answer never tells who has an account; a change checks the current password under the sign-in limits.
import { findUserByEmail, setPasswordHash } from '../../db/identity.ts';
import {
  createPasswordReset,
  endOtherSessions,
  RESET_MINUTES,
  resetPassword,
  resetUsable,
  type ResetUnusable,
} from '../../db/passwords.ts';
import { ApiError } from '../../domain/errors.ts';
import type { Keyring } from '../../runtime/crypto.ts';
import { checkedEmail, checkedPassword, hashPassword } from '../../signin/passwords.ts';
import { idFromToken, linkToken } from '../signedLinks.ts';
import type { AuthHandler } from '../../handlers/authTypes.ts';

/** At most one reset mail per person in this time, so the form cannot flood a mailbox. */
const RESET_MAIL_GAP_MS = 60_000;

export const requestPasswordReset: AuthHandler<'requestPasswordReset'> = async ({ body, request, services }) => {
  const { db, keyring, config, mailer, logger } = services;
  const email = checkedEmail(body.email);
  const user = await findUserByEmail(db, email);
  const recent =
    user &&
    (await db('password_resets')
      .where({ user_id: user.id })
      .where('created_at', '>', new Date(Date.now() - RESET_MAIL_GAP_MS).toISOString())
      .first('id'));
  if (user && !recent) {
    const reset = await createPasswordReset(db, user.id);
    const token = encodeURIComponent(linkToken(keyring, 'password-resets', reset.id));
    const link = `${config.publicUrl}/app/reset-password?token=${token}`;
    // Sent after the answer: its time must not tell whether the address has an account.
    mailer
      .send({
        to: email,
        subject: 'Reset your Herald password',
        text:
          `Someone asked to reset the password of ${email} on Herald.\n\nChoose a new one within ` +
          `${RESET_MINUTES} minutes: ` +
          `${link}\n\nThe link works once. If it was not you, ignore this mail; your password stays as it is.`,
      })
      .catch((err: unknown) => logger.warn({ err, reqId: request.id }, 'the password reset mail could not be sent'));
  }
  return {
    status: 202,
    body: {
      message:
        `If ${email} has a Herald account, a reset link is on its way; it works once, ` +
        `within ${RESET_MINUTES} minutes.`,
    },
  };
};

const unusable = ({ unusable: what, why }: ResetUnusable) =>
  new ApiError(
    410,
    'reset_unusable',
    `This password reset link ${what}.`,
    'Ask for a new link from the sign-in page.',
    {
      actual: why,
    },
  );

function resetOf(keyring: Keyring, token: string | undefined): string {
  const resetId = idFromToken(keyring, 'password-resets', token);
  if (!resetId) throw unusable({ unusable: 'is incomplete or was altered', why: 'altered' });
  return resetId;
}

/** Whether the link can still be used, so the page says so before a new password is typed. */
export const getPasswordReset: AuthHandler<'getPasswordReset'> = async ({ query, services }) => {
  const state = await resetUsable(services.db, resetOf(services.keyring, query.token));
  if ('unusable' in state) throw unusable(state);
  return { status: 200, body: state };
};

export const confirmPasswordReset: AuthHandler<'confirmPasswordReset'> = async ({ body, services }) => {
  const resetId = resetOf(services.keyring, body.token);
  const outcome = await resetPassword(services.db, resetId, await hashPassword(checkedPassword(body.password)));
  if ('unusable' in outcome) throw unusable(outcome);
  return { status: 204 };
};

export const changePassword: AuthHandler<'changePassword'> = async ({ cred, body, request, signIn, services }) => {
  const newPassword = checkedPassword(body.newPassword, 'newPassword');
  const proven = await signIn.checkPassword(cred.user.email ?? '', body.currentPassword, request.ip);
  if (proven?.id !== cred.user.id) {
    throw new ApiError(
      403,
      'wrong_password',
      'The current password is wrong; nothing was changed.',
      'Type your current password again.',
    );
  }
  await setPasswordHash(services.db, cred.user.id, await hashPassword(newPassword));
  return {
    status: 200,
    body: { otherSessionsEnded: await endOtherSessions(services.db, cred.user.id, cred.sessionId) },
  };
};
