// Herald as its own OAuth 2.1 authorization server for the remote MCP endpoint: metadata (RFC 8414, RFC 9728),
// dynamic client registration (RFC 7591), authorization code with PKCE S256, rotating refresh tokens, revocation
// (RFC 7009). The SDK's handlers check the wire format of registration, token and revocation requests; the
// authorization request is read in authorizeRequest.ts. This module decides: who signs in, what they consent to,
// and what a code or token is worth.
import express, { type NextFunction, type Request, type Response } from 'express';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
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
import { fieldWithNul, jsonBody, refuseNul } from '../../server/requestFaults.ts';
import { carriedSessionToken, sentFromAnotherSite, sessionCookie, sessionFrom } from '../../signin/session.ts';
import { wrongPassword, type PasswordSignIn } from '../../signin/passwordSignIn.ts';
import { MCP_PATH } from '../http.ts';
import {
  askedAccess,
  askedClientId,
  askedState,
  isRefusal,
  redirectTarget,
  type AskedAccess,
  type OAuthRefusal,
  type RequestParams,
} from './authorizeRequest.ts';
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
/**
 * How clients authenticate at the token and revocation endpoints: public clients (PKCE only) and a registered secret
 * in the Authorization header (client_secret_basic, RFC 7591's default) or in the form.
 */
const CLIENT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'];
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
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
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

/** OAuth bodies are JSON objects or forms. */
function oauthBodyProblem(body: unknown): ApiError | undefined {
  if (body === undefined) return undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return invalidRequest('The body must be a JSON object or a form.');
  return undefined;
}

const basicRealm = { 'WWW-Authenticate': 'Basic realm="Herald"' };

/**
 * client_secret_basic (RFC 6749 §2.3.1) at the token and revocation endpoints: the SDK's handlers read a client's
 * credentials from the form only, so those of an Authorization: Basic header are moved there. A client refused
 * after authenticating by header is answered 401 with that scheme (RFC 6749 §5.2).
 */
function basicClientAuth(req: Request, res: Response, next: NextFunction) {
  const header = req.headers.authorization;
  if (header === undefined) return next();
  const form = (req.body ?? {}) as Record<string, unknown>;
  const refuse = (status: number, error: string, description: string) =>
    res
      .status(status)
      .set(status === 401 ? basicRealm : {})
      .json({ error, error_description: description });
  const encoded = /^Basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(header)?.[1];
  const decoded = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // Each half is form-encoded before the pair is base64-encoded.
  const formDecoded = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return undefined;
    }
  };
  const clientId = colon < 0 ? undefined : formDecoded(decoded.slice(0, colon));
  const secret = colon < 0 ? undefined : formDecoded(decoded.slice(colon + 1));
  if (clientId === undefined || secret === undefined)
    return refuse(401, 'invalid_client', 'The Authorization header must be Basic base64(client_id:client_secret).');
  if (form.client_secret !== undefined)
    return refuse(400, 'invalid_request', 'Send the client secret once: in the Authorization header or the form.');
  if (form.client_id !== undefined && form.client_id !== clientId)
    return refuse(400, 'invalid_request', "client_id in the form differs from the Authorization header's.");
  req.body = { ...form, client_id: clientId, client_secret: secret };
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if ((body as { error?: unknown } | null)?.error === 'invalid_client') res.status(401).set(basicRealm);
    return json(body);
  };
  next();
}

