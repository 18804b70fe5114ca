// The networks' consent side as the sandbox simulates it: the page a person sees when Herald asks for
// access (they name the sandbox identity, then Allow or Cancel), the authorization-code exchange on each
// network's own token endpoint and wire format, and the calls that tell Herald which accounts a grant
// covers. Mounted before each simulator under the same prefix; whatever it does not handle (a
// refresh_token grant, an identity it did not make, statistics) goes on to the simulator.
//
// Sandbox rules:
// - The app is Herald itself: client id SANDBOX_CLIENT.id; any redirect address on the simulator's own
//   origin (Herald's PUBLIC_URL) counts as registered, as Herald's callback is registered at a network.
// - An identity is its name: the same channel, Page, Threads or Instagram username always has the same
//   external id (`sandbox-<network>-<hash of the name>`), so consenting again with that name reconnects
//   the same account, in any workspace. The Facebook person who signs in is new on every consent.
// - Codes work once, for 10 minutes; Google's need the PKCE verifier when a challenge was sent.
// - Tokens are sandbox tokens (state.ts sandboxToken) naming what they act for, so the simulators take
//   them unchanged: the channel, the Page (an Instagram account acts through its Page), the profile.
import { createHash } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { nowIso } from '../../db/rows.ts';
import { randomBase62 } from '../../domain/ids.ts';
import { NETWORKS } from '../index.ts';
import type { Platform } from '../rules.ts';
import { fault, GraphFault, graphRoute, params, pickFields, refreshedToken, tokenOf } from './graph.ts';
import type { SimulatorContext } from './index.ts';
import { sandboxToken, sandboxTokenAccount, type SandboxItem } from './state.ts';
import { escapeHtml } from '../../domain/html.ts';

/** Herald's app on every sandbox network (Herald sends it in sandbox mode; the networks know no other). */
export const SANDBOX_CLIENT = { id: 'herald-sandbox', secret: 'herald-sandbox-secret' };

const CODE_LIFETIME_MS = 10 * 60_000;
const MAX_NAME = 100;
const MAX_PAGES = 25;

interface Page {
  id: string;
  name: string;
  instagram?: { id: string; username: string };
}

/** A consent: a `grant` item whose id is the code and whose account is who signed in. */
interface GrantData extends Record<string, unknown> {
  clientId: string;
  redirectUri: string;
  scope: string;
  codeChallenge?: string;
  /** The channel's or Threads profile's name. */
  name?: string;
  /** The Pages granted through Facebook Login. */
  pages?: Page[];
}

const identityId = (network: Platform, name: string) =>
  `sandbox-${network}-${createHash('sha256').update(name.toLowerCase().replace(/\s+/g, ' ')).digest('hex').slice(0, 12)}`;

interface Field {
  name: string;
  label: string;
  lines?: boolean;
  choices?: [value: string, label: string][];
}

interface ConsentPage {
  /** Whose sign-in page it is. */
  brand: string;
  path: string;
  /** What the page says Herald wants: "Herald wants to <wants>". */
  wants: string;
  fields: Field[];
  /** Who signs in and what they grant, from the filled form; a string says what is missing. */
  grant(form: Record<string, string>): { account: string; data: Pick<GrantData, 'name' | 'pages'> } | string;
  /** The query of a cancelled consent, as the network sends it back. */
  denied: Record<string, string>;
}

/** A name from the form: trimmed, present, not too long. */
function nameIn(form: Record<string, string>, field: Field): string | { error: string } {
  const value = (form[field.name] ?? '').trim();
  if (!value) return { error: `${field.label} is required.` };
  if (value.length > MAX_NAME) return { error: `${field.label} is longer than ${MAX_NAME} characters.` };
  return value;
}

function namedIdentity(network: Platform, field: Field): ConsentPage['grant'] {
  return (form) => {
    const name = nameIn(form, field);
    return typeof name === 'string' ? { account: identityId(network, name), data: { name } } : name.error;
  };
}

const META_DENIED = { error: 'access_denied', error_code: '200', error_description: 'Permissions error', error_reason: 'user_denied' };
const newFacebookUser = () => `sandbox-user-${randomBase62(12)}`;

