// Routing, authentication, scope and validation from the contract, then the handler named by the operationId.
// openapi-backend loads the contract and validates requests (Ajv, compiled once per operation); routing and the
// chain are ours, so a request is parsed once. REST and MCP both call `handle`, so both get the same chain.
import { randomUUID } from 'node:crypto';
import type { Document } from 'openapi-backend';
import { operations } from '../generated/operations.ts';
import { environmentFault } from '../db/connect.ts';
import { idempotencyKeys } from '../db/idempotencyKeys.ts';
import { workspaceData, type WorkspaceData } from '../db/workspaceData.ts';
import { credentialForApiKey, credentialForSession } from '../db/identity.ts';
import type { Credential, Workspace } from '../domain/credential.ts';
import { ApiError, errorBody, insufficientScope, unauthenticated } from '../domain/errors.ts';
import { assertApiAccess } from '../domain/quotas.ts';
import { assertRole, OPERATION_ROLES } from '../domain/roles.ts';
import type { AfterCommit, Handlers, Interface, OperationId } from '../handlers/types.ts';
import { SETTINGS_SCHEMAS } from '../networks/settingsCheck.ts';
import type { Clock } from '../runtime/clock.ts';
import { loadContract } from '../runtime/contract.ts';
import { sha256 } from '../runtime/crypto.ts';
import type { Services } from '../runtime/services.ts';
import { carriedSessionToken } from '../signin/session.ts';
import type { ApiResponse } from './apiResponse.ts';
import { contractBackend, type Route } from './contractChain.ts';
import { KEY_HEADER, requestFingerprint, runWithKey } from './idempotency.ts';
import { MAX_JSON_LENGTH, SETTINGS_MAX_JSON } from './maxJsonLength.ts';
import { decodablePath, malformedPath } from './requestFaults.ts';

/** A request as the API reads it, plus what we learn on the way. */
export interface ApiRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query?: Record<string, unknown>;
  body?: unknown;
  requestId: string;
  via: 'rest' | 'mcp';
  /** The request's one credential: set by authentication, or preset by the MCP endpoint (then no header is read). */
  cred?: Credential & { sessionId?: string };
}

export type { ApiResponse };

/** The token of an `Authorization: Bearer` header: undefined without one, '' when it is malformed. */
function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !/^Bearer(\s|$)/i.test(value)) return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(value)?.[1] ?? '';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * How long a resolved API key is reused, with its workspace (name, plan, zone): a revoked key stops working, and a
 * plan change reaches requests made with keys, within this time on every server. Sessions are read on every
 * request, so a role change, a removed member or a plan change is seen by the dashboard's next request.
 */
export const KEY_CACHE_MS = 1000;

/**
 * Remembers found API keys briefly, by hash, so a busy client costs one lookup per second. The cache is
 * Herald's own and nobody outside judges its age, so it reads the injected clock.
 */
function cacheKeys(clock: Clock, resolve: (key: string) => Promise<Credential | undefined>) {
  const found = new Map<string, { cred: Credential; until: number }>();
  return async (key: string): Promise<Credential | undefined> => {
    const id = sha256(key);
    const now = clock.now();
    const hit = found.get(id);
    if (hit && hit.until > now) return hit.cred;
    const cred = await resolve(key);
    if (found.size > 10_000) found.clear();
    if (cred) found.set(id, { cred, until: now + KEY_CACHE_MS });
    else found.delete(id);
    return cred;
  };
}
const SCOPES = new Map(operations.map((op) => [op.operationId, op.scope]));
const SUMMARIES = new Map(operations.map((op) => [op.operationId, op.summary]));

