// The gate of every dashboard-only route (settings, keys, members, billing): a signed-in session and
// nothing else (an API key or OAuth token is refused even beside a cookie), the CSRF token on every
// change, and the least role the action needs. These routes are outside /v1 and the public contract.
import type { Request, RequestHandler, Response } from 'express';
import { environmentFault } from '../db/connect.ts';
import type { Credential, Role } from '../domain/credential.ts';
import { ApiError, errorBody, unauthenticated } from '../domain/errors.ts';
import { MemberRefused, type MemberRefusalCode } from '../domain/memberRefusal.ts';
import { assertRole } from '../domain/roles.ts';
import type { Keyring } from '../runtime/crypto.ts';
import type { Services } from '../runtime/services.ts';
import { send } from './sendJson.ts';
import { sessionFrom } from './sessionRoutes.ts';

export type SessionCredential = Credential & { sessionId: string; role: Role };

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const csrfFailed = () =>
  new ApiError(
    403,
    'csrf_failed',
    'This dashboard request lacks a valid X-CSRF-Token header.',
    'Reload the dashboard and try again.',
  );

function csrfValid(keyring: Keyring, sessionId: string, sent: unknown): boolean {
  return typeof sent === 'string' && keyring.verify(sessionId, sent, 'csrf');
}

/**
 * Whether a browser sent the request from another site's page: a form there must not sign the browser in (login
 * CSRF) before any session, and so any CSRF token, exists. Browsers name the sending page's origin (Origin) and
 * how it relates (Sec-Fetch-Site); the origin must be PUBLIC_URL's or that of the Host the browser asked. A request
 * with neither header was not sent by a browser from another site.
 */
export function sentFromAnotherSite(req: Request, publicUrl: string): boolean {
  if (req.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  return origin !== new URL(publicUrl).origin && origin !== `${req.protocol}://${req.headers.host}`;
}

export function failWith(res: Response, err: ApiError, publicUrl: string): void {
  send(res, { status: err.status, body: errorBody(err, publicUrl), headers: err.headers });
}

/** The status of each refusal of the membership rules (db/members.ts decides them without HTTP). */
const MEMBER_REFUSAL_STATUS: Record<MemberRefusalCode, number> = {
  invalid_request: 400,
  not_found: 404,
  already_member: 409,
  owner_required: 409,
  invite_unusable: 410,
};

/** An ApiError becomes {code, message, hint}; anything else is a fault, logged, and a 500 with the request id. */
function fail(services: Services, req: Request, res: Response, err: unknown): void {
  if (err instanceof MemberRefused) {
    const refusal = new ApiError(MEMBER_REFUSAL_STATUS[err.code], err.code, err.message, err.hint);
    failWith(res, refusal, services.config.publicUrl);
    return;
  }
  if (err instanceof ApiError) {
    failWith(res, err, services.config.publicUrl);
    return;
  }
  const refused = environmentFault(err);
  if (refused) {
    services.logger.error({ err, reqId: req.id }, refused.message);
    failWith(res, refused, services.config.publicUrl);
    return;
  }
  services.logger.error({ err, reqId: req.id }, 'unexpected fault');
  send(res, {
    status: 500,
    body: {
      code: 'internal',
      message: 'An unexpected fault occurred; it has been logged.',
      hint: `Try again; if it persists, report request id ${req.id}.`,
      requestId: req.id,
    },
  });
}

/** Runs a handler that answers or throws, outside any session check (sign-up, reset and invitation links). */
export function openRoute(services: Services, run: (req: Request) => Promise<Answer>): RequestHandler {
  return async (req, res) => {
    try {
      send(res, await run(req));
    } catch (err) {
      fail(services, req, res, err);
    }
  };
}

/** A signed-in person with at least `role` may run it; `action` names it in a refusal. */
export function sessionRoute(
  services: Services,
  need: { role: Role; action: string },
  run: (cred: SessionCredential, req: Request) => Promise<Answer>,
): RequestHandler {
  return openRoute(services, async (req) => {
    if (req.headers.authorization !== undefined) {
      // A bearer credential wins over the cookie (as on /v1), and these routes take none.
      throw new ApiError(
        401,
        'unauthenticated',
        `${need.action} is done in the dashboard by a signed-in person; API keys and OAuth tokens are refused.`,
        'Sign in to the dashboard and do it there; send no Authorization header.',
      );
    }
    const cred = await sessionFrom(services.db, req);
    if (!cred) throw unauthenticated();
    req.workspaceId = cred.workspace.id;
    if (!SAFE_METHODS.has(req.method) && !csrfValid(services.keyring, cred.sessionId, req.headers['x-csrf-token']))
      throw csrfFailed();
    const role = cred.role!;
    assertRole(role, need.role, need.action);
    return run({ ...cred, role }, req);
  });
}

/** The JSON object a route was sent, or a 400 that says so. */
export function bodyOf(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(
      400,
      'invalid_request',
      'The request body must be a JSON object.',
      'Send Content-Type: application/json with an object.',
    );
  }
  return body as Record<string, unknown>;
}
