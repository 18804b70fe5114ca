// What the three Graph-API simulators (Instagram, Facebook Pages, Threads) share: the error body and
// the answers to queued failure scenarios, the token and account checks, parameters from the query
// or a form body, Meta's time format, downloading the media a post points at (as Meta does, by URL),
// insight answers, and the page each published item has at its address.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import express, { type Request, type RequestHandler } from 'express';
import { randomBase62 } from '../../domain/ids.ts';
import type { Platform } from '../rules.ts';
import type { SimulatorContext } from './simulator.ts';
import { sandboxTokenAccount, type SandboxItem, type Scenario } from './state.ts';
import { issueToken, refreshRefusal } from './tokens.ts';
import { escapeHtml } from '../../domain/html.ts';

/**
 * `{"error":{...}}` as every Graph host sends it (Threads adds type THApiException), from
 * https://developers.facebook.com/docs/graph-api/guides/error-handling.
 */
interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
  error_user_title?: string;
  error_user_msg?: string;
  fbtrace_id?: string;
}

/** A Graph error answer: thrown by handlers, rendered by graphRoute. */
export class GraphFault extends Error {
  constructor(
    readonly httpStatus: number,
    readonly error: GraphErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(error.message);
  }

  get body(): object {
    return { error: this.error };
  }
}

/** The upload host (rupload) answers its failures in a shape of its own. */
export class UploadFault extends GraphFault {
  constructor(
    httpStatus: number,
    readonly debugInfo: { retriable: boolean; type: string; message: string },
  ) {
    super(httpStatus, { message: debugInfo.message });
  }

  override get body(): object {
    return { debug_info: this.debugInfo };
  }
}

type FaultSpec = [
  httpStatus: number,
  error: Omit<GraphErrorBody, 'fbtrace_id' | 'type'> & { type?: string },
  headers?: Record<string, string>,
];

export function fault(network: Platform, [httpStatus, error, headers]: FaultSpec): GraphFault {
  // Threads answers its own errors as THApiException; token errors stay OAuthException everywhere.
  const type = error.type ?? (network === 'threads' && error.code !== 190 ? 'THApiException' : 'OAuthException');
  return new GraphFault(
    httpStatus,
    { is_transient: false, ...error, type, fbtrace_id: `A${randomBase62(22)}` },
    headers,
  );
}

/** A Page's business-use-case limit: Meta names the minutes until calls are allowed again. */
export const PAGE_LIMIT_REGAIN_MINUTES = 30;

const TOKEN_INVALID: FaultSpec = [
  400,
  { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 },
];
const SESSION_INVALIDATED: FaultSpec = [
  400,
  {
    message:
      'Error validating access token: The session has been invalidated because the user changed their ' +
      'password or Facebook has changed the session for security reasons.',
    code: 190,
    error_subcode: 460,
  },
];

/**
 * How each network answers the scenarios of `herald sandbox fail`. Meta's networks have no project
 * quota and no verification step: `quota_exceeded` answers their daily publishing limit and
 * `unverified` the permission refusal a Page gets before Page Publishing Authorization.
 */
