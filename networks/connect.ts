// Connecting accounts, as Herald's OAuth client sees each network: where people consent, the permissions
// publishing and insights need, the authorization-code exchange and finding the accounts a grant covers.
// Live mode talks to the networks with the app's client id and secret; sandbox mode to the simulators'
// consent side (networks/sandbox/consent.ts), on the same paths and wire format.
import { createHash } from 'node:crypto';
import { ApiError, invalidRequest } from '../domain/errors.ts';
import type { Config } from '../runtime/config.ts';
import type { AccountCredentials, ConnectorContext } from './connector.ts';
import { clientFor, CONNECTORS, hostsFor } from './connectors.ts';
import { NETWORKS } from './index.ts';
import type { Platform } from './rules.ts';
import { SANDBOX_CLIENT } from './sandbox/consent.ts';
import { sandboxBase } from './sandbox/index.ts';

/** An account a grant covers, with the credentials Herald stores sealed for it. */
export interface ConnectTarget {
  externalId: string;
  displayName: string;
  credentials: AccountCredentials;
}

type Client = NonNullable<ConnectorContext['client']>;

interface CodeExchange {
  /** The connector's hosts under this configuration (token and API endpoints). */
  hosts: Record<string, string>;
  client: Client;
  redirectUri: string;
  code: string;
  codeVerifier: string;
}

interface ConnectNetwork {
  /** The consent page: on the network's origin when live, under the simulator's base in the sandbox. */
  authorize: { liveOrigin: string; path: string };
  scopes: string[];
  scopeSeparator: string;
  /** Google supports PKCE (S256); Meta's and Threads' web logins do not. */
  pkce: boolean;
  extraParams?: Record<string, string>;
  exchange(x: CodeExchange): Promise<ConnectTarget[]>;
  /** Why a grant that covers no account cannot be connected. */
  nothingFound: { message: string; hint: string };
}

const TIMEOUT_MS = 30_000;

const connectFailed = (label: string, words: string) =>
  new ApiError(502, 'connect_failed', `${label} answered: "${words}". Nothing was connected.`,
    `Connect again. If it keeps failing, check the client id, secret and callback address of Herald's app at ${label}.`);

/** The network's own words in an OAuth or Graph error body: `{error, error_description}` or `{error: {message}}`. */
function errorWords(body: any, status: number): string {
  if (typeof body?.error === 'object' && body.error) return String(body.error.message ?? `HTTP ${status}`);
  if (typeof body?.error === 'string') return [body.error_description, `(${body.error})`].filter(Boolean).join(' ');
  return `HTTP ${status}`;
}

