// Dashboard sign-in: email and password (argon2id) to an HttpOnly session cookie. Not part of the public
// contract; the dashboard and the MCP consent page use it. State changes with the cookie need the
// X-CSRF-Token header that these routes hand out.
import { hash, verify } from '@node-rs/argon2';
import express, { type Request, type Response } from 'express';
import { createSession, credentialForSession, deleteSession, findUserByEmail, firstMembership } from '../db/identity.ts';
import type { Db } from '../db/connect.ts';
import { ApiError, errorBody, invalidRequest, unauthenticated } from '../domain/errors.ts';
import type { Keyring } from '../runtime/crypto.ts';
import type { Services } from '../runtime/services.ts';
import { readCookie, SESSION_COOKIE } from './api.ts';

// Verifying against a fixed hash when the email is unknown keeps both answers equally slow.
const UNKNOWN_USER_HASH = hash('herald-unknown-user');

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** The dashboard session whose cookie came with the request, if it is valid. */
export async function sessionFrom(db: Db, req: Request) {
  const token = readCookie(req.headers.cookie, SESSION_COOKIE);
  return token ? credentialForSession(db, token) : undefined;
}

type SessionCredential = NonNullable<Awaited<ReturnType<typeof credentialForSession>>>;

/** What the dashboard learns about its session: who, where, in which role, and the CSRF token of changes. */
export function describeSession(keyring: Keyring, cred: SessionCredential) {
  const csrfToken = keyring.sign(cred.sessionId, 'csrf');
  return { user: cred.user, workspace: cred.workspace, role: cred.role, csrfToken };
}

/** The session cookie: HttpOnly, SameSite=Lax, and Secure behind https. */
export function sessionCookie(publicUrl: string, token: string, maxAgeSeconds: number): string {
  const secure = publicUrl.startsWith('https://') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

export function sessionRoutes(services: Services) {
  const { db, keyring, config } = services;
  const router = express.Router();

  function fail(res: Response, err: ApiError): void {
    res.status(err.status).json(errorBody(err, config.publicUrl));
  }

  const cookie = (token: string, maxAgeSeconds: number) => sessionCookie(config.publicUrl, token, maxAgeSeconds);

  const sessionOf = (req: Request) => sessionFrom(db, req);

  const describe = (cred: SessionCredential) => describeSession(keyring, cred);

  router.post('/sign-in', async (req, res) => {
    const { email, password } = (req.body ?? {}) as { email?: unknown; password?: unknown };
    if (typeof email !== 'string' || typeof password !== 'string') {
      return fail(res, invalidRequest('`email` and `password` are required strings.', 'Send {"email": ..., "password": ...} as JSON.'));
    }
    const user = await findUserByEmail(db, email);
    const ok = await verify(user?.password_hash ?? (await UNKNOWN_USER_HASH), password);
    const workspaceId = user && ok ? await firstMembership(db, user.id) : undefined;
    if (!user || !ok || !workspaceId) {
      return fail(res, new ApiError(401, 'unauthenticated', 'The email or password is wrong.', 'Check both and try again.'));
    }
    const session = await createSession(db, user.id, workspaceId);
    res.setHeader('Set-Cookie', cookie(session.token, Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000)));
    res.json(describe((await credentialForSession(db, session.token))!));
  });

  router.get('/session', async (req, res) => {
    const cred = await sessionOf(req);
    if (!cred) return fail(res, unauthenticated());
    res.json(describe(cred));
  });

  router.post('/sign-out', async (req, res) => {
    const cred = await sessionOf(req);
    if (!cred) return fail(res, unauthenticated());
    const sent = req.headers['x-csrf-token'];
    if (typeof sent !== 'string' || !keyring.verify(cred.sessionId, sent, 'csrf')) {
      return fail(res, new ApiError(403, 'csrf_failed', 'Sign-out needs a valid X-CSRF-Token header.', 'Reload the dashboard and try again.'));
    }
    await deleteSession(db, cred.sessionId);
    res.setHeader('Set-Cookie', cookie('', 0));
    res.status(204).end();
  });

  return router;
}
