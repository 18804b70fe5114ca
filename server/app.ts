// The express app: request ids and logs, the per-address rate limit, the REST API under /v1, dashboard
// sign-in and account connection under /auth, and operator probes. Business logic lives in handlers/,
// reached through api.ts.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { errorBody, rateLimited, type ApiError } from '../domain/errors.ts';
import { handlers } from '../handlers/index.ts';
import type { Services } from '../runtime/services.ts';
import { createApi, newRequestId, type ApiRequest, type ApiResponse } from './api.ts';
import { send } from './apiResponse.ts';
import { countAddress, createRateLimiter, type RateLimiter } from './rateLimit.ts';
import { connectRoutes } from './connectRoutes.ts';
import { authApi } from './authApi.ts';
import { authHandlers } from './auth/index.ts';
import { selfHostedBilling } from '../billing/index.ts';
import { sandboxRoutes } from '../networks/sandbox/index.ts';
import { uploadRoutes } from './uploadRoutes.ts';
import {
  announcesBody,
  bodyDeadline,
  clientFaultError,
  jsonBody,
  oneHost,
  refuseNul,
  type ClientFault,
} from './requestFaults.ts';
import { dashboardRoutes } from './dashboardRoutes.ts';
import { eventStreams } from './eventStream.ts';
import { passwordSignIn } from '../signin/passwordSignIn.ts';
import { mcpRoutes } from '../mcp/routes.ts';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    workspaceId?: string;
  }
}

/** Signed addresses are capabilities: their tokens stay out of the logs. */
function loggablePath(originalUrl: string): string {
  return originalUrl.split('?')[0]!.replace(/^\/(uploads|media-files)\/[^/]+/, '/$1/[signed]');
}

function logRequests(services: Services) {
  // Request lines carry only the fields below (no headers, no query string): nothing to redact, and redaction's
  // wildcard paths would double the cost of a line.
  const log = services.logger.child({}, { redact: [] });
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    req.id = newRequestId(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', req.id);
    res.on('finish', () => {
      // Path only: query strings and headers may carry signatures, keys or cookies.
      log.info(
        {
          reqId: req.id,
          method: req.method,
          path: loggablePath(req.originalUrl),
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          workspaceId: req.workspaceId,
        },
        'request',
      );
    });
    next();
  };
}

/** Counts the request against its address's limit; over it, answers 429 and returns false. */
async function admitted(limiter: RateLimiter, publicUrl: string, req: Request, res: Response): Promise<boolean> {
  const decision = await countAddress(limiter, req, res);
  if (decision.allowed) return true;
  const now = Date.now();
  const err = rateLimited(
    now + decision.resetSeconds * 1000,
    now,
    `This address sent more than ${decision.limit} requests in the current window.`,
  );
  send(res, { status: err.status, body: errorBody(err, publicUrl), headers: err.headers });
  return false;
}

function limitRate(limiter: RateLimiter, publicUrl: string) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (await admitted(limiter, publicUrl, req, res)) next();
    } catch (err) {
      next(err);
    }
  };
}

/**
 * The REST API as one layer: the rate limit, the JSON body when one came, then the contract's dispatch. The
 * busiest path skips express's walk through the other routes' layers.
 */
function restApi(
  limiter: RateLimiter,
  publicUrl: string,
  json: RequestHandler,
  handle: (req: ApiRequest) => Promise<ApiResponse>,
) {
  const parseBody = (req: Request, res: Response) =>
    new Promise<void>((resolve, reject) => json(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (!(await admitted(limiter, publicUrl, req, res))) return;
      if (announcesBody(req)) await parseBody(req, res);
    } catch (err) {
      next(err);
      return;
    }
    const apiReq: ApiRequest = {
      method: req.method,
      path: req.path,
      headers: req.headers,
      query: req.query as Record<string, unknown>,
      body: req.body,
      requestId: req.id,
      via: 'rest',
    };
    const out = await handle(apiReq);
    req.workspaceId = apiReq.cred?.workspace.id;
    send(res, out);
  };
}

export async function createApp(services: Services, options: { rateLimiter?: RateLimiter } = {}) {
  const { config, db } = services;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  const { handle, renderError, credentialForKey } = await createApi(services, handlers);
  const limiter = options.rateLimiter ?? createRateLimiter(db, config.rateLimit.max, config.rateLimit.windowMs);
  const signIn = passwordSignIn(services);
  // Media processing and the retention sweep run in the serving process.
  services.media.start();

  const refuse = (res: Response, err: ApiError) =>
    send(res, { status: err.status, body: errorBody(err, config.publicUrl) });
  app.use(logRequests(services));
  app.use(oneHost(refuse));
  app.use(bodyDeadline(config.bodyTimeoutMs, config.publicUrl, refuse));
  const json = jsonBody(config.maxBodyBytes);
  app.use('/v1', restApi(limiter, config.publicUrl, json, handle));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await db.raw('select 1');
      res.json({ status: 'ready' });
    } catch (err) {
      services.logger.warn({ err }, 'readiness check failed');
      res.status(503).json({ status: 'unavailable', message: 'The database cannot be reached.' });
    }
  });

  // Signed file addresses (/media-files) are not limited: networks fetch them from shared addresses.
  app.use(['/auth', '/uploads', '/mcp', '/oauth'], limitRate(limiter, config.publicUrl));
  // Live updates for the dashboard: one request per tab, held open (server/eventStream.ts).
  const streams = eventStreams(services);
  app.locals.eventStreams = streams;
  app.get('/auth/events', streams.route);
  app.use('/auth', json, refuseNul(refuse));
  // The session-only contract (auth.yaml): the two connect navigations, whose every outcome is a redirect, have
  // routes of their own; every other operation goes through the contract's chain.
  app.use('/auth', connectRoutes(services));
  const billing = selfHostedBilling(db, services.clock);
  app.use('/auth', await authApi(services, authHandlers, { signIn, billing }, renderError));
  // MCP for agents: /mcp, OAuth (/oauth, /.well-known) and the agent docs (/docs).
  app.use(mcpRoutes({ services, handle, credentialForKey, signIn, limiter }));
  // The simulated networks answer the publishing worker, not API clients: outside /v1 and its limits.
  // With SANDBOX_URL set, `herald sandbox serve` runs them in a process of their own instead.
  if (config.networks === 'sandbox' && !config.sandboxUrl)
    app.use('/sandbox', await sandboxRoutes({ db, config, clock: services.clock }));
  app.use(uploadRoutes(services));
  app.get('/', (_req, res) => res.redirect('/app'));
  app.use('/app', dashboardRoutes(config));
  app.use((req: Request, res: Response) => {
    send(res, {
      status: 404,
      body: {
        code: 'not_found',
        message: `Nothing is served at ${req.path}.`,
        hint: 'The REST API lives under /v1, the dashboard under /app.',
      },
    });
  });

  // Body parser and router failures arrive here, and faults of async routes outside /v1.
  app.use((err: ClientFault, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      services.logger.error({ err, reqId: req.id }, 'fault after the answer began');
      res.destroy();
      return;
    }
    const encoding = req.headers['content-encoding']?.toLowerCase();
    send(res, renderError(clientFaultError(err, config.maxBodyBytes, encoding) ?? err, req.id));
  });
  return app;
}
