// Guards the dashboard's session-only routes: a signed-in session cookie, never an API key or OAuth
// token, and for every state change the X-CSRF-Token that GET /auth/session hands out.
import type { NextFunction, Request, Response } from 'express';
import { credentialForSession } from '../db/identity.ts';
import { ApiError, errorBody, unauthenticated } from '../domain/errors.ts';
import type { Services } from '../runtime/services.ts';
import { readCookie, SESSION_COOKIE } from './api.ts';

export type SessionCredential = NonNullable<Awaited<ReturnType<typeof credentialForSession>>>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function failWith(res: Response, err: ApiError, publicUrl: string): void {
  for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  res.status(err.status).json(errorBody(err, publicUrl));
}

/** Middleware: puts the session's credential in res.locals.cred, or answers 401/403. */
export function requireSession(services: Services) {
  const { db, keyring, config } = services;
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (req.headers.authorization) {
        return failWith(
          res,
          new ApiError(
            401,
            'unauthenticated',
            'This dashboard route takes a signed-in session; API keys and OAuth tokens are refused.',
            'Do this in the dashboard, signed in, without an Authorization header.',
          ),
          config.publicUrl,
        );
      }
      const token = readCookie(req.headers.cookie, SESSION_COOKIE);
      const cred = token ? await credentialForSession(db, token) : undefined;
      if (!cred) return failWith(res, unauthenticated(), config.publicUrl);
      const sent = req.headers['x-csrf-token'];
      if (
        !SAFE_METHODS.has(req.method) &&
        (typeof sent !== 'string' || !keyring.verify(cred.sessionId, sent, 'csrf'))
      ) {
        return failWith(
          res,
          new ApiError(
            403,
            'csrf_failed',
            'This dashboard request lacks a valid X-CSRF-Token header.',
            'Reload the dashboard and try again.',
          ),
          config.publicUrl,
        );
      }
      res.locals.cred = cred satisfies SessionCredential;
      req.workspaceId = cred.workspace.id;
      next();
    } catch (err) {
      next(err);
    }
  };
}
