// Talking to TikTok's Content Posting API: every call is a POST of JSON with the account's token, and
// every answer is the envelope `{data, error: {code, message, log_id}}`, a success only when
// error.code is "ok" (the HTTP status alone does not say). Refusals become the spec's kinds of failure
// with TikTok's own code and words and, where TikTok names a cause, the fix.
// https://developers.tiktok.com/doc/content-posting-api-reference-direct-post (error codes)
import { NetworkError, type ConnectorAccount, type ConnectorContext, type FailureKind } from '../connector.ts';

const TIMEOUT_MS = 60_000;

/**
 * An unaudited app's two rules (https://developers.tiktok.com/doc/content-sharing-guidelines, read 2026-11-29):
 * "All user accounts using the API client to post must be set to private at the time of posting", and
 * "Unaudited API Clients can allow up to 5 users to post in a 24 hour window".
 */
export const UNAUDITED_PRIVATE =
  "Until TikTok audits Herald's app, the TikTok account itself must be set to private (in the TikTok app: " +
  'Settings and privacy, Privacy, Private account) and posts must be SELF_ONLY; or have TikTok audit the app ' +
  'and set HERALD_TIKTOK_AUDITED=true.';
export const UNAUDITED_USERS =
  "Until TikTok audits Herald's app, at most 5 TikTok accounts may post through it in 24 hours, and 5 already " +
  'have: this account can post once one of them has not posted for 24 hours, or once TikTok audits the app.';

/** TikTok's error codes: the spec's kind, and what to do when TikTok's words do not say it. */
const ERRORS: Record<string, [FailureKind, string?]> = {
  access_token_invalid: ['token_rejected'],
  scope_not_authorized: ['permission_missing'],
  rate_limit_exceeded: ['rate_limited'],
  spam_risk_too_many_posts: ['rate_limited', "The account reached TikTok's daily limit of posts through apps."],
  reached_active_user_cap: ['quota_exceeded', UNAUDITED_USERS],
  spam_risk_user_banned_from_posting: ['rejected', 'TikTok does not let this account post for now.'],
  privacy_level_option_mismatch: [
    'rejected',
    'Choose a privacy level the account offers now (plan the post again to see them).',
  ],
  unaudited_client_can_only_post_to_private_accounts: ['rejected', UNAUDITED_PRIVATE],
  url_ownership_unverified: [
    'rejected',
    "Verify the domain of Herald's PUBLIC_URL (or of the storage's public addresses) in TikTok's developer " +
      'portal, under URL properties.',
  ],
  invalid_param: ['rejected'],
  internal_error: ['unavailable'],
};

/** A `fail_reason` of status/fetch in words, with the fix (TikTok gives the code alone). */
export const FAIL_REASONS: Record<string, string> = {
  file_format_check_failed: 'TikTok could not read the file: export the video as MP4 (H.264 and AAC).',
  duration_check_failed: "the video's length is outside what TikTok allows this account: trim it.",
  frame_rate_check_failed: 'the frame rate is outside 23 to 60 frames per second: export it at 30.',
  picture_size_check_failed: 'a side of the picture is under 360 pixels or too large: export it at 1080 by 1920.',
  video_pull_failed: 'TikTok could not download the video from its address.',
  photo_pull_failed:
    'TikTok could not download a photo: PUBLIC_URL must be reachable from the internet and its domain verified ' +
    'at TikTok.',
  publish_cancelled: 'the post was cancelled on TikTok.',
  auth_removed: "the account removed Herald's access while the post was processing: reconnect it.",
  spam_risk_too_many_posts: "the account reached TikTok's daily limit of posts through apps.",
  spam_risk_user_banned_from_posting: 'TikTok does not let this account post for now.',
  internal: 'TikTok had an internal error: retry the post.',
};

export interface Envelope<T> {
  data?: T;
  error?: { code?: string; message?: string; log_id?: string };
}

export function refusal(status: number, body: Envelope<unknown> | undefined): NetworkError {
  const code = body?.error?.code ?? '';
  const [kind, fix] = ERRORS[code] ?? [status === 401 ? 'token_rejected' : status >= 500 ? 'unavailable' : 'rejected'];
  const words = body?.error?.message || `HTTP ${status}`;
  const retryAfter = kind === 'rate_limited' ? 60 : undefined;
  return new NetworkError(
    'tiktok',
    kind,
    `${words} (${[status, code].filter(Boolean).join(' ')})${fix ? ` ${fix}` : ''}`,
    retryAfter,
  );
}

/**
 * The envelope, with TikTok's 64-bit ids (post ids are 19 digits) kept exactly as strings: as JSON numbers
 * they would lose their last digits. No count TikTok sends comes near 16 digits.
 */
function parse<T>(text: string): Envelope<T> | undefined {
  try {
    return JSON.parse(text.replace(/([[:,]\s*)(\d{16,})(?=\s*[,\]}])/g, '$1"$2"')) as Envelope<T>;
  } catch {
    return undefined;
  }
}

export const bearer = (account: ConnectorAccount) => ({ Authorization: `Bearer ${account.credentials.accessToken}` });

/** No answer came (the connection failed or dropped): whether TikTok acted on the call is unknown. */
export class ConnectionLost extends NetworkError {
  constructor(cause: string) {
    super('tiktok', 'unavailable', `The connection to TikTok failed: ${cause}.`);
  }
}

const causeOf = (err: unknown) => (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;

export function tiktokApi(ctx: ConnectorContext) {
  /** One request; a connection that fails or drops midway is TikTok being unavailable. */
  async function send(url: string, init: RequestInit & { duplex?: 'half' }): Promise<Response> {
    try {
      return await ctx.fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), ...init });
    } catch (err) {
      throw new ConnectionLost(causeOf(err));
    }
  }

  /** A call with the account's token (a POST of JSON, or a GET): the envelope's data, or the refusal thrown. */
  async function call<T>(account: ConnectorAccount, path: string, body?: object): Promise<T> {
    const res = await send(`${ctx.hosts.api}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { ...bearer(account), ...(body ? { 'Content-Type': 'application/json; charset=UTF-8' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const answer = parse<T>(await res.text().catch(() => ''));
    if (!res.ok || answer?.error?.code !== 'ok' || !answer.data) throw refusal(res.status, answer);
    return answer.data;
  }

  return {
    hosts: ctx.hosts,
    client: ctx.client,
    clock: ctx.clock,
    send,
    post: <T>(account: ConnectorAccount, path: string, body: object) => call<T>(account, path, body),
    get: <T>(account: ConnectorAccount, path: string) => call<T>(account, path),
  };
}

export type TiktokApi = ReturnType<typeof tiktokApi>;