/** RFC 7591 §2: a client that names no token_endpoint_auth_method registers client_secret_basic, and is told so. */
function registeredAuthMethod(req: Request, _res: Response, next: NextFunction) {
  const body = req.body as Record<string, unknown> | undefined;
  if (req.method === 'POST' && body && body.token_endpoint_auth_method === undefined)
    req.body = { ...body, token_endpoint_auth_method: 'client_secret_basic' };
  next();
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
      const method = client.token_endpoint_auth_method ?? 'client_secret_basic';
      if (!CLIENT_AUTH_METHODS.includes(method)) {
        throw new InvalidClientMetadataError(
          `token_endpoint_auth_method "${method}" is not supported: use ${CLIENT_AUTH_METHODS.join(', ')}.`,
        );
      }
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

  /** Back to the client: its redirect URI with the answer's fields, its state and this issuer (RFC 9207). */
  function clientRedirect(redirectUri: string, state: string | undefined, fields: Record<string, string>): string {
    const target = new URL(redirectUri);
    for (const [name, value] of Object.entries(fields)) target.searchParams.set(name, value);
    if (state !== undefined) target.searchParams.set('state', state);
    target.searchParams.set('iss', publicUrl);
    return target.href;
  }

  /** The person's part: Herald's sign-in form without a session, else the consent page with the sealed request. */
  async function askPerson(
    req: Request,
    res: Response,
    client: OAuthClientInformationFull,
    asked: AskedAccess & { redirectUri: string; state?: string },
  ) {
    const askedWrite = asked.scopes.length === 0 || asked.scopes.includes('write');
    const name = clientName(client as unknown as Record<string, unknown>);
    const session = await sessionFrom(db, req);
    if (!session) return sendPage(res, 200, 'Sign in', signInPage({ clientName: name, next: req.originalUrl }));
    const request = sealRequest({
      clientId: client.client_id,
      redirectUri: asked.redirectUri,
      codeChallenge: asked.codeChallenge,
      state: asked.state,
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
        redirectUri: asked.redirectUri,
        workspaceName: session.workspace.name,
        userName: session.user.name,
        askedWrite,
        readOnlyPlan: PLANS[session.workspace.plan].mcp === 'read',
        request,
        csrf: keyring.sign(session.sessionId, 'csrf'),
      }),
    );
  }

  // authorize is Herald's own route below; verifyAccessToken is left out: /mcp resolves its bearers (mcp/http.ts).
  const provider: Omit<OAuthServerProvider, 'verifyAccessToken' | 'authorize'> = {
    clientsStore,
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
  // Bodies are read here, before the SDK's handlers (which then find them read): NUL characters in a query or a
  // body are refused (PostgreSQL cannot store them), and every error also carries Herald's {code, message, hint}.
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
  // Before the NUL check, which then reads the credentials a Basic header carried.
  router.use(['/oauth/token', '/oauth/revoke'], basicClientAuth);
  router.use('/oauth', refuseNul(render));
  // The authorization request (RFC 6749 §4.1.1): GET (HEAD alike) or a POSTed form.
  router.all('/oauth/authorize', async (req, res) => {
    if (!['GET', 'HEAD', 'POST'].includes(req.method)) {
      return res
        .status(405)
        .set('Allow', 'GET, HEAD, POST')
        .json({ error: 'method_not_allowed', error_description: `${req.method} is not allowed; send a GET.` });
    }
    res.setHeader('Cache-Control', 'no-store');
    // Until the client and its redirect URI are known, a refusal is answered here, never redirected.
    const answer = (refusal: OAuthRefusal) =>
      res.status(400).json({ error: refusal.error, error_description: refusal.description });
    const params = ((req.method === 'POST' ? req.body : req.query) ?? {}) as RequestParams;
    const clientId = askedClientId(params);
    if (isRefusal(clientId)) return answer(clientId);
    const client = await clientsStore.getClient(clientId);
    if (!client) {
      return answer({
        error: 'invalid_client',
        description: 'No client is registered with this client_id; register at /oauth/register first.',
      });
    }
    const redirectUri = redirectTarget(params, client.redirect_uris);
    if (isRefusal(redirectUri)) return answer(redirectUri);
    const state = askedState(params);
    const access = askedAccess(params, { scopes: SCOPES_SUPPORTED, resource: new URL(resource).href });
    if (isRefusal(access)) {
      const fields = { error: access.error, error_description: access.description };
      return res.redirect(302, clientRedirect(redirectUri, state, fields));
    }
    await askPerson(req, res, client, { ...access, redirectUri, state });
  });
  // Herald's own per-address limit covers /oauth (server/app.ts); the SDK's limiter is off.
  router.use('/oauth/token', tokenHandler({ provider: asProvider, rateLimit: false }));
  router.use(
    '/oauth/register',
    registeredAuthMethod,
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
    // Only back to an authorization request of this server (never an open redirect), which holds no NUL.
    const asked = typeof next === 'string' && next.startsWith('/oauth/authorize?') ? next : undefined;
    const params = new URLSearchParams(asked?.slice(asked.indexOf('?') + 1));
    if (asked === undefined || fieldWithNul(Object.fromEntries(params))) {
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
    if (sentFromAnotherSite(req, publicUrl)) {
      return fail(
        req,
        res,
        403,
        'csrf_failed',
        'Refused',
        'This sign-in form was sent from another site, so it signs no one in.',
        'Start again from your agent; sign in on the page Herald shows.',
      );
    }
    const clientId = params.get('client_id') ?? '';
    const client = await findClient(db, clientId);
    const name = client ? clientName(client.metadata) : 'An MCP client';
    let session: { token: string; expiresAt: string };
    try {
      if (typeof email !== 'string' || typeof password !== 'string') throw wrongPassword();
      session = await signIn.signInWithPassword(email, password, req.ip ?? '', carriedSessionToken(req));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (req.accepts(['json', 'html']) !== 'html') return render(res.set(err.headers ?? {}), err);
      return sendPage(
        res,
        200,
        'Sign in',
        signInPage({
          clientName: name,
          next: asked,
          error: `${err.message} ${err.hint}`,
          email: typeof email === 'string' ? email : '',
        }),
      );
    }
    // The dashboard's own session and cookie.
    const maxAge = Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000);
    res.setHeader('Set-Cookie', sessionCookie(publicUrl, session.token, maxAge));
    res.redirect(303, asked);
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
    if (decision !== 'allow') {
      const denied = { error: 'access_denied', error_description: 'The person denied the request.' };
      return res.redirect(303, clientRedirect(request.redirectUri, request.state, denied));
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
    res.redirect(303, clientRedirect(request.redirectUri, request.state, { code }));
  });

  return router;
}
