// Facebook Login, as Facebook Pages and Instagram (business and creator accounts, through their Page)
// both connect: the consent dialog (classic, or Facebook Login for Business with a configuration), and the
// code exchange that ends with every Page the person can reach: those they have a role on, and those their
// businesses own or manage for clients (how agencies work), each list read to its end.
import { call, type CodeExchange, type NotConnected } from '../oauth.ts';
import { META_FIELDS } from './fields.ts';

/** The Graph API version of Meta's paths. */
const META_VERSION = 'v25.0';

/** Facebook's consent dialog, for Pages and Instagram alike. */
export const FACEBOOK_LOGIN = { liveOrigin: 'https://www.facebook.com', path: `/${META_VERSION}/dialog/oauth` };

/**
 * The permission that lists a person's businesses and their Pages. Instagram's publishing reference asks
 * for it (or an ads permission) when the person's Page role comes through a Business Manager:
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media_publish and
 * https://developers.facebook.com/docs/graph-api/reference/user/businesses (both read 2026-11-29).
 */
export const BUSINESS_SCOPE = 'business_management';

export interface ReachablePage {
  id: string;
  name: string;
  /** Absent when the person may not act on the Page (a business Page they are not assigned to). */
  access_token?: string;
  /** The person's tasks on a Page of their own role (me/accounts). */
  tasks?: string[];
  instagram_business_account?: { id: string; username?: string };
  /** The business the Page was reached through. */
  business?: string;
}

/** Lists longer than this many of Graph's pages are cut, so a network answering in circles cannot hold us. */
const MAX_LIST_PAGES = 100;

/**
 * Every entry of a Graph list, following `paging.next` (https://developers.facebook.com/docs/graph-api/results,
 * read 2026-11-29). `next` is followed only on the host that answered, and without the `access_token` Meta
 * writes into it: the token travels in the Authorization header.
 */
async function wholeList<T>(label: string, url: string, params: Record<string, string>, token: string): Promise<T[]> {
  const out: T[] = [];
  let page = await call<{ data?: T[]; paging?: { next?: string } }>(label, 'GET', url, params, token);
  for (let n = 1; ; n++) {
    out.push(...(page.data ?? []));
    const next = page.paging?.next ? new URL(page.paging.next) : undefined;
    if (!next || next.origin !== new URL(url).origin || n >= MAX_LIST_PAGES || !page.data?.length) return out;
    next.searchParams.delete('access_token');
    page = await call(label, 'GET', next.toString(), {}, token);
  }
}

/**
 * The code for a short-lived user token, that for a long-lived one, then every Page the person reaches:
 * me/accounts, then each business's owned_pages and client_pages (a Page seen twice counts once). Page tokens
 * made from a long-lived user token do not expire.
 */
export async function reachablePages(
  { hosts, client, redirectUri, code }: CodeExchange,
  label: string,
  fields: string,
): Promise<{ pages: ReachablePage[]; notConnected: NotConnected[] }> {
  const api = `${hosts.graph}/${META_VERSION}`;
  const tokenUrl = `${api}/oauth/access_token`;
  const short = await call<{ access_token: string }>(label, 'GET', tokenUrl, {
    client_id: client.id,
    redirect_uri: redirectUri,
    client_secret: client.secret,
    code,
  });
  const { access_token: token } = await call<{ access_token: string }>(label, 'GET', tokenUrl, {
    grant_type: 'fb_exchange_token',
    client_id: client.id,
    client_secret: client.secret,
    fb_exchange_token: short.access_token,
  });
  const list = <T>(path: string, listFields: string) =>
    wholeList<T>(label, `${api}/${path}`, { fields: listFields, limit: '100' }, token);
  const byId = new Map<string, ReachablePage>();
  for (const page of await list<ReachablePage>('me/accounts', `${fields},tasks`)) byId.set(page.id, page);
  const notConnected: NotConnected[] = [];
  let businesses: { id: string; name: string }[] = [];
  try {
    businesses = await list('me/businesses', META_FIELDS.Business);
  } catch (err) {
    // Without business_management (declined in the dialog) only the person's own Pages are listed.
    const words = (err as Error).message.replace(/\. Nothing was connected\.$/, '');
    notConnected.push({ name: 'Pages of your businesses', reason: `${label} did not list your businesses: ${words}` });
  }
  for (const business of businesses)
    for (const edge of ['owned_pages', 'client_pages'])
      for (const page of await list<ReachablePage>(`${business.id}/${edge}`, fields))
        if (!byId.has(page.id)) byId.set(page.id, { ...page, business: business.name });
  return { pages: [...byId.values()], notConnected };
}

/** What the person may do on the Page, as far as Meta says: a Page token, and a task that publishes. */
export function whyNotUsable(page: ReachablePage): string | undefined {
  if (!page.access_token)
    return page.business
      ? `you are not assigned to it in ${page.business}; a business admin can assign you with content tasks`
      : 'Facebook gave no access to it';
  // Publishing needs the MANAGE or CREATE_CONTENT task on the Page (IG User Media Publish, Pages API posts).
  if (page.tasks && !page.tasks.some((t) => t === 'MANAGE' || t === 'CREATE_CONTENT'))
    return 'your role on it cannot create content; it needs the MANAGE or CREATE_CONTENT task';
  return undefined;
}