const channelField: Field = { name: 'channel', label: 'Channel name' };
const pagesField: Field = { name: 'pages', label: 'Pages to grant, one name per line', lines: true };
const igFields: Field[] = [
  { name: 'username', label: 'Instagram username' },
  { name: 'accountType', label: 'Account type', choices: [['business', 'Business'], ['creator', 'Creator'], ['personal', 'Personal']] },
  { name: 'page', label: 'Facebook Page the account is linked to' },
];
const threadsField: Field = { name: 'username', label: 'Threads username' };

const PAGES: Partial<Record<Platform, ConsentPage>> = {
  youtube: {
    brand: 'Google', path: '/o/oauth2/v2/auth', wants: 'upload videos to your YouTube account and read their statistics',
    fields: [channelField], grant: namedIdentity('youtube', channelField), denied: { error: 'access_denied' },
  },
  facebook: {
    brand: 'Facebook', path: '/:version/dialog/oauth', wants: 'publish to and read the insights of the Pages of your Facebook account',
    fields: [pagesField], denied: META_DENIED,
    grant(form) {
      const names = [...new Set((form.pages ?? '').split('\n').map((n) => n.trim()).filter(Boolean))];
      if (!names.length) return 'Choose at least one Page.';
      if (names.length > MAX_PAGES || names.some((n) => n.length > MAX_NAME)) return `Grant at most ${MAX_PAGES} Pages, each named in at most ${MAX_NAME} characters.`;
      return { account: newFacebookUser(), data: { pages: names.map((name) => ({ id: identityId('facebook', name), name })) } };
    },
  },
  instagram: {
    brand: 'Facebook', path: '/:version/dialog/oauth', wants: 'publish to and read the insights of your Instagram account, through its Facebook Page',
    fields: igFields, denied: META_DENIED,
    grant(form) {
      const [username, page] = [nameIn(form, igFields[0]!), nameIn(form, igFields[2]!)];
      if (typeof username !== 'string') return username.error;
      if (typeof page !== 'string') return page.error;
      // As on Meta, only a professional account shows as the Page's instagram_business_account.
      const professional = form.accountType === 'business' || form.accountType === 'creator';
      return { account: newFacebookUser(), data: { pages: [{ id: identityId('facebook', page), name: page,
        ...(professional ? { instagram: { id: identityId('instagram', username), username } } : {}) }] } };
    },
  },
  threads: {
    brand: 'Threads', path: '/oauth/authorize', wants: 'publish to your Threads account and read its insights',
    fields: [threadsField], grant: namedIdentity('threads', threadsField), denied: META_DENIED,
  },
};

/** Why a code cannot be redeemed. */
type Refusal = 'invalid' | 'expired' | 'used' | 'client' | 'redirect' | 'verifier';

const GOOGLE_REFUSALS: Record<Refusal, [status: number, error: string, description: string]> = {
  invalid: [400, 'invalid_grant', 'Malformed auth code.'],
  expired: [400, 'invalid_grant', 'Bad Request'],
  used: [400, 'invalid_grant', 'Bad Request'],
  client: [401, 'invalid_client', 'The OAuth client was not found.'],
  redirect: [400, 'redirect_uri_mismatch', 'Bad Request'],
  verifier: [400, 'invalid_grant', 'Invalid code verifier.'],
};

const META_REFUSALS: Record<Refusal, [message: string, subcode?: number]> = {
  invalid: ['Invalid verification code format.'],
  expired: ['This authorization code has expired.', 36007],
  used: ['This authorization code has been used.', 36009],
  client: ['Error validating application. Invalid application ID.'],
  redirect: ['Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request', 36008],
  verifier: ['Invalid code verifier.'],
};

const metaRefusal = (network: Platform, refusal: Refusal) => {
  const [message, subcode] = META_REFUSALS[refusal];
  return fault(network, [400, { message, code: 100, ...(subcode ? { error_subcode: subcode } : {}), type: 'OAuthException' }]);
};

