// The remote MCP endpoint ({mcp_url} = $PUBLIC_URL/mcp): Streamable HTTP, stateless, JSON responses. Every
// POST authenticates its bearer (an API key or an OAuth access token), builds a server for that caller and
// answers; nothing is kept in memory between requests, so any instance answers any request.
import express, { type NextFunction, type Request, type Response } from 'express';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Credential, Scope } from '../domain/credential.ts';
import { rateLimited } from '../domain/errors.ts';
import { PLANS } from '../domain/plans.ts';
import type { Services } from '../runtime/services.ts';
import type { ApiRequest, ApiResponse } from '../server/api.ts';
import { countAddress, type RateLimiter } from '../server/rateLimit.ts';
import { jsonBody } from '../server/requestFaults.ts';
import { answerExchange, readExchange, rpcError, type Exchange } from './jsonTransport.ts';
import { createMcpServer } from './server.ts';
import { isWriteTool, toRestRequest, unknownToolMessage, type ToolEntry } from './tools.ts';

export const MCP_PATH = '/mcp';

export interface McpEndpointDeps {
  services: Services;
  /** The REST chain (server/api.ts `handle`). */
  handle(req: ApiRequest): Promise<ApiResponse>;
  /** A bearer token to its credential (API key or OAuth access token), or undefined when it is not valid. */
  resolveBearer(token: string): Promise<Credential | undefined>;
  /** The per-address limit, which counted the POST itself before it came here. */
  limiter: RateLimiter;
}