/** A token or identity call: GET parameters go in the query, POST ones in a form body; refusals quote the network. */
async function call<T>(label: string, method: 'GET' | 'POST', url: string, params: Record<string, string>, token?: string): Promise<T> {
  const target = new URL(url);
  const form = new URLSearchParams(params);
  if (method === 'GET') for (const [name, value] of form) target.searchParams.set(name, value);
  let res: Response;
  let body: any;
  try {
    res = await fetch(target, {
      method, body: method === 'POST' ? form : undefined, signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    body = await res.json().catch(() => undefined);
  } catch (err) {
    throw connectFailed(label, `${target.origin} could not be reached: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`);
  }
  if (!res.ok || !body || body.error) throw connectFailed(label, errorWords(body, res.status));
  return body as T;
}

const expiresAt = (seconds: number | undefined) => (seconds ? { expiresAt: new Date(Date.now() + seconds * 1000).toISOString() } : {});

const youtube: ConnectNetwork = {
  authorize: { liveOrigin: 'https://accounts.google.com', path: '/o/oauth2/v2/auth' },
  // upload for videos.insert; force-ssl for thumbnails, playlists and statistics.
  scopes: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.force-ssl'],
  scopeSeparator: ' ',
  pkce: true,
  // Google sends a refresh token only when consent is given, so every connection asks for it again.
  extraParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  async exchange({ hosts, client, redirectUri, code, codeVerifier }) {
    const token = await call<{ access_token: string; refresh_token?: string; expires_in?: number }>('YouTube', 'POST', `${hosts.oauth}/token`, {
      grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: client.id, client_secret: client.secret, code_verifier: codeVerifier,
    });
    if (!token.refresh_token) throw connectFailed('YouTube', 'the token answer holds no refresh token');
    const channels = await call<{ items?: { id: string; snippet?: { title?: string } }[] }>('YouTube', 'GET', `${hosts.api}/channels`,
      { part: 'snippet', mine: 'true' }, token.access_token);
    return (channels.items ?? []).slice(0, 1).map((c) => ({ externalId: c.id, displayName: c.snippet?.title || c.id,
      credentials: { accessToken: token.access_token, refreshToken: token.refresh_token, ...expiresAt(token.expires_in) } }));
  },
  nothingFound: { message: 'The Google account that gave access has no YouTube channel.', hint: 'Create a channel at youtube.com, then connect again.' },
};

const META_VERSION = 'v25.0';

interface GrantedPage {
  id: string;
  name: string;
  access_token: string;
  instagram_business_account?: { id: string; username?: string };
}

/**
 * Facebook Login: the code for a short-lived user token, that for a long-lived one, then the Pages the
 * person granted. Page tokens made from a long-lived user token do not expire.
 */
async function grantedPages({ hosts, client, redirectUri, code }: CodeExchange, label: string, fields: string): Promise<GrantedPage[]> {
  const tokenUrl = `${hosts.graph}/${META_VERSION}/oauth/access_token`;
  const short = await call<{ access_token: string }>(label, 'GET', tokenUrl, { client_id: client.id, redirect_uri: redirectUri, client_secret: client.secret, code });
  const long = await call<{ access_token: string }>(label, 'GET', tokenUrl,
    { grant_type: 'fb_exchange_token', client_id: client.id, client_secret: client.secret, fb_exchange_token: short.access_token });
  // 100 Pages: more than any plan's account limit.
  const pages = await call<{ data?: GrantedPage[] }>(label, 'GET', `${hosts.graph}/${META_VERSION}/me/accounts`, { fields, limit: '100' }, long.access_token);
  return pages.data ?? [];
}

const facebook: ConnectNetwork = {
  authorize: { liveOrigin: 'https://www.facebook.com', path: `/${META_VERSION}/dialog/oauth` },
  scopes: ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'publish_video', 'read_insights'],
  scopeSeparator: ',',
  pkce: false,
  async exchange(x) {
    return (await grantedPages(x, 'Facebook', 'id,name,access_token'))
      .map((p) => ({ externalId: p.id, displayName: p.name, credentials: { accessToken: p.access_token } }));
  },
  nothingFound: { message: 'No Facebook Page was granted; Herald publishes to Pages only, not to profiles.', hint: 'Connect again and select at least one Page you manage.' },
};

const instagram: ConnectNetwork = {
  authorize: facebook.authorize,
  scopes: ['instagram_basic', 'instagram_content_publish', 'instagram_manage_insights', 'pages_show_list', 'pages_read_engagement'],
  scopeSeparator: ',',
  pkce: false,
  // A business or creator account is linked to one Page, and acts through that Page's token.
  async exchange(x) {
    return (await grantedPages(x, 'Instagram', 'id,name,access_token,instagram_business_account{id,username}')).flatMap((p) =>
      (p.instagram_business_account ? [{ externalId: p.instagram_business_account.id, displayName: p.instagram_business_account.username || p.name,
        credentials: { accessToken: p.access_token } }] : []));
  },
  nothingFound: {
    message: 'None of the granted Facebook Pages has an Instagram account linked. Instagram accounts must be of business or creator type; personal accounts cannot be connected.',
    hint: 'In Instagram, switch the account to a professional (business or creator) account and link it to a Facebook Page; then connect again and grant that Page.',
  },
};

const threads: ConnectNetwork = {
  authorize: { liveOrigin: 'https://threads.net', path: '/oauth/authorize' },
  scopes: ['threads_basic', 'threads_content_publish', 'threads_manage_insights'],
  scopeSeparator: ',',
  pkce: false,
  // A short-lived token (1 hour) for a long-lived one (60 days), which the worker refreshes.
  async exchange({ hosts, client, redirectUri, code }) {
    const short = await call<{ access_token: string }>('Threads', 'POST', `${hosts.graph}/oauth/access_token`,
      { client_id: client.id, client_secret: client.secret, grant_type: 'authorization_code', redirect_uri: redirectUri, code });
    const long = await call<{ access_token: string; expires_in?: number }>('Threads', 'GET', `${hosts.graph}/access_token`,
      { grant_type: 'th_exchange_token', client_secret: client.secret, access_token: short.access_token });
    const me = await call<{ id: string; username?: string }>('Threads', 'GET', `${hosts.graph}/v1.0/me`, { fields: 'id,username' }, long.access_token);
    return [{ externalId: me.id, displayName: me.username || me.id, credentials: { accessToken: long.access_token, ...expiresAt(long.expires_in) } }];
  },
  nothingFound: { message: 'Threads named no profile for this grant.', hint: 'Connect again.' },
};

const CONNECT: Partial<Record<Platform, ConnectNetwork>> = { youtube, facebook, instagram, threads };

/** Network identifiers of the spec whose connectors do not exist yet. */
const NOT_YET_AVAILABLE: Record<string, string> = { x: 'X', linkedin: 'LinkedIn', pinterest: 'Pinterest' };

export interface ConnectFlow {
  platform: Platform;
  label: string;
  /** The consent page's address, carrying `state` (and, with PKCE, the challenge of `codeVerifier`). */
  authorizeUrl(state: string, codeVerifier: string): string;
  /** Exchanges the code and finds the accounts the grant covers; refuses a grant that covers none. */
  exchange(code: string, codeVerifier: string): Promise<ConnectTarget[]>;
}

/**
 * The connect flow of `platform` under this configuration. Refuses names that are not networks,
 * networks that cannot be connected yet, and (live mode) networks whose app variables are not set.
 */
export function connectFlow(platform: string, config: Config, env: NodeJS.ProcessEnv = process.env): ConnectFlow {
  const network = Object.hasOwn(CONNECT, platform) ? CONNECT[platform as Platform] : undefined;
  const module = CONNECTORS[platform as Platform];
  if (!network || !module) {
    const label = Object.hasOwn(NOT_YET_AVAILABLE, platform) ? NOT_YET_AVAILABLE[platform]
      : Object.hasOwn(NETWORKS, platform) ? NETWORKS[platform as Platform].label : undefined;
    if (label) {
      throw new ApiError(400, 'network_unavailable', `${label} accounts cannot be connected yet: its connector is not available in this version.`,
        'Connect a YouTube, Instagram, Facebook or Threads account instead.');
    }
    throw invalidRequest(`platform "${platform}" is not a network Herald knows.`, 'Use youtube, instagram, facebook or threads.');
  }
  const p = platform as Platform;
  const label = NETWORKS[p].label;
  const redirectUri = `${config.publicUrl}/auth/connect/${p}/callback`;
  const client = config.networks === 'live' ? clientFor(module, config, env) : SANDBOX_CLIENT;
  if (!client) {
    const names = module.clientEnv ? `${module.clientEnv.id} and ${module.clientEnv.secret}` : 'its client variables';
    throw new ApiError(503, 'network_not_configured', `Connecting ${label} accounts needs ${names}, which are not set.`,
      `Register Herald as an app at ${label} with the callback address ${redirectUri}, set ${names} to its client id and secret, then restart Herald.`);
  }
  const hosts = hostsFor(module, p, config);
  const origin = config.networks === 'live' ? network.authorize.liveOrigin : sandboxBase(config.publicUrl, p);
  return {
    platform: p,
    label,
    authorizeUrl(state, codeVerifier) {
      const url = new URL(`${origin}${network.authorize.path}`);
      const params: Record<string, string> = { client_id: client.id, redirect_uri: redirectUri, response_type: 'code',
        scope: network.scopes.join(network.scopeSeparator), state, ...network.extraParams };
      if (network.pkce) Object.assign(params, { code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'), code_challenge_method: 'S256' });
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return url.toString();
    },
    async exchange(code, codeVerifier) {
      const found = await network.exchange({ hosts, client, redirectUri, code, codeVerifier });
      const targets = [...new Map(found.map((t) => [t.externalId, t])).values()];
      if (!targets.length) throw new ApiError(409, 'nothing_to_connect', network.nothingFound.message, network.nothingFound.hint);
      return targets;
    },
  };
}
