// Typed calls to the public contract (/v1) and to the session-only contract (/auth, auth.yaml), both with the
// session cookie. Every state change carries the X-CSRF-Token from GET /auth/session.
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../generated/api.d.ts';
import type { components as authComponents, paths as authPaths } from '../../generated/auth.d.ts';

export type Schemas = components['schemas'];
export type Account = Schemas['Account'];
export type Media = Schemas['Media'];
export type Folder = Schemas['Folder'];
export type Post = Schemas['Post'];
export type PlanRow = Schemas['PlanRow'];
export type PlanResponse = Schemas['PlanResponse'];
export type Platform = Schemas['Platform'];
export type Issue = Schemas['Issue'];
export type PostQuery = NonNullable<paths['/posts']['get']['parameters']['query']>;

export type AuthSchemas = authComponents['schemas'];
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** The success answer of a session-only operation, as auth.yaml states it. */
export type AuthAnswer<
  P extends keyof authPaths,
  M extends 'get' | 'post' | 'patch' | 'delete',
> = authPaths[P][M] extends {
  responses: infer R;
}
  ? JsonOf<R[Extract<keyof R, 200 | 201 | 202>]>
  : never;

/** Every failure the dashboard shows: the server's {code, message, hint}, or one made up for a network fault. */
export class Failure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint: string,
    readonly status = 0,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

let csrfToken = '';
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

const SAFE = new Set(['GET', 'HEAD']);

/**
 * Asked when a request answers 401 while someone is signed in (the session expired, say, mid-compose): resolves true
 * once the person has signed in again in place, and the request is then sent once more; false when they would not.
 * The signed-in shell sets it (SessionRenewal.tsx), so every page keeps what was typed.
 */
type Renewal = () => Promise<boolean>;
let renewal: Renewal | undefined;
export function setSessionRenewal(next: Renewal | undefined): void {
  renewal = next;
}

/** The renewal's own requests: their 401 is the answer (signed out, wrong password), not a session that ended. */
const NO_RENEWAL = new Set(['/auth/session', '/auth/sign-in']);

/** fetch, except that a 401 asks for the renewal and, once signed in again, sends the request again. */
async function sessionFetch(request: Request): Promise<Response> {
  const again = renewal && !NO_RENEWAL.has(new URL(request.url).pathname) ? request.clone() : undefined;
  const res = await fetch(request);
  if (res.status !== 401 || !again || !renewal || !(await renewal())) return res;
  // The new session has a new CSRF token.
  if (!SAFE.has(again.method)) again.headers.set('X-CSRF-Token', csrfToken);
  return fetch(again);
}

const withCsrf: Middleware = {
  onRequest({ request }) {
    if (!SAFE.has(request.method)) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: '/v1', credentials: 'same-origin', fetch: sessionFetch });
api.use(withCsrf);

/** The session-only routes, typed from auth.yaml as /v1's are from openapi.yaml. */
export const authApi = createClient<authPaths>({ baseUrl: '/auth', credentials: 'same-origin', fetch: sessionFetch });
authApi.use(withCsrf);

function failureOf(status: number, body: unknown): Failure {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.code === 'string' && typeof b.message === 'string') {
    return new Failure(b.code, b.message, typeof b.hint === 'string' ? b.hint : '', status, b);
  }
  return new Failure(
    'unexpected',
    `The server answered ${status} without an explanation.`,
    'Try again in a moment.',
    status,
  );
}

const offline = () => new Failure('offline', 'Herald could not be reached.', 'Check your connection, then try again.');

/** The data of an openapi-fetch answer, or throws its error as a Failure. */
export async function call<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let out: { data?: T; error?: unknown; response: Response };
  try {
    out = await pending;
  } catch {
    throw offline();
  }
  if (out.error !== undefined || !out.response.ok) throw failureOf(out.response.status, out.error);
  return out.data as T;
}
