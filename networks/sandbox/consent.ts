// The networks' consent side as the sandbox simulates it, the same for every network: the page a person
// sees when Herald asks for access (they name the sandbox identity, then Allow or Cancel), the codes it
// issues, and their redemption. Each network's consent.ts gives its page and its token endpoints on its
// own wire format. Mounted before each simulator under the same prefix; whatever it does not handle (a
// refresh_token grant, an identity it did not make, statistics) goes on to the simulator.
//
// Sandbox rules:
// - The app is Herald itself: client id SANDBOX_CLIENT.id; any redirect address on Herald's origin
//   (PUBLIC_URL) counts as registered, as Herald's callback is registered at a network.
// - An identity is its name: the same channel, Page, Threads or Instagram username always has the same
//   external id (`sandbox-<network>-<hash of the name>`), so consenting again with that name reconnects
//   the same account, in any workspace. The Facebook person who signs in is new on every consent.
// - Codes work once, for 10 minutes; Google's need the PKCE verifier when a challenge was sent.
// - Tokens are sandbox tokens (state.ts sandboxToken) naming what they act for, so the simulators take
//   them unchanged: the channel, the Page (an Instagram account acts through its Page), the profile.
import { createHash } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { nowIso } from '../../db/rows.ts';
import { escapeHtml } from '../../domain/html.ts';
import { randomBase62 } from '../../domain/ids.ts';
import { guideHref } from '../guides.ts';
import type { Platform } from '../rules.ts';
import { SANDBOX_CLIENT } from './address.ts';
import { GraphFault } from './graphFaults.ts';
import { params } from './params.ts';
import type { SimulatorContext } from './simulator.ts';
import { sandboxTokenAccount, type SandboxItem } from './state.ts';

const CODE_LIFETIME_MS = 10 * 60_000;
export const MAX_NAME = 100;

export interface Page {
  id: string;
  name: string;
  instagram?: { id: string; username: string };
  /** Reached through a business whose admins have not assigned the person to it: no Page token. */
  unassigned?: boolean;
}

/** A Business Manager the person works in, with the Pages it owns and those it manages for clients. */
export interface Business {
  id: string;
  name: string;
  owned: Page[];
  client: Page[];
}

/** A consent: a `grant` item whose id is the code and whose account is who signed in. */
export interface GrantData extends Record<string, unknown> {
  clientId: string;
  redirectUri: string;
  scope: string;
  codeChallenge?: string;
  /** The channel's or Threads profile's name. */
  name?: string;
  /** The Pages granted through Facebook Login on a role of the person's own (me/accounts). */
  pages?: Page[];
  /** Facebook Login for Business: the configuration consented to, which stands for the scope. */
  configId?: string;
  /** The businesses the person reaches Pages through (me/businesses). */
  businesses?: Business[];
}

export const identityId = (network: Platform, name: string) => {
  const hash = createHash('sha256').update(name.toLowerCase().replace(/\s+/g, ' ')).digest('hex');
  return `sandbox-${network}-${hash.slice(0, 12)}`;
};

export interface Field {
  name: string;
  label: string;
  lines?: boolean;
  choices?: [value: string, label: string][];
  /** May be left empty. */
  optional?: boolean;
}

export interface ConsentPage {
  /** Whose sign-in page it is. */
  brand: string;
  /** The network's name as the page writes it. */
  label: string;
  path: string;
  /** What the page says Herald wants: "Herald wants to <wants>". */
  wants: string;
  fields: Field[];
  /**
   * Who signs in and what they grant, from the filled form, with the accounts of this network the grant
   * makes exist; a string says what is missing.
   */
  grant(form: Record<string, string>):
    | {
        account: string;
        data: Pick<GrantData, 'name' | 'pages' | 'businesses'>;
        accounts: { id: string; name: string }[];
      }
    | string;
  /** The query of a cancelled consent, as the network sends it back. */
  denied: Record<string, string>;
}

/** A name from the form: trimmed, present, not too long. */
export function nameIn(form: Record<string, string>, field: Field): string | { error: string } {
  const value = (form[field.name] ?? '').trim();
  if (!value) return { error: `${field.label} is required.` };
  if (value.length > MAX_NAME) return { error: `${field.label} is longer than ${MAX_NAME} characters.` };
  return value;
}

export function namedIdentity(network: Platform, field: Field): ConsentPage['grant'] {
  return (form) => {
    const name = nameIn(form, field);
    if (typeof name !== 'string') return name.error;
    const id = identityId(network, name);
    return { account: id, data: { name }, accounts: [{ id, name }] };
  };
}

