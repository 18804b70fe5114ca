// What only the Graph-API simulators (Instagram, Facebook Pages, Threads) share: the route and the router,
// tokens from the header, query or form, Meta's time format, fields and paging, publishing counts, insight answers,
// and the page each published item has at its address. Their faults are in graphFaults.ts, tokens in graphTokens.ts.
import { createHash } from 'node:crypto';
import path from 'node:path';
import express, { type Request, type RequestHandler } from 'express';
import { escapeHtml } from '../../domain/html.ts';
import type { Platform } from '../rules.ts';
import { mediaDir, type StoredFile } from './files.ts';
import { fault, GraphFault, TOKEN_INVALID } from './graphFaults.ts';
import { params } from './params.ts';
import type { SimulatorContext } from './simulator.ts';
import type { SandboxItem } from './state.ts';

/** The token of a request: `Authorization: Bearer|OAuth <token>`, or `access_token` in the query or the form. */
export function tokenOf(req: Request): string | undefined {
  const header = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  return header ?? (req.query.access_token as string | undefined) ?? (req.body?.access_token as string | undefined);
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

export const DAY_MS = 86_400_000;

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

export async function accountName(ctx: SimulatorContext, account: string): Promise<string> {
  return (await ctx.state.account(account))?.name ?? account;
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
