// The session-only routes under /auth, dispatched from their contract (auth.yaml) through the same chain as /v1
// (contractChain.ts): routing by path template, the session, its CSRF token and the operation's role (`x-role`,
// named by `x-action` in a refusal), validation from the contract, then the handler named by the operationId.
// API keys and OAuth tokens are refused on every route (the spec: these actions have no endpoint or tool).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Document } from 'openapi-backend';
import type { Role } from '../domain/credential.ts';
import { ApiError, unauthenticated } from '../domain/errors.ts';
import { MemberRefused, type MemberRefusalCode } from '../domain/memberRefusal.ts';
import { assertRole } from '../domain/roles.ts';
import { loadAuthContract } from '../runtime/contract.ts';
import type { Services } from '../runtime/services.ts';
import { sessionFrom } from '../signin/session.ts';
import type { ApiResponse } from './apiResponse.ts';
import { send } from './sendJson.ts';
import { OPEN_OPERATIONS, type AuthContext, type AuthHandlers } from '../handlers/authTypes.ts';
import { contractBackend, type Route } from './contractChain.ts';
import { decodablePath, malformedPath } from './requestFaults.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The status of each refusal of the membership rules (db/members.ts decides them without HTTP). */
const MEMBER_REFUSAL_STATUS: Record<MemberRefusalCode, number> = {
  invalid_request: 400,
  not_found: 404,
  already_member: 409,
  owner_required: 409,
  invite_unusable: 410,
};

type Tools = Pick<AuthContext<'getSession'>, 'signIn' | 'billing'>;

/**
 * The express layer of the /auth contract's operations (mounted at /auth, after the routes serving operations of
 * their own); a path or method it does not know goes on to the next layer.
 */
export async function authApi(
  services: Services,
  handlers: AuthHandlers,
  tools: Tools,
  renderError: (err: unknown, requestId: string) => ApiResponse,
): Promise<RequestHandler> {
  const { db, keyring } = services;
  const contract = structuredClone(loadAuthContract()) as Document;
  const { routes, match, checkedInput } = await contractBackend(contract);
  const open = new Set<string>(OPEN_OPERATIONS);
  for (const { op, secured } of routes) {
    if (secured === open.has(op.operationId!))
      throw new Error(`auth.yaml's ${op.operationId} and OPEN_OPERATIONS disagree on whether it needs a session`);
  }

  /** The signed-in person an operation needs, with the CSRF token of a change and the least role of `x-role`. */
  async function authorize(route: Route, req: Request) {
    if (!route.secured) return undefined;
    const { 'x-role': role, 'x-action': action } = route.op as unknown as { 'x-role': Role; 'x-action': string };
    if (req.headers.authorization !== undefined) {
      // A bearer credential wins over the cookie (as on /v1), and these routes take none.
      throw new ApiError(
        401,
        'unauthenticated',
        `${action} is done in the dashboard by a signed-in person; API keys and OAuth tokens are refused.`,
        'Sign in to the dashboard and do it there; send no Authorization header.',
      );
    }
    const cred = await sessionFrom(db, req);
    if (!cred) throw unauthenticated();
    req.workspaceId = cred.workspace.id;
    const sent = req.headers['x-csrf-token'];
    if (!SAFE_METHODS.has(req.method) && (typeof sent !== 'string' || !keyring.verify(cred.sessionId, sent, 'csrf'))) {
      throw new ApiError(
        403,
        'csrf_failed',
        'This dashboard request lacks a valid X-CSRF-Token header.',
        'Reload the dashboard and try again.',
      );
    }
    assertRole(cred.role!, role, action);
    return { ...cred, role: cred.role! };
  }

  async function dispatch(req: Request, route: Route, params: Record<string, string>): Promise<ApiResponse> {
    const cred = await authorize(route, req);
    const input = { method: req.method, path: req.path, headers: req.headers, query: req.query, body: req.body };
    const query = checkedInput(route.op, input as never, params);
    const handler = handlers[route.op.operationId as keyof AuthHandlers] as (ctx: unknown) => Promise<ApiResponse>;
    return handler({
      cred,
      params,
      query,
      body: req.body,
      services,
      request: { id: req.id, ip: req.ip ?? '', headers: req.headers },
      ...tools,
    });
  }

  return async (req: Request, res: Response, next: NextFunction) => {
    if (!decodablePath(req.path)) {
      send(res, renderError(malformedPath(), req.id));
      return;
    }
    const found = match(req.method, req.path);
    if (!('route' in found) || !(found.route.op.operationId! in handlers)) {
      next();
      return;
    }
    try {
      send(res, await dispatch(req, found.route, found.params));
    } catch (err) {
      const refusal =
        err instanceof MemberRefused
          ? new ApiError(MEMBER_REFUSAL_STATUS[err.code], err.code, err.message, err.hint, { ...err.facts })
          : err;
      send(res, renderError(refusal, req.id));
    }
  };
}
