// Routing, authentication, scope and validation from the contract (openapi-backend), then the handler
// named by the operationId. REST and MCP both call `handle`, so both get the same chain.
import { randomUUID } from 'node:crypto';
import { OpenAPIBackend, type Context, type Document } from 'openapi-backend';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { operations } from '../generated/operations.ts';
import { workspaceData, type WorkspaceData } from '../db/workspaceData.ts';
import { credentialForApiKey, credentialForSession } from '../db/identity.ts';
import type { Credential, Workspace } from '../domain/credential.ts';
import { ApiError, errorBody, insufficientScope, invalidRequest, unauthenticated } from '../domain/errors.ts';
import { assertApiAccess } from '../domain/quotas.ts';
import { assertRole, OPERATION_ROLES } from '../domain/roles.ts';
import type { Handlers, Interface, OperationId } from '../handlers/types.ts';
import { SETTINGS_SCHEMAS } from '../networks/settingsCheck.ts';
import type { Clock } from '../runtime/clock.ts';
import { loadContract } from '../runtime/contract.ts';
import { sha256 } from '../runtime/crypto.ts';
import type { Services } from '../runtime/services.ts';
import { validationMessage } from './validationMessage.ts';
import { decodablePath, fieldWithNul, malformedPath, nulRefused } from './requestFaults.ts';

const addFormats = addFormatsModule as unknown as (ajv: unknown) => unknown;
export const SESSION_COOKIE = 'herald_session';

/** A request as openapi-backend reads it, plus what we learn on the way. */
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
  /** A fault while authenticating (say, the database is down): a 500, not a 401. */
  authFault?: unknown;
}