/** The tools a credential sees: a Free workspace gets the read-only MCP whatever the key or grant allows. */
export function mcpScopes(cred: Credential): Scope[] {
  return PLANS[cred.workspace.plan].mcp === 'read' ? ['read'] : [...cred.scopes];
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostnameOf(authority: string): string | undefined {
  try {
    return new URL(`http://${authority}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * DNS rebinding: a page on an attacker's name that resolves to this server must not reach it. Host must be
 * PUBLIC_URL's host name or a loopback name; an Origin, when a browser sends one, must be one of those too.
 */
export function rebindingProblem(req: Request, publicUrl: string): string | undefined {
  const allowed = new Set([...LOOPBACK, new URL(publicUrl).hostname]);
  const host = hostnameOf(req.headers.host ?? '');
  if (!host || !allowed.has(host)) return `The Host header "${req.headers.host ?? ''}" is not this server's name.`;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).hostname;
    } catch {
      originHost = undefined;
    }
    if (!originHost || !allowed.has(originHost)) return `The Origin "${origin}" is not allowed to call this server.`;
  }
  return undefined;
}

function bearerOf(req: Request): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/**
 * A single tools/call of a write tool with an OAuth grant narrowed to read, in a workspace whose plan has the
 * full MCP: the one case where asking the person again could help. Keys and Free workspaces cannot step up.
 */
function writeCallOnReadGrant(body: unknown, cred: Credential, scopes: readonly Scope[]) {
  const message = body as { id?: string | number; method?: unknown; params?: { name?: unknown } } | undefined;
  if (cred.via !== 'oauth' || scopes.includes('write') || PLANS[cred.workspace.plan].mcp !== 'full') return undefined;
  if (message?.method !== 'tools/call' || message.id === undefined || typeof message.params?.name !== 'string')
    return undefined;
  return isWriteTool(message.params.name) ? { id: message.id, name: message.params.name } : undefined;
}

export function resourceMetadataUrl(publicUrl: string): string {
  return `${publicUrl}/.well-known/oauth-protected-resource${MCP_PATH}`;
}

export function mcpEndpoint(deps: McpEndpointDeps) {
  const { services, handle, resolveBearer, limiter } = deps;
  const { publicUrl } = services.config;
  const router = express.Router();

  function refuse(
    res: Response,
    status: number,
    body: { code: string; message: string; hint: string },
    headers: Record<string, string> = {},
  ) {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.status(status).json(body);
  }

  /** Host and Origin, the method, then the bearer: a request that fails any of them is not read further. */
  async function admit(req: Request, res: Response, next: NextFunction) {
    const rebinding = rebindingProblem(req, publicUrl);
    if (rebinding) {
      return refuse(res, 403, {
        code: 'forbidden_origin',
        message: rebinding,
        hint: `Call ${publicUrl}${MCP_PATH} by its own name.`,
      });
    }
    if (req.method !== 'POST') {
      return refuse(
        res,
        405,
        {
          code: 'method_not_allowed',
          message: `${req.method} is not allowed on ${MCP_PATH}.`,
          hint: 'This endpoint is stateless Streamable HTTP: send each JSON-RPC message as a POST.',
        },
        { Allow: 'POST' },
      );
    }
    const token = bearerOf(req);
    const cred = token ? await resolveBearer(token) : undefined;
    if (!cred) {
      const challenge =
        `Bearer resource_metadata="${resourceMetadataUrl(publicUrl)}", scope="read write"` +
        (token ? ', error="invalid_token"' : '');
      return refuse(
        res,
        401,
        {
          code: 'unauthenticated',
          message: 'The API key or access token is missing, wrong, expired or revoked.',
          hint: 'Sign in through the OAuth flow this server advertises, or send Authorization: Bearer <API_KEY>.',
        },
        { 'WWW-Authenticate': challenge },
      );
    }
    req.workspaceId = cred.workspace.id;
    res.locals.cred = cred;
    next();
  }

  /**
   * Each message of a batch past the first counts against the address's limit as the POST it could have been
   * (the limit counted the POST itself already): over the limit, the whole batch is refused and none of it runs.
   */
  async function countBatch(req: Request, res: Response, exchange: Exchange): Promise<boolean> {
    const size = exchange.messages.length + exchange.refused.length;
    if (size < 2) return true;
    const decision = await countAddress(limiter, req, res, size - 1);
    if (decision.allowed) return true;
    const now = Date.now();
    const err = rateLimited(
      now + decision.resetSeconds * 1000,
      now,
      `A batch of ${size} messages counts as ${size} requests; this address may send ${decision.limit} in the ` +
        `current window and has ${decision.remaining} left.`,
    );
    for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
    rpcError(res, err.status, -32000, err.message, err.code, err.hint);
    return false;
  }

  async function answer(req: Request, res: Response) {
    const exchange = readExchange(req, res);
    if (!exchange || !(await countBatch(req, res, exchange))) return;
    const cred = res.locals.cred as Credential;
    const scopes = mcpScopes(cred);
    const stepUp = writeCallOnReadGrant(req.body, cred, scopes);
    if (stepUp) {
      // A read grant of a paid workspace calling a write tool: 403 insufficient_scope invites the client to ask
      // the person for write (step-up), and the body is the same -32602 as for a tool that does not exist, with
      // Herald's {code, message, hint} in the error's `data`, where JSON-RPC keeps what it adds.
      res.setHeader(
        'WWW-Authenticate',
        `Bearer error="insufficient_scope", scope="read write", ` +
          `resource_metadata="${resourceMetadataUrl(publicUrl)}"`,
      );
      const message = unknownToolMessage(stepUp.name);
      const hint = 'A person can allow read and write when the client signs in again.';
      return res.status(403).json({
        jsonrpc: '2.0',
        id: stepUp.id,
        error: { code: ErrorCode.InvalidParams, message, data: { code: 'insufficient_scope', message, hint } },
      });
    }
    const server = createMcpServer({
      scopes,
      run: (tool: ToolEntry, args: Record<string, unknown>) => {
        const rest = toRestRequest(tool.operation, args);
        return handle({
          ...rest,
          headers: { ...rest.headers, 'content-type': 'application/json' },
          requestId: req.id,
          via: 'mcp',
          cred: { ...cred, scopes },
        });
      },
    });
    await answerExchange(server, exchange, req, res);
  }

  /** A body that is not JSON gets the JSON-RPC parse error, as the transport itself would answer. */
  function parseFailure(err: Error & { type?: string }, _req: Request, res: Response, next: NextFunction) {
    if (err.type === 'entity.parse.failed') return rpcError(res, 400, -32700, 'Parse error: Invalid JSON');
    if (err.type === 'entity.too.large') {
      return rpcError(
        res,
        413,
        -32000,
        `The request body is larger than the ${services.config.maxBodyBytes} bytes this server accepts.`,
        'payload_too_large',
        'Send a smaller message: files do not go through MCP, they are uploaded (service_create_upload, then a ' +
          'PUT of the bytes) or fetched from a public address (service_upload_from_url).',
      );
    }
    next(err);
  }

  router.all(MCP_PATH, admit, jsonBody(services.config.maxBodyBytes), answer, parseFailure);

  return router;
}
