// The signed-in person and workspace. Server state lives in TanStack Query; this only names the session query.
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { hasRole } from '../../domain/roles.ts';
import { authApi, call, Failure, setCsrfToken, type AuthSchemas } from './api.ts';

/** The person, the workspace, their role in it (the settings pages show what it allows), and the CSRF token. */
export type Session = AuthSchemas['Session'];

export const SESSION_KEY = ['session'] as const;

/** The session, or null when nobody is signed in. */
export async function loadSession(): Promise<Session | null> {
  try {
    const session = await call(authApi.GET('/session'));
    setCsrfToken(session.csrfToken);
    return session;
  } catch (err) {
    if (err instanceof Failure && err.status === 401) return null;
    throw err;
  }
}

/** Signs in with a password; a 401 here is the form's answer (wrong email or password), not a session that ended. */
export async function signIn(email: string, password: string): Promise<Session> {
  try {
    const session = await call(authApi.POST('/sign-in', { body: { email, password } }));
    setCsrfToken(session.csrfToken);
    return session;
  } catch (err) {
    if (err instanceof Failure && err.status === 401) throw new Failure('sign_in_refused', err.message, '', 401);
    throw err;
  }
}

export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: loadSession, staleTime: Infinity });
}

/** The signed-in session; only for pages under the signed-in shell. */
export function useSignedIn(): Session {
  const { data } = useSession();
  if (!data) throw new Error('useSignedIn outside the signed-in shell');
  return data;
}

/**
 * Whether the signed-in person's role reaches `needed` (domain/roles.ts). The server decides; pages use this to
 * offer only what the role may do, instead of buttons that end in a refusal.
 */
export function useMay(needed: Session['role']): boolean {
  return hasRole(useSignedIn().role, needed);
}

/**
 * A page's data answered 401 and the person did not sign in again in place (SessionRenewal.tsx): the session ended.
 * Forgetting it sends the dashboard to sign-in with `?next=` this page (App's SignedOut), and back here after. A
 * change that gets 401 keeps its form on screen and offers "Sign in again" instead (ErrorNote).
 */
export function forgetEndedSession(client: QueryClient, err: unknown): void {
  if (err instanceof Failure && err.status === 401 && client.getQueryData(SESSION_KEY))
    client.setQueryData(SESSION_KEY, null);
}

/**
 * Another person (or nobody, or another workspace) now: nothing cached for the previous one may show, and the
 * signed-in pages start afresh (SignedInScope).
 */
export function startAfresh(client: QueryClient, session: Session | null): void {
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
  client.setQueryData(SESSION_KEY, session);
}

export function useResetSession() {
  const client = useQueryClient();
  return async () => startAfresh(client, await loadSession());
}

/**
 * The signed-in pages, started afresh for each person and workspace: what a page holds (the data it keeps on screen
 * while the next loads, a form's choices, a filter's accounts) never carries over into another workspace.
 */
export function SignedInScope({ children }: { children: ReactNode }) {
  const { user, workspace } = useSignedIn();
  return <Fragment key={`${user.id} ${workspace.id}`}>{children}</Fragment>;
}