export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

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
/** The RegExp of an OpenAPI path template: each {parameter} is one path segment, the rest literal. */
function templatePattern(path: string): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${path
      .split(/\{[^}]+\}/)
      .map(literal)
      .join('[^/]+')}$`,
  );
}

/** How specific a path template is: the length of its literal parts. */
const specificity = (path: string) => path.replace(/\{.*?\}/g, '').length;

const SCOPES = new Map(operations.map((op) => [op.operationId, op.scope]));
const SUMMARIES = new Map(operations.map((op) => [op.operationId, op.summary]));

export async function createApi(services: Services, handlers: Handlers) {
  const { db, keyring, config } = services;
  // openapi-backend dereferences in place, so it gets its own copy of the served contract.
  const contract = structuredClone(loadContract()) as Document;
  // perPlatform settings are checked per plan row (networks/settingsCheck.ts): a wrong one is the row
  // issue setting_invalid, never a 400 for the whole request, so validation lets any value through.
  const schemas = contract.components!.schemas!;
  for (const name of Object.values(SETTINGS_SCHEMAS))
    schemas[name] = { description: (schemas[name] as { description?: string }).description };

  const api = new OpenAPIBackend({
    definition: contract,
    strict: true,
    // An operation without parameters or body has nothing to validate unless a query string came (which it
    // refuses): skipping the validator then spares the hot reads (whoami, accounts) three more request parses.
    validate: (c: Context) =>
      Boolean(c.operation.parameters?.length || c.operation.requestBody) ||
      Object.keys(c.request.query ?? {}).length > 0,
    // Quick: each operation's validators are compiled on its first request rather than all at startup, and
    // (as below) openapi-backend skips its own definition check; the contract has only local references.
    quick: true,
    coerceTypes: true,
    // One Ajv per operation: validating each schema against the meta-schema would compile the meta-schema
    // in every one of them; `redocly lint` validates the contract instead.
    ajvOpts: { allErrors: true, strict: false, validateSchema: false },
    customizeAjv: (ajv) => {
      addFormats(ajv);
      // RFC 3339 admits a leap second (23:59:60), which no clock or database here can hold.
      const rfc3339 = fullFormats['date-time'] as { validate: (text: string) => boolean };
      ajv.addFormat('date-time', (text: string) => rfc3339.validate(text) && !/:60(\.\d+)?([zZ]|[+-]|$)/.test(text));
      return ajv;
    },
  });
  // openapi-backend checks documents against the 3.0 meta-schema, which a 3.1 contract fails;
  // `redocly lint` validates the contract instead.
  api.validateDefinition = () => api.document;

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
  const resolved = new WeakMap<ApiRequest, Promise<ApiRequest['cred']>>();
  /**
   * The request's one credential, resolved once however many security schemes ask. Precedence: a credential
   * preset by the caller (the MCP endpoint authenticates its own way) and no header is read; else an
   * `Authorization: Bearer` header, and then the cookie is not read even when the key is wrong; else the
   * session cookie. A request never mixes two credentials.
   */
  function credentialOf(req: ApiRequest): Promise<ApiRequest['cred']> {
    let found = resolved.get(req);
    if (!found) {
      found = (async () => {
        if (req.cred) return req.cred;
        const token = bearerToken(req.headers.authorization);
        if (token !== undefined) return token ? credentialForKey(token) : undefined;
        const session = readCookie(req.headers.cookie, SESSION_COOKIE);
        return session ? credentialForSession(db, session) : undefined;
      })();
      resolved.set(req, found);
    }
    return found;
  }
  // openapi-backend reads a throwing security handler as "not authorized"; keep faults apart.
  const authenticate = async (_c: Context, req: ApiRequest) => {
    try {
      req.cred = await credentialOf(req);
    } catch (err) {
      req.authFault = err;
    }
    return Boolean(req.cred);
  };
  api.registerSecurityHandler('apiKey', authenticate);
  api.registerSecurityHandler('session', authenticate);

  const authorized = new WeakMap<ApiRequest, string>();
  /**
   * Every operation but those with `security: []` needs the request's credential, its plan's API access, the
   * dashboard's CSRF token and the operation's scope; the operation's handler runs only after this passed.
   */
  function authorize(operationId: string, req: ApiRequest): void {
    if (SCOPES.get(operationId) === 'none') return;
    if (req.authFault) throw req.authFault;
    const cred = req.cred;
    if (!cred) throw unauthenticated();
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
    // People signed in to the dashboard act within their role; keys and grants within their scopes.
    if (cred.role) assertRole(cred.role, OPERATION_ROLES[operationId as OperationId], SUMMARIES.get(operationId)!);
    authorized.set(req, operationId);
  }

  api.register({
    notFound: () => {
      throw new ApiError(404, 'not_found', 'No such route in the v1 API.', 'See /v1/openapi.json for every route.');
    },
    methodNotAllowed: (c: Context) => {
      throw new ApiError(
        405,
        'method_not_allowed',
        `${c.request.method.toUpperCase()} is not allowed on ${c.request.path}.`,
        'See /v1/openapi.json for the methods of each route.',
      );
    },
    unauthorizedHandler: (_c: Context, req: ApiRequest) => {
      throw req.authFault ?? unauthenticated();
    },
    // Runs after authentication and before validation: a read key learns it lacks a scope before it
    // learns what is wrong with its body.
    postSecurityHandler: (c: Context, req: ApiRequest) => authorize(c.operation.operationId!, req),
    validationFail: (c: Context) => {
      throw invalidRequest(validationMessage(c.validation.errors ?? []));
    },
    notImplemented: (c: Context) => {
      throw new ApiError(
        501,
        'not_implemented',
        `${c.operation.operationId} is not available in this version yet.`,
        'See the change log in the documentation.',
      );
    },
  });

  for (const [operationId, handler] of Object.entries(handlers)) {
    api.register(operationId, async (c: Context, req: ApiRequest) => {
      if (SCOPES.get(operationId) !== 'none' && authorized.get(req) !== operationId) {
        throw new Error(`${operationId} was reached without authorization`);
      }
      const nul = fieldWithNul({ ...c.request.params, ...c.request.query }) ?? fieldWithNul(c.request.requestBody);
      if (nul) throw nulRefused(nul);
      const cred = req.cred;
      const via: Interface = req.via === 'mcp' ? 'mcp' : cred?.via === 'session' ? 'dashboard' : 'api';
      return (handler as (ctx: unknown) => Promise<ApiResponse>)({
        cred,
        data: cred && dataFor(cred.workspace),
        params: c.request.params,
        query: c.validation?.coerced?.query ?? c.request.query,
        body: c.request.requestBody,
        via,
        services,
      });
    });
  }
  await api.init();
  // openapi-backend 5.21 re-flattens the whole document on every routing call (router.getOperations);
  // the document never changes after init, so flatten it once.
  const flattened = api.router.getOperations();
  api.router.getOperations = () => flattened;
  // Its routing also compiles a RegExp for every templated path on every request: compile them once, and keep its
  // rules (the exact path first, else the matching templates by specificity; no path is 404, no method 405).
  const templates = flattened
    .map((op) => ({ op, pattern: templatePattern(op.path) }))
    .sort((a, b) => specificity(b.op.path) - specificity(a.op.path));
  api.router.matchOperation = ((req: ApiRequest, strict?: boolean) => {
    const { path, method } = api.router.normalizeRequest(req as never);
    const relative = api.router.normalizePath(path);
    const exact = flattened.find((op) => op.path === relative && op.method === method);
    if (exact) return exact;
    const matching = templates.filter((t) => t.pattern.test(relative));
    const found = matching.find((t) => t.op.method === method)?.op;
    if (found || !strict) return found;
    throw new Error(
      matching.length
        ? '405-methodNotAllowed: this method is not registered for the route'
        : '404-notFound: no route matches request',
    );
  }) as typeof api.router.matchOperation;

  /** Renders an error for the wire; anything that is not an ApiError is a fault, logged with its request id. */
  function renderError(err: unknown, requestId: string): ApiResponse {
    if (err instanceof ApiError) {
      return { status: err.status, body: errorBody(err, config.publicUrl), headers: err.headers };
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
      if (!decodablePath(req.path)) throw malformedPath();
      return (await api.handleRequest(req as never, req)) as ApiResponse;
    } catch (err) {
      return renderError(err, req.requestId);
    }
  }

  // The MCP endpoint resolves API keys with this same cached lookup before it presets `cred`.
  return { handle, renderError, api, credentialForKey };
}

export function newRequestId(incoming: unknown): string {
  return typeof incoming === 'string' && /^[\w.-]{8,64}$/.test(incoming) ? incoming : randomUUID();
}
