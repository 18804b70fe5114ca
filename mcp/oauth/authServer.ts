// Herald as its own OAuth 2.1 authorization server for the remote MCP endpoint: metadata (RFC 8414, RFC 9728),
// dynamic client registration (RFC 7591), authorization code with PKCE S256, rotating refresh tokens, revocation
// (RFC 7009). The SDK's handlers check the wire format (PKCE, exact redirect URIs with any port on loopback);
// this module decides: who signs in, what they consent to, and what a code or token is worth.
import express, { type NextFunction, type Request, type Response } from 'express';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import {
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidTargetError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Scope } from '../../domain/credential.ts';
import { PLANS } from '../../domain/plans.ts';
import type { Services } from '../../runtime/services.ts';
import { ApiError, errorBody, invalidRequest } from '../../domain/errors.ts';
import { jsonBody, nulRefused } from '../../server/requestFaults.ts';
import { sessionCookie, sessionFrom } from '../../server/sessionRoutes.ts';
import { wrongPassword, type PasswordSignIn } from '../../server/signIn.ts';
import { MCP_PATH } from '../http.ts';
import { consentPage, messagePage, sendPage, signInPage } from './pages.ts';
import {
  clientName,
  createCode,
  exchangeCode,
  findClient,
  findCode,
  insertClient,
  revokeToken,
  rotateRefreshToken,
} from './store.ts';

