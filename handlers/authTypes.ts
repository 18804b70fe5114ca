// The handler contract of the session-only routes: one function per operationId of auth.yaml, typed from
// generated/auth.d.ts. A handler returns its success answer; every refusal is a thrown ApiError.
import type { IncomingHttpHeaders } from 'node:http';
import type { BillingProvider } from '../billing/index.ts';
import type { operations } from '../generated/auth.d.ts';
import type { Role } from '../domain/credential.ts';
import type { BodyOf, PartOf, ResultOf } from './types.ts';
import type { Services } from '../runtime/services.ts';
import type { PasswordSignIn } from '../signin/passwordSignIn.ts';
import type { SessionCredential } from '../signin/session.ts';

export type AuthOperationId = keyof operations;

/** The operations anyone may call (`security: []`): signing in and up, and the emailed links. */
export const OPEN_OPERATIONS = [
  'signIn',
  'getSignUpState',
  'signUp',
  'requestPasswordReset',
  'getPasswordReset',
  'confirmPasswordReset',
  'getInvite',
  'acceptInvite',
] as const satisfies readonly AuthOperationId[];
type OpenOperationId = (typeof OPEN_OPERATIONS)[number];

/** The operations served by routes of their own (server/app.ts says which), not by a handler here. */
export const OWN_ROUTES = [
  'streamEvents',
  'startConnect',
  'finishConnect',
] as const satisfies readonly AuthOperationId[];
type OwnRouteId = (typeof OWN_ROUTES)[number];

/** A signed-in person, in the session's workspace and role. */
export type SignedIn = SessionCredential & { role: Role };

export interface AuthContext<K extends AuthOperationId> {
  /** The signed-in person; none on the open operations, which read a session themselves if they need one. */
  cred: K extends OpenOperationId ? undefined : SignedIn;
  params: PartOf<operations[K], 'path'>;
  query: PartOf<operations[K], 'query'>;
  body: BodyOf<operations[K]>;
  services: Services;
  /** What else of the request the session routes read: the client's address counts sign-in attempts. */
  request: { id: string; ip: string; headers: IncomingHttpHeaders };
  /** The sign-in limits every password check counts against. */
  signIn: PasswordSignIn;
  billing: BillingProvider;
}

export type AuthHandler<K extends AuthOperationId> = (ctx: AuthContext<K>) => Promise<ResultOf<operations[K]>>;
export type AuthHandlers = { [K in Exclude<AuthOperationId, OwnRouteId>]: AuthHandler<K> };
