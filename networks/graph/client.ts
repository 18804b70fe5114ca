// What the three Graph-API networks (Instagram, Facebook Pages, Threads) share: the error body and its
// mapping to the spec's failure kinds, requests that turn connection trouble into `unavailable`, the
// pace of waiting for media processing, the publishing-limit read, insight values, and finding a
// post again among an account's recent ones when an attempt died without telling us its id.
import {
  NetworkError,
  type AccountCredentials,
  type ConnectorAccount,
  type FailureKind,
  type PublishMedia,
} from '../connector.ts';
import type { Clock } from '../../runtime/clock.ts';
import { httpExchange, type Answer } from '../httpExchange.ts';
import { META_FIELDS } from './fields.ts';
import type { Platform } from '../rules.ts';

/** `{"error":{...}}` as every Graph host sends it (Threads adds type THApiException). */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
  error_user_title?: string;
  error_user_msg?: string;
  fbtrace_id?: string;
}

/** Subcodes whose meaning overrides their code: IG's publishing limit, spam flag, server and upload errors. */
const SUBCODE_KINDS: Record<number, FailureKind> = {
  2207042: 'rate_limited',
  // Flagged as spam (code 4): repeating it is what got accounts flagged as bots.
  2207051: 'rejected',
  2207001: 'unavailable',
  2207032: 'unavailable',
  2207053: 'unavailable',
  // Meta's error codes page says to try again (with a new container where it expired): a download that
  // timed out, expired media, a container not found yet, publishing before processing finished.
  2207003: 'unavailable',
  2207020: 'unavailable',
  2207008: 'unavailable',
  2207027: 'unavailable',
  // Threads "Media Not Found" right after the container finished: the container is not visible yet.
  4279009: 'unavailable',
};
// Platform limits (4 app, 17 user, 32 Page, 341 app limit, 613 custom) and business use case limits (80001
// Pages, 80002 Instagram), as Meta's error-handling and rate-limiting pages list them.
const RATE_CODES = new Set([4, 9, 17, 32, 341, 613, 80001, 80002]);
const TRANSIENT_CODES = new Set([-1, 1, 2]);

export function graphFailureKind(error: GraphErrorBody, httpStatus = 400): FailureKind {
  const code = error.code ?? 0;
  if (code === 190) return 'token_rejected';
  if (code === 10 || (code >= 200 && code <= 299)) return 'permission_missing';
  const bySubcode = error.error_subcode === undefined ? undefined : SUBCODE_KINDS[error.error_subcode];
  if (bySubcode) return bySubcode;
  if (RATE_CODES.has(code)) return 'rate_limited';
  if (TRANSIENT_CODES.has(code) || error.is_transient || httpStatus >= 500) return 'unavailable';
  // 36000-range media errors, 2207052 media fetch, 100 parameters, 368 policy block, 506 duplicate, ...
  return 'rejected';
}

/** The network's own words, with the numbers a support page or Meta's docs are searched by. */
export function graphMessage(error: GraphErrorBody): string {
  const words = (error.error_user_msg || error.message || 'The network gave no reason.').trim();
  const numbers = [
    error.code !== undefined ? `code ${error.code}` : '',
    error.error_subcode !== undefined ? `subcode ${error.error_subcode}` : '',
  ].filter(Boolean);
  return numbers.length ? `${words} (${numbers.join(', ')})` : words;
}

export type GraphParams = Record<string, string | number | boolean | undefined>;

export interface GraphCall {
  method?: 'GET' | 'POST';
  url: string;
  token: string;
  /** Query parameters of a GET, form fields of a POST (Graph takes both form-encoded). */
  params?: GraphParams;
  headers?: Record<string, string>;
  /** Calls that make the network download a file answer late. */
  timeoutMs?: number;
}

export type Graph = <T = Record<string, any>>(call: GraphCall) => Promise<T>;

const DEFAULT_TIMEOUT_MS = 60_000;

function encode(params: GraphParams = {}): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) out.set(name, String(value));
  return out;
}

/**
 * A Graph request for one network. The token travels in the Authorization header, never in a URL
 * that could be logged. Connection failures and timeouts are `unavailable`; an error body is mapped
 * by graphFailureKind; anything else that is not JSON is `unavailable` on 5xx and `rejected` otherwise.
 */
