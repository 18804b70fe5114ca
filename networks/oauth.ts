// What a network's OAuth connect module (networks/<name>/connect.ts) declares and the helpers it uses:
// where people consent, the permissions, the authorization-code exchange, and the calls that find the
// accounts a grant covers. The flow itself, the same for every network, is networks/connect.ts.
import { ApiError } from '../domain/errors.ts';
import type { Clock } from '../runtime/clock.ts';
import type { AccountCredentials, ConnectorContext } from './connector.ts';

/** An account a grant covers, with the credentials Herald stores sealed for it. */
export interface ConnectTarget {
  externalId: string;
  displayName: string;
  credentials: AccountCredentials;
}

/** An account (or a list of them) the grant reached that cannot be connected, and why, in words. */
/** Why a grant covered no account, as far as the network tells. */
export type NothingFoundReason = 'instagram_not_professional' | 'facebook_no_page' | 'youtube_no_channel';

export interface NotConnected {
  name: string;
  reason: string;
}

/** What a grant covers: the accounts to connect, and those it reached but cannot be connected. */
export type Found = ConnectTarget[] | { targets: ConnectTarget[]; notConnected: NotConnected[] };

export type Client = NonNullable<ConnectorContext['client']>;

export interface CodeExchange {
  /** The connector's hosts under this configuration (token and API endpoints). */
  hosts: Record<string, string>;
  client: Client;
  redirectUri: string;
  code: string;
  codeVerifier: string;
  /** When the tokens' lifetimes start. */
  clock: Clock;
}

export interface ConnectNetwork {
  /** The consent page: on the network's origin when live, under the simulator's base in the sandbox. */
  authorize: { liveOrigin: string; path: string };
  scopes: string[];
  scopeSeparator: string;
  /** The authorization request's name for the app's id: `client_id`, or TikTok's `client_key`. */
  clientIdParam?: string;
  /** Google supports PKCE (S256); Meta's and Threads' web logins do not. */
  pkce: boolean;
  extraParams?: Record<string, string>;
  /**
   * The variable naming a Facebook Login for Business configuration: when set, the dialog gets `config_id`
   * and no `scope`, the configuration naming the permissions (and the assets people pick).
   */
  configIdEnv?: string;
  exchange(x: CodeExchange): Promise<Found>;
  /**
   * Why a grant that covers no account cannot be connected; `reason`, when the network can tell why, is the code
   * the dashboard words it by (the refusal's `reason`).
   */
  nothingFound: { message: string; hint: string; reason?: NothingFoundReason };
}

const TIMEOUT_MS = 30_000;

/** The most of a server's own words an answer quotes: a server named by a person may send anything, at any length. */
const QUOTED_AT_MOST = 300;

export const quoted = (words: string) => (words.length > QUOTED_AT_MOST ? `${words.slice(0, QUOTED_AT_MOST)}…` : words);

export const connectFailed = (label: string, words: string) =>
  new ApiError(
    502,
    'connect_failed',
    `${label} answered: "${quoted(words)}". Nothing was connected.`,
    `Connect again. If it keeps failing, check the client id, secret and callback address of Herald's app at ${label}.`,
  );

/** The network's own words in an OAuth or Graph error body: `{error, error_description}` or `{error: {message}}`. */
function errorWords(body: any, status: number): string {
  if (typeof body?.error === 'object' && body.error) return String(body.error.message ?? `HTTP ${status}`);
  if (typeof body?.error === 'string') return [body.error_description, `(${body.error})`].filter(Boolean).join(' ');
  return `HTTP ${status}`;
}

/** A token or identity call: GET parameters go in the query, POST ones in a form body; refusals quote the network. */
export async function call<T>(
  label: string,
  method: 'GET' | 'POST',
  url: string,
  params: Record<string, string>,
  token?: string,
): Promise<T> {
  const target = new URL(url);
  const form = new URLSearchParams(params);
  if (method === 'GET') for (const [name, value] of form) target.searchParams.set(name, value);
  let res: Response;
  let body: any;
  try {
    res = await fetch(target, {
      method,
      body: method === 'POST' ? form : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    body = await res.json().catch(() => undefined);
  } catch (err) {
    throw connectFailed(label, `${target.origin} could not be reached: ${causeOf(err)}`);
  }
  // TikTok's envelope carries `error` on every answer, `{code: "ok"}` on success.
  if (!res.ok || !body || (body.error && body.error.code !== 'ok'))
    throw connectFailed(label, errorWords(body, res.status));
  return body as T;
}

/** When a token that lives `seconds` from now expires, if the network said. */
export const expiresAt = (clock: Clock, seconds: number | undefined) =>
  seconds ? { expiresAt: new Date(clock.now() + seconds * 1000).toISOString() } : {};

/** What went wrong with a fetch: undici puts the network's reason (ECONNREFUSED, a DNS failure) in `cause`. */
function causeOf(err: unknown): string {
  return (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;
}
