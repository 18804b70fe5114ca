// Dashboard sign-up: a person and their own workspace on Free, in their browser's time zone. Sign-ups count
// against the sign-in limit per client address (signIn.ts).
import express from 'express';
import { createWorkspace, findUserByEmail, setPasswordHash } from '../db/identity.ts';
import { ApiError, invalidRequest } from '../domain/errors.ts';
import { isValidZone } from '../domain/when.ts';
import type { Services } from '../runtime/services.ts';
import { isEmailAddress } from './passwords.ts';
import { failWith } from './sessionGuard.ts';
import { hashPassword } from './sessionRoutes.ts';
import type { PasswordSignIn } from './signIn.ts';

export const MIN_PASSWORD_LENGTH = 10;

export interface NewPerson {
  email: string;
  name: string;
  password: string;
  timeZone: string;
}

/** The sign-up form's fields, checked; throws invalid_request naming the first wrong one. */
export function readSignUp(body: unknown): NewPerson {
  const b = (body ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof b[name] === 'string' ? (b[name] as string).trim() : '');
  const email = text('email').toLowerCase();
  const name = text('name');
  const password = typeof b.password === 'string' ? b.password : '';
  const timeZone = text('timeZone') || 'UTC';
  if (!isEmailAddress(email)) {
    throw invalidRequest(
      '`email` must be an email address.',
      'Type the address you sign in with, like ana@example.com.',
    );
  }
  if (!name || name.length > 100)
    throw invalidRequest('`name` must be 1 to 100 characters.', 'Type your name as teammates should see it.');
  if (password.length < MIN_PASSWORD_LENGTH || password.length > 200) {
    throw invalidRequest(
      `\`password\` must be ${MIN_PASSWORD_LENGTH} to 200 characters.`,
      'Pick a longer password; a few words make a good one.',
    );
  }
  if (!isValidZone(timeZone))
    throw invalidRequest(`\`timeZone\` "${timeZone}" is not an IANA time zone.`, 'Send a zone like Europe/Paris.');
  return { email, name, password, timeZone };
}

export function signUpRoutes(services: Services, signIn: PasswordSignIn): express.Router {
  const { db, config } = services;
  const router = express.Router();

  /** Whether anyone has signed up yet: a fresh instance sends its first visitor to sign-up. */
  router.get('/sign-up', async (_req, res, next) => {
    try {
      res.json({ firstUser: !(await db('users').first('id')) });
    } catch (err) {
      next(err);
    }
  });

  router.post('/sign-up', async (req, res, next) => {
    try {
      await signIn.limitAddress(req.ip ?? '');
      const person = readSignUp(req.body);
      if (await findUserByEmail(db, person.email)) {
        throw new ApiError(
          409,
          'email_taken',
          `Someone already signed up with ${person.email}.`,
          'Sign in instead, or use another email.',
        );
      }
      const { workspaceId, userId } = await createWorkspace(db, {
        name: `${person.name}'s workspace`,
        plan: 'free',
        tz: person.timeZone,
        email: person.email,
        userName: person.name,
      });
      await setPasswordHash(db, userId, await hashPassword(person.password));
      res.status(201).json({ user: { id: userId, name: person.name, email: person.email }, workspaceId });
    } catch (err) {
      if (err instanceof ApiError) failWith(res, err, config.publicUrl);
      else next(err);
    }
  });

  return router;
}