export function graphClient(platform: Platform, label: string): Graph {
  return async <T>(call: GraphCall): Promise<T> => {
    const method = call.method ?? 'GET';
    const url = new URL(call.url);
    const form = encode(call.params);
    if (method === 'GET') for (const [name, value] of form) url.searchParams.set(name, value);
    let res: Answer;
    try {
      res = await httpExchange(url, {
        method,
        headers: {
          authorization: `Bearer ${call.token}`,
          ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...call.headers,
        },
        body: method === 'POST' ? form.toString() : undefined,
        timeoutMs: call.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      });
    } catch (err) {
      const cause = (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;
      throw new NetworkError(
        platform,
        'unavailable',
        `${label} could not be reached (${method} ${url.pathname}): ${cause}.`,
      );
    }
    const { status, text } = res;
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      const kind = status >= 500 ? 'unavailable' : 'rejected';
      throw new NetworkError(
        platform,
        kind,
        `${label} answered HTTP ${status} with a body that is not JSON: ${text.slice(0, 200).trim() || '(empty)'}.`,
      );
    }
    if (body?.error && typeof body.error === 'object') {
      const usage = res.headers['x-business-use-case-usage'];
      const retryAfter =
        regainSeconds(typeof usage === 'string' ? usage : undefined) ??
        (Number(res.headers['retry-after']) || undefined);
      throw new NetworkError(platform, graphFailureKind(body.error, status), graphMessage(body.error), retryAfter);
    }
    // The upload host (rupload) has its own failure shape.
    const debug = body?.debug_info as { retriable?: boolean; type?: string; message?: string } | undefined;
    if (debug)
      throw new NetworkError(
        platform,
        debug.retriable ? 'unavailable' : 'rejected',
        `${debug.message ?? 'The upload failed.'} (${debug.type ?? 'upload error'})`,
      );
    if (status < 200 || status >= 300)
      throw new NetworkError(
        platform,
        status >= 500 ? 'unavailable' : 'rejected',
        `${label} answered HTTP ${status}: ${text.slice(0, 200)}.`,
      );
    return body as T;
  };
}

/**
 * The window a throttled call names: Meta's X-Business-Use-Case-Usage header gives, per business id,
 * `estimated_time_to_regain_access` in minutes (0 when not throttled). The longest one, in seconds.
 */