const SCENARIO_FAULTS: Record<Scenario, Partial<Record<Platform, FaultSpec>> & { default: FaultSpec }> = {
  unavailable: {
    default: [
      500,
      { message: 'An unexpected error has occurred. Please retry your request later.', code: 2, is_transient: true },
    ],
  },
  rate_limited: {
    default: [400, { message: 'Application request limit reached', code: 4, is_transient: true }],
    facebook: [
      400,
      { message: '(#32) Page request limit reached', code: 32, is_transient: true },
      {
        'X-Business-Use-Case-Usage': JSON.stringify({
          '0': [
            {
              type: 'pages',
              call_count: 100,
              total_cputime: 12,
              total_time: 15,
              estimated_time_to_regain_access: PAGE_LIMIT_REGAIN_MINUTES,
            },
          ],
        }),
      },
    ],
  },
  token_rejected: { default: SESSION_INVALIDATED },
  permission_missing: {
    default: [403, { message: 'Application does not have permission for this action', code: 10 }],
    facebook: [
      403,
      {
        message:
          '(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts ' +
          'permission with page token',
        code: 200,
      },
    ],
  },
  rejected: {
    default: [
      400,
      {
        message: '(#368) The action attempted has been deemed abusive or is otherwise disallowed',
        code: 368,
        error_user_title: 'Post blocked',
        error_user_msg: 'This post goes against the Community Standards, so only you can see it.',
      },
    ],
    instagram: [
      400,
      {
        message: 'The aspect ratio is not supported.',
        code: 36003,
        error_subcode: 2207009,
        error_user_title: 'Cannot publish the image',
        error_user_msg:
          "The submitted image with aspect ratio ('0.5/1') cannot be published. " +
          'Please submit an image with a valid aspect ratio.',
      },
    ],
    threads: [
      400,
      {
        message: 'Invalid parameter',
        code: 100,
        error_user_title: 'Too many links',
        error_user_msg: 'THREADS_API__LINK_LIMIT_EXCEEDED: a post may contain at most 5 links.',
      },
    ],
  },
  quota_exceeded: {
    default: [
      400,
      {
        message: 'Application request limit reached',
        code: 4,
        is_transient: true,
        error_user_title: 'Publishing limit reached',
        error_user_msg: 'The account has reached its limit of posts published through the API in 24 hours.',
      },
    ],
    instagram: [
      400,
      {
        message: 'Application request limit reached',
        code: 9,
        error_subcode: 2207042,
        error_user_title: 'Publishing limit reached',
        error_user_msg: 'You have reached the maximum number of posts allowed through the API in 24 hours.',
      },
    ],
  },
  unverified: {
    default: [
      403,
      {
        message: 'Application does not have permission for this action',
        code: 10,
        error_user_msg:
          'The account must confirm its identity with two-factor authentication before it can publish through the API.',
      },
    ],
    facebook: [
      403,
      {
        message: '(#200) Publishing to this Page requires Page Publishing Authorization',
        code: 200,
        error_user_msg:
          'An admin of this Page must complete Page Publishing Authorization before anything can be published.',
      },
    ],
  },
};

/** Graph's answer for an id it does not know (or that is not the caller's). */
export const notFoundFault = (network: Platform, id: string) =>
  fault(network, [
    400,
    {
      message:
        `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing ` +
        `permissions, or does not support this operation.`,
      code: 100,
      error_subcode: 33,
    },
  ]);

export function scenarioFault(network: Platform, scenario: Scenario): GraphFault {
  const specs = SCENARIO_FAULTS[scenario];
  return fault(network, specs[network] ?? specs.default);
}

/** The token of a request: `Authorization: Bearer|OAuth <token>`, or `access_token` in the query or the form. */
export function tokenOf(req: Request): string | undefined {
  const header = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  return header ?? (req.query.access_token as string | undefined) ?? (req.body?.access_token as string | undefined);
}