const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** The grant of a code, used up by this call, or why it cannot be. */
async function redeem(ctx: SimulatorContext, input: { code?: string; clientId?: string; redirectUri?: string; verifier?: string }): Promise<SandboxItem<GrantData> | Refusal> {
  const grant = input.code ? await ctx.state.get<GrantData>(input.code) : undefined;
  if (!grant || grant.kind !== 'grant') return 'invalid';
  if (grant.data.clientId !== input.clientId) return 'client';
  if (grant.data.redirectUri !== input.redirectUri) return 'redirect';
  if (grant.data.codeChallenge && (!input.verifier || challengeOf(input.verifier) !== grant.data.codeChallenge)) return 'verifier';
  if (Date.now() - Date.parse(grant.createdAt) > CODE_LIFETIME_MS) return 'expired';
  // The one step that two exchanges of the same code cannot both pass.
  const taken = await ctx.db('sandbox_items').where({ id: grant.id, network: grant.network, status: 'issued' }).update({ status: 'used', updated_at: nowIso() });
  return taken ? grant : 'used';
}

/** The newest grant of the identity a sandbox access token names. */
async function grantOf(ctx: SimulatorContext, token: string | undefined): Promise<SandboxItem<GrantData> | undefined> {
  const account = token ? sandboxTokenAccount(token, 'access') : undefined;
  return account ? (await ctx.state.list<GrantData>(account, 'grant', 1))[0] : undefined;
}

/** A JSON endpoint without a token (code exchanges): a GraphFault is the network's error body. */
function answer(network: Platform, handler: (req: Request) => Promise<object>): RequestHandler {
  return async (req, res) => {
    try {
      res.json(await handler(req));
    } catch (err) {
      const refusal = err instanceof GraphFault ? err : fault(network, [500, { message: `An unexpected error has occurred. (sandbox: ${(err as Error).message})`, code: 2, is_transient: true }]);
      res.status(refusal.httpStatus).json(refusal.body);
    }
  };
}

/** An identity lookup: answered for identities made here, passed on to the simulator otherwise. */
function lookup(read: (req: Request) => Promise<object | undefined>): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const found = await read(req);
      if (found) res.json(found);
      else next();
    } catch (err) {
      next(err);
    }
  };
}