export function regainSeconds(usageHeader: string | undefined): number | undefined {
  try {
    const usage = JSON.parse(usageHeader ?? '{}') as Record<string, { estimated_time_to_regain_access?: number }[]>;
    const minutes = Math.max(
      0,
      ...Object.values(usage)
        .flat()
        .map((u) => Number(u.estimated_time_to_regain_access) || 0),
    );
    return minutes > 0 ? minutes * 60 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Meta's advice for containers and videos is to check about once a minute for at most five minutes.
 * Most images are ready at once, so the first check is immediate and the next ones come after 1, 2,
 * 4, ... seconds, settling at once a minute.
 */
export const PROCESSING_PACE = { firstWaitMs: 1000, longestWaitMs: 60_000, giveUpAfterMs: 5 * 60_000 };

/**
 * Calls `check` until it answers something, sleeping through the job's clock between calls.
 * Undefined when processing is still not over after PROCESSING_PACE.giveUpAfterMs.
 */
export async function waitForProcessing<T>(
  sleep: (ms: number) => Promise<void>,
  check: () => Promise<T | undefined>,
): Promise<T | undefined> {
  let waited = 0;
  let next = PROCESSING_PACE.firstWaitMs;
  for (;;) {
    const answer = await check();
    if (answer !== undefined) return answer;
    if (waited >= PROCESSING_PACE.giveUpAfterMs) return undefined;
    const wait = Math.min(next, PROCESSING_PACE.giveUpAfterMs - waited);
    await sleep(wait);
    waited += wait;
    next = Math.min(next * 2, PROCESSING_PACE.longestWaitMs);
  }
}

export function stillProcessing(platform: Platform, label: string, what: string): NetworkError {
  return new NetworkError(
    platform,
    'unavailable',
    `${label} was still processing the ${what} after ${PROCESSING_PACE.giveUpAfterMs / 60_000} minutes.`,
  );
}

/**
 * Reads the account's publishing limit (IG `content_publishing_limit`, Threads
 * `threads_publishing_limit`, both `{data:[{quota_usage, config:{quota_total, quota_duration}}]}`)
 * and refuses before creating anything when it is used up.
 */
export async function assertPublishingQuota(
  graph: Graph,
  call: { url: string; token: string },
  platform: Platform,
  label: string,
): Promise<void> {
  const body = await graph<{
    data?: { quota_usage?: number; config?: { quota_total?: number; quota_duration?: number } }[];
  }>({
    url: call.url,
    token: call.token,
    params: { fields: META_FIELDS.ContentPublishingLimitResponse },
  });
  const entry = body.data?.[0];
  const used = entry?.quota_usage;
  const total = entry?.config?.quota_total;
  if (used === undefined || total === undefined || used < total) return;
  const hours = Math.round((entry?.config?.quota_duration ?? 86_400) / 3600);
  throw new NetworkError(
    platform,
    'rate_limited',
    `${label} reports ${used} of ${total} posts published through the API in the last ${hours} hours; it ` +
      `accepts no more until older ones leave that window.`,
  );
}

/**
 * Insight answers: `data[]` of `{name, values:[{value}]}` or `{name,
 * total_value:{value}}`; the latest value per metric.
 */
export function insightValues(body: {
  data?: { name: string; values?: { value: unknown }[]; total_value?: { value: unknown } }[];
}): Record<string, number> {
  const out: Record<string, number> = {};
  for (const metric of body.data ?? []) {
    const raw = metric.total_value?.value ?? metric.values?.at(-1)?.value;
    // Breakdowns such as reactions by type arrive as {like: 3, love: 1}: their total is the metric.
    const value =
      typeof raw === 'object' && raw !== null
        ? Object.values(raw).reduce((sum: number, v) => sum + (Number(v) || 0), 0)
        : Number(raw);
    if (Number.isFinite(value)) out[metric.name] = value;
  }
  return out;
}

/**
 * Meta's networks fetch media by URL; each takes some image types and not others, so the rest are
 * sent as a JPEG copy.
 */
export function mediaAddress(media: PublishMedia, imageTypes: readonly string[]): Promise<string> {
  return media.kind === 'image' && !imageTypes.includes(media.mime)
    ? media.publicUrl({ format: 'jpeg' })
    : media.publicUrl();
}

/**
 * How far before an attempt's recorded start a post may carry its time and still be the attempt's:
 * the networks' times are whole seconds and their clocks are not ours.
 */
const CLOCK_ALLOWANCE_MS = 60_000;

export interface RecentPost {
  id: string;
  text: string;
  /** The network's creation time (`2024-05-01T12:00:00+0000`). */
  time: string;
  url?: string;
}

const normalized = (text: string) => text.replace(/\r\n/g, '\n').trim();

/**
 * The account's post that an attempt started at `since` made, told apart by its exact text (none of
 * these networks keeps a hidden field we could mark). `ambiguous` when several posts in the window
 * carry that text: then nobody can say which is ours, and publishing again could post it twice.
 */
export function findOwnPost(posts: RecentPost[], text: string, since: string): RecentPost | 'none' | 'ambiguous' {
  const from = Date.parse(since) - CLOCK_ALLOWANCE_MS;
  const matches = posts.filter((p) => Date.parse(p.time) >= from && normalized(p.text) === normalized(text));
  if (matches.length === 0) return 'none';
  return matches.length === 1 ? matches[0]! : 'ambiguous';
}

/** Unix seconds of the window start for `since=` filters on recent-post lists. */
export function windowStart(since: string): number {
  return Math.floor((Date.parse(since) - CLOCK_ALLOWANCE_MS) / 1000);
}

/**
 * Instagram and Threads refresh a long-lived token with itself (`GET /refresh_access_token?grant_type=...`,
 * at least a day old, before it expires) and answer `{access_token, token_type, expires_in}`. Meta
 * sends no refresh token, so the stored one is kept.
 */
export async function refreshLongLivedToken(
  graph: Graph,
  clock: Clock,
  url: string,
  grantType: string,
  account: ConnectorAccount,
  platform: Platform,
  label: string,
): Promise<AccountCredentials> {
  const { accessToken, refreshToken } = account.credentials;
  const answer = await graph<{ access_token?: string; expires_in?: number }>({
    url,
    token: accessToken,
    params: { grant_type: grantType, access_token: accessToken },
  });
  if (!answer.access_token)
    throw new NetworkError(platform, 'unavailable', `${label} answered the token refresh without an access_token.`);
  return {
    accessToken: answer.access_token,
    ...(refreshToken ? { refreshToken } : {}),
    ...(answer.expires_in ? { expiresAt: new Date(clock.now() + answer.expires_in * 1000).toISOString() } : {}),
  };
}