export async function createApi(services: Services, handlers: Handlers) {
  const { db, keyring, config } = services;
  // openapi-backend dereferences in place, so it gets its own copy of the served contract.
  const contract = structuredClone(loadContract()) as Document;
  // perPlatform settings are checked per plan row (networks/settingsCheck.ts): a wrong one is the row
  // issue setting_invalid, never a 400 for the whole request, so validation lets any object through. Anything
  // else is a 400 naming perPlatform.<network>: a string spread into an object grew 13 bytes per byte. So is an
  // object too large to be settings: a draft keeps its settings as given, and every event of it repeats them.
  const schemas = contract.components!.schemas!;
  for (const name of Object.values(SETTINGS_SCHEMAS))
    schemas[name] = Object.assign(
      { type: 'object' as const, description: (schemas[name] as { description?: string }).description },
      { [MAX_JSON_LENGTH]: SETTINGS_MAX_JSON },
    );

  const { match, checkedInput } = await contractBackend(contract);

  const credentialForKey = cacheKeys(services.clock, (key) => credentialForApiKey(db, key));
  // A cached credential's workspace object is the same for a second: so is its data access.
  const dataOf = new WeakMap<Workspace, WorkspaceData>();
  const dataFor = (workspace: Workspace) => {
    const known = dataOf.get(workspace);
    if (known) return known;
    const data = workspaceData(db, workspace, services.clock, services.jobs);
    dataOf.set(workspace, data);
    return data;
  };
  /**
   * The request's one credential. Precedence: a credential preset by the caller (the MCP endpoint authenticates
   * its own way) and no header is read; else an `Authorization: Bearer` header, and then the cookie is not read
   * even when the key is wrong; else the session cookie. A request never mixes two credentials.
   */
  async function credentialOf(req: ApiRequest): Promise<ApiRequest['cred']> {
    if (req.cred) return req.cred;
    const token = bearerToken(req.headers.authorization);
    if (token !== undefined) return token ? credentialForKey(token) : undefined;
    const session = carriedSessionToken(req);
    return session ? credentialForSession(db, session) : undefined;
  }

  /**
   * Every operation but those with `security: []` needs the request's credential, its plan's API access, the
   * dashboard's CSRF token and the operation's scope. It runs before validation: a read key learns it lacks a
   * scope before it learns what is wrong with its body.
   */
  async function authorize(route: Route, req: ApiRequest): Promise<void> {
    if (!route.secured) return;
    // A fault while finding the credential (say, the database is down) is a 500, not a 401.
    const cred = await credentialOf(req);
    if (!cred) throw unauthenticated();
    req.cred = cred;
    const operationId = route.op.operationId!;
    if (req.via === 'rest' && cred.via === 'api_key') assertApiAccess(cred.workspace.plan);
    if (cred.sessionId && !SAFE_METHODS.has(req.method.toUpperCase())) {
      const sent = req.headers['x-csrf-token'];
      if (typeof sent !== 'string' || !keyring.verify(cred.sessionId, sent, 'csrf')) {
        throw new ApiError(
          403,
          'csrf_failed',
          'This dashboard request lacks a valid X-CSRF-Token header.',
          'Reload the dashboard and try again.',
        );
      }
    }
    if (SCOPES.get(operationId) === 'write' && !cred.scopes.includes('write')) throw insufficientScope('write');
    // Within the role as well: a person's own, or for a key or grant that of its maker today, so a key made by an
    // administrator who is now a member no longer manages groups.
    if (cred.role) assertRole(cred.role, OPERATION_ROLES[operationId as OperationId], SUMMARIES.get(operationId)!);
  }

  /** The operation for a method and path: a path no template matches is 404, a known path with another method 405. */
  function route(method: string, path: string): { route: Route; params: Record<string, string> } {
    const found = match(method, path);
    if ('route' in found) return found;
    if (found.pathKnown) {
      throw new ApiError(
        405,
        'method_not_allowed',
        `${method.trim().toUpperCase()} is not allowed on ${path}.`,
        'See /v1/openapi.json for the methods of each route.',
      );
    }
    throw new ApiError(404, 'not_found', 'No such route in the v1 API.', 'See /v1/openapi.json for every route.');
  }

  /** Routing, authentication and authorization, validation from the contract, then the operation's handler. */
  async function dispatch(req: ApiRequest): Promise<ApiResponse> {
    if (!decodablePath(req.path)) throw malformedPath();
    const { route: found, params } = route(req.method, req.path);
    const { op } = found;
    await authorize(found, req);
    const query = checkedInput(op, req, params);
    const handler = handlers[op.operationId as OperationId] as ((ctx: unknown) => Promise<ApiResponse>) | undefined;
    if (!handler) {
      throw new ApiError(
        501,
        'not_implemented',
        `${op.operationId} is not available in this version yet.`,
        'See the change log in the documentation.',
      );
    }
    const cred = req.cred;
    const via: Interface = req.via === 'mcp' ? 'mcp' : cred?.via === 'session' ? 'dashboard' : 'api';
    const context = { cred, params, query, body: req.body, via, services };
    // The contract validated the key (1 to 255 printable characters).
    const key = req.headers[KEY_HEADER];
    if (!found.keyed || !cred || typeof key !== 'string') {
      // Each repository write commits by itself: the handler's writes are committed once it returns.
      const committed: AfterCommit[] = [];
      const out = await handler({
        ...context,
        data: cred && dataFor(cred.workspace),
        afterCommit: (work: AfterCommit) => committed.push(work),
      });
      for (const work of committed) await work();
      return out;
    }
    return runWithKey({
      keys: idempotencyKeys(db, cred.workspace.id, services.clock, keyring),
      key,
      fingerprint: requestFingerprint(op.operationId!, params, query, req.body),
      operationId: op.operationId!,
      db,
      render: (err) => renderError(err, req.requestId),
      run: (keyedDb, afterCommit) =>
        handler({
          ...context,
          data: workspaceData(keyedDb, cred.workspace, services.clock, services.jobs),
          afterCommit,
        }),
    });
  }

  /** Renders an error for the wire; anything that is not an ApiError is a fault, logged with its request id. */
  function renderError(err: unknown, requestId: string): ApiResponse {
    if (err instanceof ApiError) {
      return { status: err.status, body: errorBody(err, config.publicUrl), headers: err.headers };
    }
    const refused = environmentFault(err);
    if (refused) {
      services.logger.error({ err, requestId }, refused.message);
      return renderError(refused, requestId);
    }
    services.logger.error({ err, requestId }, 'unexpected fault');
    return {
      status: 500,
      body: {
        code: 'internal',
        message: 'An unexpected fault occurred; it has been logged.',
        hint: `Try again; if it persists, report request id ${requestId}.`,
        requestId,
      },
    };
  }

  async function handle(req: ApiRequest): Promise<ApiResponse> {
    try {
      return await dispatch(req);
    } catch (err) {
      return renderError(err, req.requestId);
    }
  }

  // The MCP endpoint resolves API keys with this same cached lookup before it presets `cred`.
  return { handle, renderError, credentialForKey };
}

export function newRequestId(incoming: unknown): string {
  return typeof incoming === 'string' && /^[\w.-]{8,64}$/.test(incoming) ? incoming : randomUUID();
}