/** Why a code cannot be redeemed. */
export type Refusal = 'invalid' | 'expired' | 'used' | 'client' | 'redirect' | 'verifier';

const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** The grant of a code, used up by this call, or why it cannot be. */
export async function redeem(
  ctx: SimulatorContext,
  input: { code?: string; clientId?: string; redirectUri?: string; verifier?: string },
): Promise<SandboxItem<GrantData> | Refusal> {
  const grant = input.code ? await ctx.state.get<GrantData>(input.code) : undefined;
  if (!grant || grant.kind !== 'grant') return 'invalid';
  if (grant.data.clientId !== input.clientId) return 'client';
  if (grant.data.redirectUri !== input.redirectUri) return 'redirect';
  if (grant.data.codeChallenge && (!input.verifier || challengeOf(input.verifier) !== grant.data.codeChallenge))
    return 'verifier';
  if (Date.now() - Date.parse(grant.createdAt) > CODE_LIFETIME_MS) return 'expired';
  // The one step that two exchanges of the same code cannot both pass.
  const taken = await ctx
    .db('sandbox_items')
    .where({ id: grant.id, network: grant.network, status: 'issued' })
    .update({ status: 'used', updated_at: nowIso() });
  return taken ? grant : 'used';
}

/** The newest grant of the identity a sandbox access token names. */
export async function grantOf(
  ctx: SimulatorContext,
  token: string | undefined,
): Promise<SandboxItem<GrantData> | undefined> {
  const account = token ? sandboxTokenAccount(token, 'access') : undefined;
  return account ? (await ctx.state.list<GrantData>(account, 'grant', 1))[0] : undefined;
}

/** An identity lookup: answered for identities made here, passed on to the simulator otherwise. */
export function lookup(read: (req: Request) => Promise<object | undefined>): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const found = await read(req);
      if (found) res.json(found);
      else next();
    } catch (err) {
      if (err instanceof GraphFault) res.status(err.httpStatus).json(err.body);
      else next(err);
    }
  };
}