export const SCOPES_SUPPORTED: Scope[] = ['read', 'write'];
const CONSENT_REQUEST_SECONDS = 600;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function authorizationServerMetadata(publicUrl: string) {
  return {
    issuer: publicUrl,
    authorization_endpoint: `${publicUrl}/oauth/authorize`,
    token_endpoint: `${publicUrl}/oauth/token`,
    registration_endpoint: `${publicUrl}/oauth/register`,
    revocation_endpoint: `${publicUrl}/oauth/revoke`,
    scopes_supported: SCOPES_SUPPORTED,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${publicUrl}/docs`,
  };
}

export function protectedResourceMetadata(publicUrl: string) {
  return {
    resource: `${publicUrl}${MCP_PATH}`,
    authorization_servers: [publicUrl],
    scopes_supported: SCOPES_SUPPORTED,
    bearer_methods_supported: ['header'],
    resource_name: 'Herald',
    resource_documentation: `${publicUrl}/docs`,
  };
}

const OAUTH_HINT =
  'Start the sign-in again from your MCP client; the endpoints are listed at /.well-known/oauth-authorization-server.';

/** OAuth errors keep their RFC 6749 fields (`error`, `error_description`) and gain Herald's {code, message, hint}. */
function heraldErrorFields(_req: Request, res: Response, next: NextFunction) {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const b = body as Record<string, unknown> | null;
    if (res.statusCode < 400 || !b || typeof b.error !== 'string' || b.code !== undefined) return json(body);
    return json({
      ...b,
      code: b.error,
      message: typeof b.error_description === 'string' ? b.error_description : b.error,
      hint: OAUTH_HINT,
    });
  };
  next();
}

/** OAuth bodies are JSON objects or forms, without NUL characters (PostgreSQL cannot store them). */
function oauthBodyProblem(body: unknown): ApiError | undefined {
  if (body === undefined) return undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return invalidRequest('The body must be a JSON object or a form.');
  // JSON text escapes a NUL as \u0000; one pass over the text (jsonBody refused bodies nested too deeply).
  return JSON.stringify(body).includes('\\u0000') ? nulRefused('body') : undefined;
}

/** What the consent form carries back: the authorization request, signed, bound to the session and short-lived. */
interface ConsentRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state?: string;
  askedWrite: boolean;
  sessionId: string;
  expiresAt: number;
}

export function oauthRoutes(services: Services, signIn: PasswordSignIn) {
  const { db, keyring, config } = services;
  const { publicUrl } = config;
  const resource = `${publicUrl}${MCP_PATH}`;
  const router = express.Router();

  function sealRequest(request: ConsentRequest): string {
    const payload = Buffer.from(JSON.stringify(request)).toString('base64url');
    return `${payload}.${keyring.sign(payload, 'oauth')}`;
  }

  function openRequest(sealed: unknown, sessionId: string): ConsentRequest | undefined {
    if (typeof sealed !== 'string') return undefined;
    const [payload = '', signature = ''] = sealed.split('.');
    if (!keyring.verify(payload, signature, 'oauth')) return undefined;
    const request = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ConsentRequest;
    return request.sessionId === sessionId && request.expiresAt > Date.now() ? request : undefined;
  }

  const clientsStore: OAuthRegisteredClientsStore = {
    async getClient(clientId) {
      const row = await findClient(db, clientId);
      if (!row) return undefined;
      return {
        ...row.metadata,
        client_id: row.id,
        ...(row.secretSealed ? { client_secret: keyring.decrypt(row.secretSealed, 'oauth') } : {}),
      } as OAuthClientInformationFull;
    },
    async registerClient(registered) {
      // The SDK's registration handler has generated client_id before it calls this.
      const client = registered as OAuthClientInformationFull;
      if (client.redirect_uris.length === 0)
        throw new InvalidClientMetadataError('redirect_uris must name at least one address.');
      for (const uri of client.redirect_uris) {
        const url = new URL(uri);
        if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
          throw new InvalidClientMetadataError(
            `redirect_uri ${uri} must use https (plain http only on a loopback address).`,
          );
        }
        if (url.hash) throw new InvalidClientMetadataError(`redirect_uri ${uri} must not have a fragment.`);
      }
      const { client_secret: secret, ...metadata } = client;
      await insertClient(db, client.client_id, metadata, secret ? keyring.encrypt(secret, 'oauth') : null);
      return client;
    },
  };

  const checkResource = (asked: URL | undefined) => {
    if (asked && asked.href !== new URL(resource).href) {
      throw new InvalidTargetError(`This server issues tokens only for ${resource}, not ${asked.href}.`);
    }
  };

  // verifyAccessToken is left out: the /mcp endpoint resolves its bearer tokens itself (mcp/http.ts).
  const provider: Omit<OAuthServerProvider, 'verifyAccessToken'> = {
    clientsStore,
    async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response) {
      checkResource(params.resource);
      const asked = (params.scopes ?? []).filter((s) => (SCOPES_SUPPORTED as string[]).includes(s));
      const askedWrite = asked.length === 0 || asked.includes('write');
      const req = res.req as Request;
      const name = clientName(client as unknown as Record<string, unknown>);
      const session = await sessionFrom(db, req);
      if (!session) return sendPage(res, 200, 'Sign in', signInPage({ clientName: name, next: req.originalUrl }));
      const request = sealRequest({
        clientId: client.client_id,
        redirectUri: params.redirectUri,
        codeChallenge: params.codeChallenge,
        state: params.state,
        askedWrite,
        sessionId: session.sessionId,
        expiresAt: Date.now() + CONSENT_REQUEST_SECONDS * 1000,
      });
      sendPage(
        res,
        200,
        `Allow ${name}?`,
        consentPage({
          clientName: name,
          redirectUri: params.redirectUri,
          workspaceName: session.workspace.name,
          userName: session.user.name,
          askedWrite,
          readOnlyPlan: PLANS[session.workspace.plan].mcp === 'read',
          request,
          csrf: keyring.sign(session.sessionId, 'csrf'),
        }),
      );
    },
    async challengeForAuthorizationCode(client, code) {
      const row = await findCode(db, code);
      if (!row || row.clientId !== client.client_id)
        throw new InvalidGrantError('The authorization code is unknown or belongs to another client.');
      return row.codeChallenge;
    },
    async exchangeAuthorizationCode(client, code, _verifier, redirectUri, askedResource) {
      const row = await findCode(db, code);
      if (!row || row.clientId !== client.client_id)
        throw new InvalidGrantError('The authorization code is unknown or belongs to another client.');
      if (row.expired && !row.grantId) throw new InvalidGrantError('The authorization code expired; authorize again.');
      if (redirectUri !== undefined && redirectUri !== row.redirectUri)
        throw new InvalidGrantError('redirect_uri differs from the authorization request.');
      checkResource(askedResource);
      const tokens = await exchangeCode(db, code, row);
      if (!tokens)
        throw new InvalidGrantError('The authorization code was already used; the access it gave is revoked.');
      return tokens;
    },
    async exchangeRefreshToken(client, refreshToken, _scopes, askedResource) {
      checkResource(askedResource);
      const outcome = await rotateRefreshToken(db, client.client_id, refreshToken);
      if ('tokens' in outcome) return outcome.tokens;
      throw new InvalidGrantError(
        {
          unknown: 'The refresh token is unknown or revoked.',
          other_client: 'The refresh token belongs to another client.',
          expired: 'The refresh token expired; authorize again.',
          reused:
            'The refresh token was already used, so a copy may be in other hands: the whole grant is ' +
            'revoked. Authorize again.',
        }[outcome.problem],
      );
    },
    async revokeToken(client, request) {
      await revokeToken(db, client.client_id, request.token);
    },
  };
  const asProvider = provider as OAuthServerProvider;

  router.get(
    ['/.well-known/oauth-protected-resource', `/.well-known/oauth-protected-resource${MCP_PATH}`],
    (_req, res) => {
      res.set('Access-Control-Allow-Origin', '*').json(protectedResourceMetadata(publicUrl));
    },
  );
  router.get('/.well-known/oauth-authorization-server', (_req, res) => {
    res.set('Access-Control-Allow-Origin', '*').json(authorizationServerMetadata(publicUrl));
  });
  // Bodies are read here, before the SDK's handlers (which then find them read): NUL characters are refused
  // (PostgreSQL cannot store them), and every error also carries Herald's {code, message, hint}.
  const render = (res: Response, err: ApiError) => res.status(err.status).json(errorBody(err, publicUrl));
  router.use(
    '/oauth',
    jsonBody('64kb'),
    express.urlencoded({ extended: false, limit: '64kb' }),
    (req: Request, res: Response, next: NextFunction) => {
      const problem = oauthBodyProblem(req.body);
      return problem ? render(res, problem) : next();
    },
    heraldErrorFields,
  );
  // Herald's own per-address limit covers /oauth (server/app.ts); the SDK's limiter is off.
  router.use('/oauth/authorize', authorizationHandler({ provider: asProvider, rateLimit: false }));
  router.use('/oauth/token', tokenHandler({ provider: asProvider, rateLimit: false }));
  router.use(
    '/oauth/register',
    clientRegistrationHandler({ clientsStore, rateLimit: false, clientSecretExpirySeconds: 0 }),
  );
  router.use('/oauth/revoke', revocationHandler({ provider: asProvider, rateLimit: false }));

  /**
   * A form's failure: {code, message, hint} with its status, or for a browser a page that says it (sent as 200,
   * since Herald's error answers are JSON everywhere; the page is what the person reads).
   */
  function fail(
    req: Request,
    res: Response,
    status: number,
    code: string,
    title: string,
    message: string,
    hint: string,
  ) {
    if (req.accepts(['json', 'html']) === 'html') return sendPage(res, 200, title, messagePage(`${message} ${hint}`));
    res.status(status).json({ code, message, hint });
  }

  router.post('/oauth/sign-in', async (req, res) => {
    const { email, password, next } = (req.body ?? {}) as Record<string, unknown>;
    // Only back to an authorization request of this server: never an open redirect.
    if (typeof next !== 'string' || !next.startsWith('/oauth/authorize?')) {
      return fail(
        req,
        res,
        400,
        'invalid_request',
        'Sign in',
        'This sign-in form lost its authorization request.',
        'Start again from your agent.',
      );
    }
    const clientId = new URLSearchParams(next.slice(next.indexOf('?') + 1)).get('client_id') ?? '';
    const client = await findClient(db, clientId);
    const name = client ? clientName(client.metadata) : 'An MCP client';
    let session: { token: string; expiresAt: string };
    try {
      if (typeof email !== 'string' || typeof password !== 'string') throw wrongPassword();
      session = await signIn.signInWithPassword(email, password, req.ip ?? '');
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (req.accepts(['json', 'html']) !== 'html') return render(res.set(err.headers ?? {}), err);
      return sendPage(
        res,
        200,
        'Sign in',
        signInPage({
          clientName: name,
          next,
          error: `${err.message} ${err.hint}`,
          email: typeof email === 'string' ? email : '',
        }),
      );
    }
    // The dashboard's own session and cookie.
    const maxAge = Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000);
    res.setHeader('Set-Cookie', sessionCookie(publicUrl, session.token, maxAge));
    res.redirect(303, next);
  });

  router.post('/oauth/consent', async (req, res) => {
    const session = await sessionFrom(db, req);
    if (!session)
      return fail(
        req,
        res,
        401,
        'unauthenticated',
        'Signed out',
        'You are signed out.',
        'Start again from your agent.',
      );
    const { request: sealed, csrf, decision, scope } = (req.body ?? {}) as Record<string, unknown>;
    if (typeof csrf !== 'string' || !keyring.verify(session.sessionId, csrf, 'csrf')) {
      return fail(
        req,
        res,
        403,
        'csrf_failed',
        'Refused',
        'This consent form is not valid for your session.',
        'Start again from your agent.',
      );
    }
    const request = openRequest(sealed, session.sessionId);
    const client = request && (await findClient(db, request.clientId));
    if (!request || !client) {
      return fail(
        req,
        res,
        400,
        'invalid_request',
        'Expired',
        'This authorization request expired or is not valid.',
        'Start again from your agent.',
      );
    }
    const target = new URL(request.redirectUri);
    if (request.state !== undefined) target.searchParams.set('state', request.state);
    target.searchParams.set('iss', publicUrl);
    if (decision !== 'allow') {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The person denied the request.');
      return res.redirect(303, target.href);
    }
    // Narrowing only: write needs the request, the person's choice and a plan with the full MCP.
    const write = request.askedWrite && scope === 'read write' && PLANS[session.workspace.plan].mcp === 'full';
    const code = await createCode(db, {
      clientId: client.id,
      userId: session.user.id,
      workspaceId: session.workspace.id,
      scopes: write ? ['read', 'write'] : ['read'],
      resource,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
    });
    target.searchParams.set('code', code);
    res.redirect(303, target.href);
  });

  return router;
}
