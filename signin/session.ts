// The dashboard session as every interface that signs a person in reads and writes it (the /auth routes, the
// MCP consent page): the HttpOnly cookie, the session it carries, what the dashboard learns about it, and the
// check that a form came from this site.
import type { IncomingHttpHeaders } from 'node:http';
import { credentialForSession } from '../db/identity.ts';
import type { Db } from '../db/connect.ts';
import type { Keyring } from '../runtime/crypto.ts';

export const SESSION_COOKIE = 'herald_session';

/** A cookie's value; a value with a broken percent escape is no cookie at all. */
export function readCookie(header: string | string[] | undefined, name: string): string | undefined {
  const text = Array.isArray(header) ? header.join('; ') : (header ?? '');
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The session token the request's cookie carries, valid or not. */
export function carriedSessionToken(req: { headers: IncomingHttpHeaders }): string | undefined {
  return readCookie(req.headers.cookie, SESSION_COOKIE);
}

/** The dashboard session whose cookie came with the request, if it is valid. */
export async function sessionFrom(db: Db, req: { headers: IncomingHttpHeaders }) {
  const token = carriedSessionToken(req);
  return token ? credentialForSession(db, token) : undefined;
}

export type SessionCredential = NonNullable<Awaited<ReturnType<typeof credentialForSession>>>;

/** What the dashboard learns about its session: who, where, in which role, and the CSRF token of changes. */
export function describeSession(keyring: Keyring, cred: SessionCredential) {
  const csrfToken = keyring.sign(cred.sessionId, 'csrf');
  return { user: cred.user, workspace: cred.workspace, role: cred.role!, csrfToken };
}

/** The session cookie: HttpOnly, SameSite=Lax, and Secure behind https. */
export function sessionCookie(publicUrl: string, token: string, maxAgeSeconds: number): string {
  const secure = publicUrl.startsWith('https://') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/**
 * Whether a browser sent the request from another site's page: a form there must not sign the browser in (login
 * CSRF) before any session, and so any CSRF token, exists. Browsers name the sending page's origin (Origin) and
 * how it relates (Sec-Fetch-Site); the origin must be PUBLIC_URL's or that of the Host the browser asked. A request
 * with neither header was not sent by a browser from another site.
 */
export function sentFromAnotherSite(
  req: { headers: IncomingHttpHeaders; protocol: string },
  publicUrl: string,
): boolean {
  if (req.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  return origin !== new URL(publicUrl).origin && origin !== `${req.protocol}://${req.headers.host}`;
}