/** Query and form parameters together, as Graph reads them. */
export function params(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of [req.query, req.body ?? {}]) {
    for (const [name, value] of Object.entries(source as Record<string, unknown>))
      if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/**
 * A Graph endpoint: checks the token (sandbox tokens are the ones the CLI stores, `sandbox-...`),
 * answers the handler's object as JSON and a GraphFault as the network's error body. Anything else
 * is the simulator failing, answered as Meta's transient error so callers retry.
 */
export function graphRoute(network: Platform, handler: (req: Request) => Promise<object>): RequestHandler {
  return async (req, res) => {
    try {
      if (!tokenOf(req)?.startsWith('sandbox-')) throw fault(network, TOKEN_INVALID);
      res.json(await handler(req));
    } catch (err) {
      const answer =
        err instanceof GraphFault
          ? err
          : fault(network, [
              500,
              {
                message:
                  `An unexpected error has occurred. Please retry your request later. (sandbox: ` +
                  `${(err as Error).message})`,
                code: 2,
                is_transient: true,
              },
            ]);
      res.status(answer.httpStatus).set(answer.headers).json(answer.body);
    }
  };
}

/** A router that reads Graph's form bodies, with the routes every simulator has: stored media and post pages. */
export function graphRouter(ctx: SimulatorContext, network: Platform, label: string): express.Router {
  const router = express.Router();
  router.use(express.urlencoded({ extended: false }), express.json());
  // Graph paths start with the API version (/v25.0/...); other first segments are not Graph's.
  router.param('version', (_req, _res, next, version: string) =>
    next(/^v\d+\.\d+$/.test(version) ? undefined : 'route'),
  );
  router.get('/media/:name', (req, res) => {
    res.sendFile(path.join(mediaDir(ctx, network), path.basename(String(req.params.name))), (err) => {
      if (err && !res.headersSent) res.status(404).type('text/plain').send('No such file.');
    });
  });
  router.get('/p/:id', async (req, res) => {
    const item = await ctx.state.get<PostPageData>(String(req.params.id));
    if (!item || !item.data.page)
      return res
        .status(404)
        .type('html')
        .send(`<!doctype html><meta charset="utf-8"><p>This ${label} post does not exist.</p>`);
    res.type('html').send(renderPostPage(ctx, network, label, await accountName(ctx, item.account), item));
  });
  return router;
}

/** What a published item keeps for its page. */
export interface PostPageData extends Record<string, unknown> {
  page?: { text: string; files: StoredFile[] };
}

const DAY_MS = 86_400_000;

/** Published items of `kinds` in the account's last 24 hours, for the publishing limits. */
export async function publishedToday(
  ctx: SimulatorContext,
  network: Platform,
  account: string,
  kinds: string[],
): Promise<number> {
  const row = await ctx
    .db('sandbox_items')
    .where({ network, account })
    .whereIn('kind', kinds)
    .where('published_ms', '>=', Date.now() - DAY_MS)
    .count({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

export const isExpired = (item: SandboxItem) => Date.now() - Date.parse(item.createdAt) > DAY_MS;

/**
 * Refuses calls for an account set to expired or revoked (`herald account add-sandbox --status`), as
 * the network refuses its token, then answers a failure queued with `herald sandbox fail`, if any.
 */
export async function admitPublishingCall(ctx: SimulatorContext, network: Platform, account: string): Promise<void> {
  const { tokens, failing } = await ctx.state.admission(account);
  if (tokens === 'expired')
    throw fault(network, [
      400,
      { message: 'Error validating access token: Session has expired.', code: 190, error_subcode: 463 },
    ]);
  if (tokens === 'revoked')
    throw fault(network, [
      400,
      {
        message: 'Error validating access token: The user has not authorized application.',
        code: 190,
        error_subcode: 458,
      },
    ]);
  const scenario = failing ? await ctx.state.takeFailure(account) : undefined;
  if (scenario) throw scenarioFault(network, scenario);
}

export async function accountName(ctx: SimulatorContext, account: string): Promise<string> {
  return (await ctx.state.account(account))?.name ?? account;
}

/** Meta's long-lived tokens (Instagram, Threads) last 60 days. */
const LONG_LIVED_MS = 60 * DAY_MS;

/** The account a Meta token grant is for (the token names it), once the grant type is the one the route takes. */
function grantAccount(req: Request, network: Platform, grantType: string): { token: string; account: string } {
  if (params(req).grant_type !== grantType)
    throw fault(network, [400, { message: `Unsupported grant_type: expected ${grantType}.`, code: 100 }]);
  const token = tokenOf(req) ?? '';
  const account = sandboxTokenAccount(token, 'access');
  if (!account)
    throw fault(network, [400, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 }]);
  return { token, account };
}

const longLived = async (ctx: SimulatorContext, account: string, from?: string) => ({
  access_token: await issueToken(ctx, 'access', account, LONG_LIVED_MS, from),
  token_type: 'bearer',
  expires_in: LONG_LIVED_MS / 1000,
});

/** A short-lived token exchanged for a long-lived one (Threads' `th_exchange_token`): 60 days. */
export async function longLivedToken(ctx: SimulatorContext, req: Request, grantType: string) {
  const { account } = grantAccount(req, ctx.network, grantType);
  return longLived(ctx, account);
}

/**
 * A long-lived token refreshed with itself: "at least 24 hours old but has not expired", and the new one lasts 60 days
 * (https://developers.facebook.com/docs/threads/get-started/long-lived-tokens/ and
 * https://developers.facebook.com/documentation/instagram-platform/reference/refresh_access_token, read 2026-11-29).
 * An expired one answers Meta's 190/463; the refusal of a young one is not documented, so it is a plain 100.
 */
export async function refreshedLongLivedToken(ctx: SimulatorContext, req: Request, grantType: string) {
  const { token, account } = grantAccount(req, ctx.network, grantType);
  const refusal = await refreshRefusal(ctx, token, { minimumAgeMs: DAY_MS });
  if (refusal === 'expired')
    throw fault(ctx.network, [
      400,
      { message: 'Error validating access token: Session has expired.', code: 190, error_subcode: 463 },
    ]);
  if (refusal === 'young')
    throw fault(ctx.network, [
      400,
      { message: 'The access token can be refreshed only once it is at least 24 hours old.', code: 100 },
    ]);
  return longLived(ctx, account, token);
}

/** Meta's timestamps: whole seconds with a `+0000` offset. */
export function metaTime(at: string | number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

/** Only the fields asked for (`?fields=a,b`), and always the id, as Graph answers. */
export function pickFields(object: Record<string, unknown>, fields: string | undefined): Record<string, unknown> {
  if (!fields) return { id: object.id };
  const names = new Set(['id', ...fields.split(',').map((f) => f.trim())]);
  return Object.fromEntries(Object.entries(object).filter(([name, value]) => names.has(name) && value !== undefined));
}

/**
 * The most a list answers at once, whatever `limit` asks: Graph's paging guide says a query may return
 * fewer objects than `limit` (https://developers.facebook.com/docs/graph-api/results, read 2026-11-29), so
 * a client has to follow `paging.next` rather than trust one page.
 */
export const LIST_PAGE_SIZE = 25;

/**
 * One page of `items` in Graph's cursor paging: `{data, paging:{cursors:{before, after}, next?}}`, `next`
 * an absolute address carrying the token, as Meta writes it, until the last page.
 */
export function pagedList(req: Request, items: object[]): object {
  const p = params(req);
  const start = Math.max(0, Number(Buffer.from(p.after ?? '', 'base64url').toString()) || 0);
  const size = Math.min(Math.max(1, Number(p.limit) || LIST_PAGE_SIZE), LIST_PAGE_SIZE);
  const data = items.slice(start, start + size);
  const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
  const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(start + data.length) } };
  if (start + size < items.length) {
    const next = new URL(req.originalUrl, `${req.protocol}://${req.get('host')}`);
    next.searchParams.set('after', cursor(start + size));
    next.searchParams.set('access_token', tokenOf(req) ?? '');
    paging.next = next.toString();
  }
  return { data, paging };
}

/**
 * GET /{id}/insights where the id names an item (lifetime figures) or the account itself (daily figures);
 * `refuse` turns down what a kind of item does not have.
 */
export function itemOrAccountInsights(
  ctx: SimulatorContext,
  network: Platform,
  refuse: (item: SandboxItem, metrics: string[]) => GraphFault | undefined = () => undefined,
): RequestHandler {
  return graphRoute(network, async (req) => {
    const item = await ctx.state.get(String(req.params.id));
    const metric = params(req).metric;
    const refusal = item && refuse(item, (metric ?? '').split(',').filter(Boolean));
    if (refusal) throw refusal;
    return insightsAnswer(String(req.params.id), metric, item ? 'lifetime' : 'day');
  });
}

/** Insight answers with stable made-up values (the same item always shows the same numbers). */
export function insightsAnswer(id: string, metrics: string | undefined, period = 'lifetime'): { data: object[] } {
  return {
    data: (metrics ?? '')
      .split(',')
      .filter(Boolean)
      .map((name) => ({
        name,
        period,
        id: `${id}/insights/${name}/${period}`,
        title: name,
        description: `Sandbox ${name}`,
        values: [{ value: parseInt(createHash('sha1').update(`${id}:${name}`).digest('hex').slice(0, 6), 16) % 1000 }],
      })),
  };
}

/** A file the simulator downloaded, kept under DATA_DIR/sandbox/<network> and shown on post pages. */
export interface StoredFile {
  kind: 'image' | 'video';
  mime: string;
  name: string;
}

const FETCH_TIMEOUT_MS = 120_000;
export const mediaDir = (ctx: SimulatorContext, network: Platform) => path.join(ctx.dataDir, 'sandbox', network);

/** The type of a file from its first bytes (the address's Content-Type is not proof). */
function sniff(head: Buffer): { mime: string; ext: string } | undefined {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { mime: 'image/jpeg', ext: 'jpg' };
  if (head.subarray(0, 4).toString('hex') === '89504e47') return { mime: 'image/png', ext: 'png' };
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return { mime: 'image/gif', ext: 'gif' };
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
    return { mime: 'image/webp', ext: 'webp' };
  const box = head.subarray(4, 8).toString('latin1');
  if (box === 'ftyp')
    return head.subarray(8, 10).toString('latin1') === 'qt'
      ? { mime: 'video/quicktime', ext: 'mov' }
      : { mime: 'video/mp4', ext: 'mp4' };
  if (['moov', 'mdat', 'wide', 'free'].includes(box)) return { mime: 'video/quicktime', ext: 'mov' };
  return undefined;
}

/**
 * Downloads a post's file from its public address, as Meta does with cURL (and with Facebook's
 * crawler user agent, which hosts must let through). Answers the stored file, or why it failed in
 * words for the network's error answer.
 */
export async function fetchMedia(
  ctx: SimulatorContext,
  network: Platform,
  url: string | undefined,
  kind: 'image' | 'video',
): Promise<StoredFile | string> {
  if (!url) return 'no address was given';
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { 'user-agent': 'facebookexternalhit/1.1' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (err) {
    const fault = err as Error & { cause?: Error };
    return `the address could not be reached (${fault.cause?.message ?? fault.message})`;
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    return `the address answered HTTP ${res.status}`;
  }
  const dir = mediaDir(ctx, network);
  fs.mkdirSync(dir, { recursive: true });
  const partial = path.join(dir, `${randomBase62(16)}.part`);
  try {
    await pipeline(Readable.fromWeb(res.body as WebReadableStream), fs.createWriteStream(partial));
  } catch (err) {
    fs.rmSync(partial, { force: true });
    return `the download was cut off (${(err as Error).message})`;
  }
  const head = Buffer.alloc(12);
  const fd = fs.openSync(partial, 'r');
  fs.readSync(fd, head, 0, head.length, 0);
  fs.closeSync(fd);
  const type = sniff(head);
  if (!type || !type.mime.startsWith(`${kind}/`)) {
    fs.rmSync(partial, { force: true });
    return `the file is not ${kind === 'image' ? 'an image' : 'a video'}${type ? ` (it is ${type.mime})` : ''}`;
  }
  const name = partial.replace(/\.part$/, `.${type.ext}`);
  fs.renameSync(partial, name);
  return { kind, mime: type.mime, name: path.basename(name) };
}

/** The post as the network would show it: the account, the time, the text and the media. */
function renderPostPage(
  ctx: SimulatorContext,
  network: Platform,
  label: string,
  account: string,
  item: SandboxItem<PostPageData>,
): string {
  const page = item.data.page!;
  const media = page.files
    .map((f) => {
      const src = `${ctx.base}/media/${encodeURIComponent(f.name)}`;
      return f.kind === 'video' ? `<video src="${src}" controls playsinline></video>` : `<img src="${src}" alt="">`;
    })
    .join('\n');
  const when = item.publishedMs ? new Date(item.publishedMs).toISOString() : item.createdAt;
  return `<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(account)} on ${label} (sandbox)</title>
<style>body{font:16px/1.4 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}
img,video{max-width:100%;display:block;margin:.5rem 0}.who{font-weight:600}.when{color:#666;font-size:.9em}
.text{white-space:pre-wrap}.sandbox{color:#a40;font-size:.8em}</style>
<p class="sandbox">${label} sandbox: this post exists only in Herald's simulator.</p>
<article data-network="${network}" data-id="${escapeHtml(item.id)}">
<p class="who">${escapeHtml(account)}</p>
<p class="when"><time datetime="${when}">${when.replace('T', ' ').slice(0, 16)} UTC</time></p>
${media}
<p class="text">${escapeHtml(page.text)}</p>
</article>
</html>
`;
}
