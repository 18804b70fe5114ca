// Passwords: a reset by an emailed single-use link, and a change while signed in.
//   POST /auth/password-reset           {email}: always 202, so the answer never tells who has an account
//   GET  /auth/password-reset?token=…   whether the link can still be used (200 {expiresAt}, else 410), so the
//                                       page says so before a new password is typed
//   POST /auth/password-reset/confirm   {token, password}: sets it once; every session of the person ends
//   POST /auth/password                 {currentPassword, newPassword}: the person's other sessions end; the
//                                       current password is checked under the sign-in limits (signIn.ts)
import express from 'express';
import { findUserByEmail, setPasswordHash } from '../db/identity.ts';
import { createPasswordReset, endOtherSessions, RESET_MINUTES, resetPassword, resetUsable } from '../db/passwords.ts';
import { ApiError } from '../domain/errors.ts';
import type { Services } from '../runtime/services.ts';
import { checkedEmail, checkedPassword, hashPassword } from './passwords.ts';
import { bodyOf, openRoute, sessionRoute } from './sessionGuard.ts';
import type { PasswordSignIn } from './signIn.ts';
import { idFromToken, linkToken } from './signedLinks.ts';

/** At most one reset mail per person in this time, so the form cannot flood a mailbox. */
const RESET_MAIL_GAP_MS = 60_000;

export function passwordRoutes(services: Services, signIn: PasswordSignIn): express.Router {
  const { db, keyring, config, mailer, logger } = services;
  const router = express.Router();

  router.post(
    '/password-reset',
    openRoute(services, async (req) => {
      const email = checkedEmail(bodyOf(req).email);
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
          .catch((err: unknown) => logger.warn({ err, reqId: req.id }, 'the password reset mail could not be sent'));
      }
      return {
        status: 202,
        body: {
          message:
            `If ${email} has a Herald account, a reset link is on its way; it works once, ` +
            `within ${RESET_MINUTES} minutes.`,
        },
      };
    }),
  );

  const unusable = (what: string) =>
    new ApiError(
      410,
      'reset_unusable',
      `This password reset link ${what}.`,
      'Ask for a new link from the sign-in page.',
    );
  const resetOf = (token: unknown) => {
    const resetId = idFromToken(keyring, 'password-resets', token);
    if (!resetId) throw unusable('is incomplete or was altered');
    return resetId;
  };

  router.get(
    '/password-reset',
    openRoute(services, async (req) => {
      const state = await resetUsable(db, resetOf(req.query.token));
      if ('unusable' in state) throw unusable(state.unusable);
      return { status: 200, body: state };
    }),
  );

  router.post(
    '/password-reset/confirm',
    openRoute(services, async (req) => {
      const body = bodyOf(req);
      const resetId = resetOf(body.token);
      const outcome = await resetPassword(db, resetId, await hashPassword(checkedPassword(body.password)));
      if ('unusable' in outcome) throw unusable(outcome.unusable);
      return { status: 204 };
    }),
  );

  router.post(
    '/password',
    sessionRoute(services, { role: 'member', action: 'Changing your password' }, async (cred, req) => {
      const body = bodyOf(req);
      const newPassword = checkedPassword(body.newPassword, 'newPassword');
      const current = typeof body.currentPassword === 'string' ? body.currentPassword : '';
      const proven = await signIn.checkPassword(cred.user.email ?? '', current, req.ip ?? '');
      if (proven?.id !== cred.user.id) {
        throw new ApiError(
          403,
          'wrong_password',
          'The current password is wrong; nothing was changed.',
          'Type your current password again.',
        );
      }
      await setPasswordHash(db, cred.user.id, await hashPassword(newPassword));
      return { status: 200, body: { otherSessionsEnded: await endOtherSessions(db, cred.user.id, cred.sessionId) } };
    }),
  );

  return router;
}
