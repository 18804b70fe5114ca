// Signing in and out: email and password (argon2id, under the sign-in limits of signin/passwordSignIn.ts) to an
// HttpOnly session cookie, and what the dashboard learns about its session, its CSRF token included.
import { credentialForSession, deleteSession } from '../../db/identity.ts';
import { carriedSessionToken, describeSession, sessionCookie } from '../../signin/session.ts';
import type { Services } from '../../runtime/services.ts';
import type { AuthHandler } from '../../handlers/authTypes.ts';

/** The answer that starts a session: its cookie, and the session as `getSession` describes it. */
export async function startedSession(services: Services, session: { token: string; expiresAt: string }) {
  const maxAge = Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000);
  return {
    status: 200 as const,
    headers: { 'Set-Cookie': sessionCookie(services.config.publicUrl, session.token, maxAge) },
    body: describeSession(services.keyring, (await credentialForSession(services.db, session.token))!),
  };
}

export const signIn: AuthHandler<'signIn'> = async ({ body, request, signIn: passwords, services }) => {
  const session = await passwords.signInWithPassword(
    body.email,
    body.password,
    request.ip,
    carriedSessionToken(request),
  );
  return startedSession(services, session);
};

export const getSession: AuthHandler<'getSession'> = async ({ cred, services }) => ({
  status: 200,
  body: describeSession(services.keyring, cred),
});

export const signOut: AuthHandler<'signOut'> = async ({ cred, services }) => {
  await deleteSession(services.db, cred.sessionId);
  return { status: 204, headers: { 'Set-Cookie': sessionCookie(services.config.publicUrl, '', 0) } };
};