function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.4 system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem}
label{display:block;margin:.75rem 0}input,select,textarea{display:block;width:100%;box-sizing:border-box;font:inherit}
.sandbox{color:#a40;font-size:.8em}.error{color:#b00}
.actions{display:flex;gap:.5rem;justify-content:flex-end}</style>
${body}
</html>
`;
}

/** The authorization request's parameters, carried through the form as they came. */
const REQUEST_PARAMS = [
  'client_id',
  'client_key',
  'redirect_uri',
  'response_type',
  'scope',
  // Facebook Login for Business names a configuration (its permissions and assets) instead of a scope.
  'config_id',
  'state',
  'code_challenge',
  'code_challenge_method',
];

/** The app asking: `client_id`, or TikTok's name for it, `client_key`. */
const clientOf = (q: Record<string, string>) => q.client_id ?? q.client_key;

/** What is wrong with an authorization request, if anything (shown on the network's own error page). */
function requestProblem(ctx: SimulatorContext, q: Record<string, string>): string | undefined {
  const client = clientOf(q);
  if (client !== SANDBOX_CLIENT.id)
    return `The app ${client ? `"${client}" ` : ''}does not exist ` + `(the sandbox knows only ${SANDBOX_CLIENT.id}).`;
  let redirect: URL | undefined;
  try {
    redirect = new URL(q.redirect_uri ?? '');
  } catch {
    redirect = undefined;
  }
  if (!redirect || redirect.origin !== new URL(ctx.appUrl).origin) {
    return 'redirect_uri is not an address registered for this app.';
  }
  if (q.response_type !== 'code') return 'response_type must be code.';
  if (q.code_challenge && q.code_challenge_method !== 'S256') return 'code_challenge_method must be S256.';
  return undefined;
}

function consentHtml(
  ctx: SimulatorContext,
  page: ConsentPage,
  q: Record<string, string>,
  form: Record<string, string>,
  error?: string,
): string {
  const { label } = page;
  const hidden = REQUEST_PARAMS.filter((n) => q[n] !== undefined)
    .map((n) => `<input type="hidden" name="${n}" value="${escapeHtml(q[n]!)}">`)
    .join('\n');
  const fields = page.fields
    .map((f) => {
      const value = escapeHtml(form[f.name] ?? '');
      const control = f.choices
        ? `<select name="${f.name}">${f.choices.map(([v, l]) => option(v, l, form[f.name] === v)).join('')}</select>`
        : f.lines
          ? `<textarea name="${f.name}" rows="4"${f.optional ? '' : ' required'}>${value}</textarea>`
          : `<input name="${f.name}" value="${value}" maxlength="${MAX_NAME}"${f.optional ? '' : ' required'}>`;
      return `<label>${escapeHtml(f.label)} ${control}</label>`;
    })
    .join('\n');
  const scopes = (q.scope ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((s) => `<li><code>${escapeHtml(s)}</code></li>`)
    .join('');
  return htmlPage(
    `Sign in with ${page.brand} (sandbox)`,
    `<p class="sandbox">${label} sandbox: this consent page exists only in Herald's simulator.${guideLink(ctx, label)}
</p>
<h1>Herald wants to access your ${label} account</h1>
<p>Herald wants to ${escapeHtml(page.wants)}.</p>
${scopes ? `<p>It asks for these permissions:</p><ul>${scopes}</ul>` : ''}
${q.config_id ? `<p>It asks for what its Login for Business configuration ${escapeHtml(q.config_id)} names.</p>` : ''}
${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post">
${hidden}
${fields}
<p class="actions"><button name="decision" value="cancel" formnovalidate>Cancel</button>
<button name="decision" value="allow">Allow</button></p>
</form>`,
  );
}

/** The operator's guide to the network, on Herald's own site: what going live with it takes. */
function guideLink(ctx: SimulatorContext, label: string): string {
  const guide = guideHref(ctx.network);
  if (!guide) return '';
  return ` Connecting for real? See the <a href="${escapeHtml(new URL(guide, ctx.appUrl).href)}">${label} guide</a>.`;
}

/** Back to the app's redirect address with `answer` added to its query. */
function backTo(res: Response, redirectUri: string, answer: Record<string, string>): void {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(answer)) url.searchParams.set(name, value);
  res.redirect(302, url.toString());
}

function consentPageRoutes(router: express.Router, ctx: SimulatorContext, page: ConsentPage): void {
  const problemPage = (res: Response, problem: string) =>
    res
      .status(400)
      .type('html')
      .send(
        htmlPage(
          `${page.brand}: error (sandbox)`,
          `<h1>This request cannot be completed</h1><p class="error">${escapeHtml(problem)}</p>`,
        ),
      );

  router.get(page.path, (req, res) => {
    const q = params(req);
    const problem = requestProblem(ctx, q);
    if (problem) problemPage(res, problem);
    else res.type('html').send(consentHtml(ctx, page, q, {}));
  });

  router.post(page.path, express.urlencoded({ extended: false }), async (req, res) => {
    const form = params(req);
    const problem = requestProblem(ctx, form);
    if (problem) return problemPage(res, problem);
    const state: Record<string, string> = form.state === undefined ? {} : { state: form.state };
    if (form.decision !== 'allow') return backTo(res, form.redirect_uri!, { ...page.denied, ...state });
    const granted = page.grant(form);
    if (typeof granted === 'string')
      return res
        .status(400)
        .type('html')
        .send(consentHtml(ctx, page, form, form, granted));
    // The network knows the accounts from now on, with working tokens (a new consent revives expired ones).
    for (const account of granted.accounts) await ctx.state.register({ ...account, tokens: 'ok' });
    const code = randomBase62(40);
    await ctx.state.create<GrantData>({
      id: code,
      account: granted.account,
      kind: 'grant',
      status: 'issued',
      data: {
        clientId: clientOf(form)!,
        redirectUri: form.redirect_uri!,
        scope: form.scope ?? '',
        ...(form.config_id ? { configId: form.config_id } : {}),
        ...(form.code_challenge ? { codeChallenge: form.code_challenge } : {}),
        ...granted.data,
      },
    });
    backTo(res, form.redirect_uri!, { code, ...state });
  });
}

/** What one network's consent side is: its page, and its token endpoints on its own wire format. */
export interface ConsentSide {
  page: ConsentPage;
  tokenRoutes(router: express.Router, ctx: SimulatorContext): void;
}

/** The consent side of one network's simulator, as Simulator.consent mounts it. */
export function consentRoutes(side: ConsentSide): (ctx: SimulatorContext) => express.Router {
  return (ctx) => {
    const router = express.Router();
    // Meta's paths start with the API version (/v25.0/...); other first segments are not these routes'.
    router.param('version', (_req, _res, next, version: string) =>
      next(/^v\d+\.\d+$/.test(version) ? undefined : 'route'),
    );
    consentPageRoutes(router, ctx, side.page);
    side.tokenRoutes(router, ctx);
    return router;
  };
}

function option(value: string, label: string, selected: boolean): string {
  return `<option value="${value}"${selected ? ' selected' : ''}>${label}</option>`;
}