function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.4 system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:.75rem 0}
input,select,textarea{display:block;width:100%;box-sizing:border-box;font:inherit}.sandbox{color:#a40;font-size:.8em}.error{color:#b00}
.actions{display:flex;gap:.5rem;justify-content:flex-end}</style>
${body}
</html>
`;
}

/** The authorization request's parameters, carried through the form as they came. */
const REQUEST_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'];

/** What is wrong with an authorization request, if anything (shown on the network's own error page). */
function requestProblem(ctx: SimulatorContext, q: Record<string, string>): string | undefined {
  if (q.client_id !== SANDBOX_CLIENT.id) return `The app ${q.client_id ? `"${q.client_id}" ` : ''}does not exist (the sandbox knows only ${SANDBOX_CLIENT.id}).`;
  let redirect: URL | undefined;
  try {
    redirect = new URL(q.redirect_uri ?? '');
  } catch {
    redirect = undefined;
  }
  if (!redirect || redirect.origin !== new URL(ctx.base).origin) return 'redirect_uri is not an address registered for this app.';
  if (q.response_type !== 'code') return 'response_type must be code.';
  if (q.code_challenge && q.code_challenge_method !== 'S256') return 'code_challenge_method must be S256.';
  return undefined;
}

function consentHtml(network: Platform, page: ConsentPage, q: Record<string, string>, form: Record<string, string>, error?: string): string {
  const label = NETWORKS[network].label;
  const hidden = REQUEST_PARAMS.filter((n) => q[n] !== undefined).map((n) => `<input type="hidden" name="${n}" value="${escapeHtml(q[n]!)}">`).join('\n');
  const fields = page.fields.map((f) => {
    const value = escapeHtml(form[f.name] ?? '');
    const control = f.choices
      ? `<select name="${f.name}">${f.choices.map(([v, l]) => `<option value="${v}"${form[f.name] === v ? ' selected' : ''}>${l}</option>`).join('')}</select>`
      : f.lines ? `<textarea name="${f.name}" rows="4" required>${value}</textarea>` : `<input name="${f.name}" value="${value}" maxlength="${MAX_NAME}" required>`;
    return `<label>${escapeHtml(f.label)} ${control}</label>`;
  }).join('\n');
  const scopes = (q.scope ?? '').split(/[\s,]+/).filter(Boolean).map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('');
  return htmlPage(`Sign in with ${page.brand} (sandbox)`, `<p class="sandbox">${label} sandbox: this consent page exists only in Herald's simulator.</p>
<h1>Herald wants to access your ${label} account</h1>
<p>Herald wants to ${escapeHtml(page.wants)}.</p>
${scopes ? `<p>It asks for these permissions:</p><ul>${scopes}</ul>` : ''}
${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post">
${hidden}
${fields}
<p class="actions"><button name="decision" value="cancel" formnovalidate>Cancel</button> <button name="decision" value="allow">Allow</button></p>
</form>`);
}

/** Back to the app's redirect address with `answer` added to its query. */
function backTo(res: Response, redirectUri: string, answer: Record<string, string>): void {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(answer)) url.searchParams.set(name, value);
  res.redirect(302, url.toString());
}

function consentPageRoutes(router: express.Router, network: Platform, ctx: SimulatorContext, page: ConsentPage): void {
  const problemPage = (res: Response, problem: string) =>
    res.status(400).type('html').send(htmlPage(`${page.brand}: error (sandbox)`, `<h1>This request cannot be completed</h1><p class="error">${escapeHtml(problem)}</p>`));

  router.get(page.path, (req, res) => {
    const q = params(req);
    const problem = requestProblem(ctx, q);
    if (problem) problemPage(res, problem);
    else res.type('html').send(consentHtml(network, page, q, {}));
  });

  router.post(page.path, express.urlencoded({ extended: false }), async (req, res) => {
    const form = params(req);
    const problem = requestProblem(ctx, form);
    if (problem) return problemPage(res, problem);
    const state: Record<string, string> = form.state === undefined ? {} : { state: form.state };
    if (form.decision !== 'allow') return backTo(res, form.redirect_uri!, { ...page.denied, ...state });
    const granted = page.grant(form);
    if (typeof granted === 'string') return res.status(400).type('html').send(consentHtml(network, page, form, form, granted));
    const code = randomBase62(40);
    await ctx.state.create<GrantData>({ id: code, account: granted.account, kind: 'grant', status: 'issued', data: {
      clientId: form.client_id!, redirectUri: form.redirect_uri!, scope: form.scope ?? '', ...(form.code_challenge ? { codeChallenge: form.code_challenge } : {}), ...granted.data,
    } });
    backTo(res, form.redirect_uri!, { code, ...state });
  });
}

/** Google: the code exchange on the token endpoint the YouTube simulator serves for refreshes, and channels.list?mine=true. */
function googleRoutes(router: express.Router, ctx: SimulatorContext): void {
  router.post('/token', express.urlencoded({ extended: false }), async (req, res, next) => {
    const p = params(req);
    if (p.grant_type !== 'authorization_code') return next();
    const grant = await redeem(ctx, { code: p.code, clientId: p.client_id, redirectUri: p.redirect_uri, verifier: p.code_verifier });
    if (typeof grant === 'string') {
      const [status, error, description] = GOOGLE_REFUSALS[grant];
      return res.status(status).json({ error, error_description: description });
    }
    res.json({ access_token: sandboxToken('access', grant.account), expires_in: 3599, refresh_token: sandboxToken('refresh', grant.account),
      scope: grant.data.scope, token_type: 'Bearer' });
  });
  // The name given at consent, before Herald has the account whose name the YouTube simulator shows.
  router.get('/youtube/v3/channels', lookup(async (req) => {
    const parts = String(req.query.part ?? '').split(',').map((p) => p.trim());
    if (req.query.mine !== 'true' || !parts.every((p) => p === 'id' || p === 'snippet')) return undefined;
    const grant = await grantOf(ctx, /^Bearer (\S+)$/.exec(req.get('Authorization') ?? '')?.[1]);
    if (!grant?.data.name) return undefined;
    return { kind: 'youtube#channelListResponse', etag: randomBase62(27), pageInfo: { totalResults: 1, resultsPerPage: 1 }, items: [{
      kind: 'youtube#channel', etag: randomBase62(27), id: grant.account,
      ...(parts.includes('snippet') ? { snippet: { title: grant.data.name, description: '', publishedAt: grant.createdAt } } : {}),
    }] };
  }));
}

/** Facebook Login (Facebook Pages, and Instagram accounts through their Page): code, long-lived token, me/accounts. */
function metaRoutes(router: express.Router, ctx: SimulatorContext, network: Platform): void {
  router.get('/:version/oauth/access_token', answer(network, async (req) => {
    const p = params(req);
    if (p.client_id !== SANDBOX_CLIENT.id) throw metaRefusal(network, 'client');
    if (p.grant_type === 'fb_exchange_token') {
      const user = sandboxTokenAccount(p.fb_exchange_token ?? '', 'access');
      if (!user) throw fault(network, [400, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 }]);
      return { access_token: sandboxToken('access', user), token_type: 'bearer', expires_in: 60 * 86_400 };
    }
    const grant = await redeem(ctx, { code: p.code, clientId: p.client_id, redirectUri: p.redirect_uri });
    if (typeof grant === 'string') throw metaRefusal(network, grant);
    return { access_token: sandboxToken('access', grant.account), token_type: 'bearer', expires_in: 3600 };
  }));
  router.get('/:version/me/accounts', lookup(async (req) => {
    const pages = (await grantOf(ctx, tokenOf(req)))?.data.pages;
    if (!pages) return undefined;
    // Nested field lists (`instagram_business_account{id,username}`) answer their whole object.
    const fields = params(req).fields?.replace(/\{[^}]*\}/g, '');
    return { data: pages.map((page) => pickFields({ id: page.id, name: page.name, access_token: sandboxToken('access', page.id),
      category: 'Brand', tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
      instagram_business_account: page.instagram && { id: page.instagram.id, username: page.instagram.username } }, fields)) };
  }));
}

/** Threads: the code for a short-lived token (POST), that for a long-lived one, and the profile. */
function threadsRoutes(router: express.Router, ctx: SimulatorContext): void {
  router.post('/oauth/access_token', express.urlencoded({ extended: false }), answer('threads', async (req) => {
    const p = params(req);
    if (p.grant_type !== 'authorization_code') throw fault('threads', [400, { message: 'Unsupported grant_type: expected authorization_code.', code: 100, type: 'OAuthException' }]);
    const grant = await redeem(ctx, { code: p.code, clientId: p.client_id, redirectUri: p.redirect_uri });
    if (typeof grant === 'string') throw metaRefusal('threads', grant);
    return { access_token: sandboxToken('access', grant.account), user_id: grant.account };
  }));
  router.get('/access_token', graphRoute('threads', async (req) => refreshedToken(req, 'threads', 'th_exchange_token')));
  router.get('/:version/me', lookup(async (req) => {
    const grant = await grantOf(ctx, tokenOf(req));
    return grant?.data.name ? pickFields({ id: grant.account, username: grant.data.name, name: grant.data.name }, params(req).fields) : undefined;
  }));
}

const TOKEN_ROUTES: Partial<Record<Platform, (router: express.Router, ctx: SimulatorContext, network: Platform) => void>> = {
  youtube: googleRoutes, facebook: metaRoutes, instagram: metaRoutes, threads: threadsRoutes,
};

/** The consent side of one network's simulator (empty for a network that cannot be connected). */
export function consentRoutes(network: Platform, ctx: SimulatorContext): express.Router {
  const router = express.Router();
  // Meta's paths start with the API version (/v25.0/...); other first segments are not these routes'.
  router.param('version', (_req, _res, next, version: string) => next(/^v\d+\.\d+$/.test(version) ? undefined : 'route'));
  const page = PAGES[network];
  if (page) consentPageRoutes(router, network, ctx, page);
  TOKEN_ROUTES[network]?.(router, ctx, network);
  return router;
}
