// Routing, authentication, scope and validation from the contract, then the handler named by the operationId.
// openapi-backend loads the contract and validates requests (Ajv, compiled once per operation); routing and the
// chain are ours, so a request is parsed once. REST and MCP both call `handle`, so both get the same chain.
import { randomUUID } from 'node:crypto';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { operations } from '../generated/operations.ts';
import { environmentFault } from '../db/connect.ts';
import { idempotencyKeys } from '../db/idempotencyKeys.ts';
import { workspaceData, type WorkspaceData } from '../db/workspaceData.ts';
import { credentialForApiKey, credentialForSession } from '../db/identity.ts';
import type { Credential, Workspace } from '../domain/credential.ts';
import { ApiError, errorBody, insufficientScope, invalidRequest, unauthenticated } from '../domain/errors.ts';
import { assertApiAccess } from '../domain/quotas.ts';
import { assertRole, OPERATION_ROLES } from '../domain/roles.ts';
import type { AfterCommit, Handlers, Interface, OperationId } from '../handlers/types.ts';
import { SETTINGS_SCHEMAS } from '../networks/settingsCheck.ts';
import type { Clock } from '../runtime/clock.ts';
import { loadContract } from '../runtime/contract.ts';
import { sha256 } from '../runtime/crypto.ts';
import type { Services } from '../runtime/services.ts';
import type { ApiResponse } from './apiResponse.ts';
import { KEY_HEADER, requestFingerprint, runWithKey } from './idempotency.ts';
import { MAX_JSON_LENGTH, maxJsonLength, SETTINGS_MAX_JSON } from './maxJsonLength.ts';
import { validationFacts, validationMessage } from './validationMessage.ts';
import { decodablePath, fieldWithNul, malformedPath, nulRefused } from './requestFaults.ts';

const addFormats = addFormatsModule as unknown as (ajv: unknown) => unknown;
export const SESSION_COOKIE = 'herald_session';

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
/** A contract operation as the dispatcher matches it: by its path template, compiled once. */
interface Route {
  op: Operation;
  /** The template as a RegExp, each {parameter} one path segment (captured), the rest literal. */
  pattern: RegExp;
  names: string[];
  /** Needs a credential: the operation (or the contract) names security requirements. */
  secured: boolean;
  /** Takes the `Idempotency-Key` header (the contract's mutating operations). */
  keyed: boolean;
}

function toRoute(op: Operation): Route {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const pattern = new RegExp(
    `^${op.path
      .split(/\{[^}]+\}/)
      .map(literal)
      .join('([^/]+)')}$`,
  );
  const keyed = Boolean(
    op.parameters?.some((p) => 'in' in p && p.in === 'header' && p.name.toLowerCase() === KEY_HEADER),
  );
  return { op, pattern, names, secured: Boolean(op.security?.length), keyed };
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
  // issue setting_invalid, never a 400 for the whole request, so validation lets any object through. Anything
  // else is a 400 naming perPlatform.<network>: a string spread into an object grew 13 bytes per byte. So is an
  // object too large to be settings: a draft keeps its settings as given, and every event of it repeats them.
  const schemas = contract.components!.schemas!;
  for (const name of Object.values(SETTINGS_SCHEMAS))
    schemas[name] = Object.assign(
      { type: 'object' as const, description: (schemas[name] as { description?: string }).description },
      { [MAX_JSON_LENGTH]: SETTINGS_MAX_JSON },
    );

  const api = new OpenAPIBackend({
    definition: contract,
    // Quick: each operation's validators are compiled on its first request rather than all at startup, and
    // (as below) openapi-backend skips its own definition check; the contract has only local references.
    quick: true,
    coerceTypes: true,
    // One Ajv per operation: validating each schema against the meta-schema would compile the meta-schema
    // in every one of them; `redocly lint` validates the contract instead.
    // verbose: validationMessage reads the schema and value of a failed union (./validationMessage.ts).
    ajvOpts: { allErrors: true, strict: false, validateSchema: false, verbose: true },
    customizeAjv: (ajv) => {
      addFormats(ajv);
      // RFC 3339 admits a leap second (23:59:60), which no clock or database here can hold.
      const rfc3339 = fullFormats['date-time'] as { validate: (text: string) => boolean };
      ajv.addFormat('date-time', (text: string) => rfc3339.validate(text) && !/:60(\.\d+)?([zZ]|[+-]|$)/.test(text));
      ajv.addKeyword(maxJsonLength);
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
  /**
   * The request's one credential. Precedence: a credential preset by the caller (the MCP endpoint authenticates
   * its own way) and no header is read; else an `Authorization: Bearer` header, and then the cookie is not read
   * even when the key is wrong; else the session cookie. A request never mixes two credentials.
   */
  async function credentialOf(req: ApiRequest): Promise<ApiRequest['cred']> {
    if (req.cred) return req.cred;
    const token = bearerToken(req.headers.authorization);
    if (token !== undefined) return token ? credentialForKey(token) : undefined;
    const session = readCookie(req.headers.cookie, SESSION_COOKIE);
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

  await api.init();
  // The most specific template first (an exact path before any template that also matches it); a path no template
  // matches is 404, a known path with another method 405.
  const routes = api.router
    .getOperations()
    .map(toRoute)
    .sort((a, b) => specificity(b.op.path) - specificity(a.op.path));

  /** The operation for a method and path, with its decoded path parameters. */
  function route(method: string, path: string): { route: Route; params: Record<string, string> } {
    let relative = path.split('?')[0]!.trim() || '/';
    while (relative.length > 1 && relative.endsWith('/')) relative = relative.slice(0, -1);
    const asked = method.trim().toLowerCase();
    // HEAD is GET without the body (RFC 9110 §9.3.2): node's response leaves the body out of a HEAD answer.
    const verb = asked === 'head' ? 'get' : asked;
    let pathKnown = false;
    for (const candidate of routes) {
      const match = candidate.pattern.exec(relative);
      if (!match) continue;
      pathKnown = true;
      if (candidate.op.method !== verb) continue;
      const params: Record<string, string> = {};
      candidate.names.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1]!)));
      return { route: candidate, params };
    }
    if (pathKnown) {
      throw new ApiError(
        405,
        'method_not_allowed',
        `${asked.toUpperCase()} is not allowed on ${path}.`,
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
    let query = req.query ?? {};
    // An operation without parameters or body has nothing to validate unless a query string came (which it
    // refuses): the hot reads (whoami, accounts) skip the validator.
    if (op.parameters?.length || op.requestBody || Object.keys(query).length) {
      const validation = api.validator.validateRequest(req as never, op);
      if (validation.errors) {
        throw invalidRequest(validationMessage(validation.errors), undefined, validationFacts(validation.errors));
      }
      query = (validation.coerced?.query as Record<string, unknown> | undefined) ?? query;
    }
    // jsonBody (requestFaults.ts) refused bodies nested deeper than this walk can go.
    const nul = fieldWithNul({ ...params, ...query }) ?? fieldWithNul(req.body);
    if (nul) throw nulRefused(nul);
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
