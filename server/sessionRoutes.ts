// Dashboard sign-in: email and password (argon2id) to an HttpOnly session cookie. Not part of the public
// contract; the dashboard and the MCP consent page use it. State changes with the cookie need the
// X-CSRF-Token header that these routes hand out.
import express, { type Request, type Response } from 'express';
import { credentialForSession, deleteSession } from '../db/identity.ts';
import type { Db } from '../db/connect.ts';
import { ApiError, errorBody, invalidRequest, unauthenticated } from '../domain/errors.ts';
import type { Keyring } from '../runtime/crypto.ts';
import type { Services } from '../runtime/services.ts';
import { readCookie, SESSION_COOKIE } from './api.ts';
import type { PasswordSignIn } from '../signin/passwordSignIn.ts';

/** The session token the request's cookie carries, valid or not. */
export function carriedSessionToken(req: Request): string | undefined {
  return readCookie(req.headers.cookie, SESSION_COOKIE);
}

/** The dashboard session whose cookie came with the request, if it is valid. */
export async function sessionFrom(db: Db, req: Request) {
  const token = carriedSessionToken(req);
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

export function sessionRoutes(services: Services, signIn: PasswordSignIn) {
  const { db, keyring, config } = services;
  const router = express.Router();

  function fail(res: Response, err: ApiError): void {
    res
      .set(err.headers ?? {})
      .status(err.status)
      .json(errorBody(err, config.publicUrl));
  }

  const cookie = (token: string, maxAgeSeconds: number) => sessionCookie(config.publicUrl, token, maxAgeSeconds);

  const sessionOf = (req: Request) => sessionFrom(db, req);

  const describe = (cred: SessionCredential) => describeSession(keyring, cred);

  router.post('/sign-in', async (req, res, next) => {
    const { email, password } = (req.body ?? {}) as { email?: unknown; password?: unknown };
    if (typeof email !== 'string' || typeof password !== 'string') {
      return fail(
        res,
        invalidRequest('`email` and `password` are required strings.', 'Send {"email": ..., "password": ...} as JSON.'),
      );
    }
    try {
      const session = await signIn.signInWithPassword(email, password, req.ip ?? '', carriedSessionToken(req));
      const maxAge = Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000);
      res.setHeader('Set-Cookie', cookie(session.token, maxAge));
      res.json(describe((await credentialForSession(db, session.token))!));
    } catch (err) {
      if (err instanceof ApiError) fail(res, err);
      else next(err);
    }
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
      return fail(
        res,
        new ApiError(
          403,
          'csrf_failed',
          'Sign-out needs a valid X-CSRF-Token header.',
          'Reload the dashboard and try again.',
        ),
      );
    }
    await deleteSession(db, cred.sessionId);
    res.setHeader('Set-Cookie', cookie('', 0));
    res.status(204).end();
  });

  return router;
}
