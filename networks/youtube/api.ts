// Talking to the YouTube Data API: one request (a dropped connection is YouTube being unavailable), JSON
// reads with the account's token, and YouTube's error body as the spec's kind of failure.
import { DateTime } from 'luxon';
import type { Clock } from '../../runtime/clock.ts';
import { NetworkError, type ConnectorAccount, type ConnectorContext, type FailureKind } from '../connector.ts';
import { youtubeRules } from './rules.ts';

/** The parts of a video resource the connector reads. */
export interface VideoAnswer {
  id: string;
  status?: { uploadStatus?: string; rejectionReason?: string; failureReason?: string; privacyStatus?: string };
}

interface YoutubeErrorBody {
  error?: { message?: string; errors?: { reason?: string }[] };
}

/** A refusal with what the steps need to tell their causes apart. */
export interface Refusal {
  error: NetworkError;
  reason: string;
}

/** YouTube's refusal as the spec's kind of failure: by reason first, then by HTTP status. */
function failureKind(status: number, reason: string, message: string): FailureKind {
  if (reason === 'youtubeSignupRequired') return 'unverified';
  if (status === 401 || reason === 'authError' || reason.startsWith('authenticatedUserAccount'))
    return 'token_rejected';
  // Two eras of the same spent quota: 403 quotaExceeded, and 429 on the "Video Uploads per day" bucket.
  if (reason === 'quotaExceeded' || reason === 'dailyLimitExceeded' || message.includes('Video Uploads per day'))
    return 'quota_exceeded';
  if (
    status === 429 ||
    ['rateLimitExceeded', 'userRateLimitExceeded', 'uploadLimitExceeded', 'uploadRateLimitExceeded'].includes(reason)
  )
    return 'rate_limited';
  if (reason === 'insufficientPermissions' || reason === 'forbidden') return 'permission_missing';
  if (status >= 500) return 'unavailable';
  return 'rejected';
}

/**
 * uploadLimitExceeded is the channel's daily upload cap, the one its website and apps have too: YouTube's developer
 * news says to try again in 24 hours (quoted in https://gitlab.gnome.org/GNOME/shotwell/-/issues/5019; the errors
 * page, https://developers.google.com/youtube/v3/docs/errors, names only the reason, read 2026-11-29). Herald waits
 * for the daily reset the quota has, not minutes.
 */
const UPLOAD_LIMIT_HINT =
  'YouTube limits how many videos a channel may upload in a day, on its website and apps too; Herald tries again ' +
  'after the daily reset at midnight Pacific time. Post fewer videos to this channel per day.';

/** Seconds until the next daily reset of YouTube's limits (midnight Pacific time). */
function secondsToReset(clock: Clock): number {
  const now = DateTime.fromMillis(clock.now(), { zone: youtubeRules.quotaResetZone });
  return Math.ceil(now.plus({ days: 1 }).startOf('day').diff(now).as('seconds'));
}

/** YouTube's own message (its quota message carries an HTML link) with the status and reason. */
export async function readRefusal(res: Response, clock: Clock): Promise<Refusal> {
  const text = await res.text();
  let body: YoutubeErrorBody = {};
  try {
    body = JSON.parse(text) as YoutubeErrorBody;
  } catch {
    // Not YouTube's JSON (a proxy's page): the status line is all there is to quote.
  }
  const reason = body.error?.errors?.[0]?.reason ?? '';
  const message = (body.error?.message ?? res.statusText).replace(/<[^>]*>/g, '').trim() || `HTTP ${res.status}`;
  const kind = failureKind(res.status, reason, message);
  // A spent daily quota waits for its reset (NetworkRules.quotaResetZone), whatever Retry-After says.
  const retryAfter = kind === 'quota_exceeded' ? undefined : Number(res.headers.get('Retry-After')) || undefined;
  const said = `${message} (${[res.status, reason].filter(Boolean).join(' ')})`;
  if (reason === 'uploadLimitExceeded')
    return { reason, error: new NetworkError('youtube', kind, said, secondsToReset(clock), UPLOAD_LIMIT_HINT) };
  return { reason, error: new NetworkError('youtube', kind, said, retryAfter) };
}

export async function refusal(res: Response, clock: Clock): Promise<NetworkError> {
  return (await readRefusal(res, clock)).error;
}

export const bearer = (account: ConnectorAccount) => ({ Authorization: `Bearer ${account.credentials.accessToken}` });

/** The connector's way to YouTube: its hosts, its clock, and requests that map failures. */
export function youtubeApi(ctx: ConnectorContext) {
  /** One request; a connection that fails or drops midway is YouTube being unavailable. */
  async function send(url: string, init: RequestInit & { duplex?: 'half' }): Promise<Response> {
    try {
      // A 308 is "Resume Incomplete" here, never a redirect to follow.
      return await ctx.fetch(url, { redirect: 'manual', ...init });
    } catch (err) {
      const cause = (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;
      throw new NetworkError('youtube', 'unavailable', `The connection to YouTube failed: ${cause}.`);
    }
  }

  /** A read of the Data API with the account's token. */
  async function getJson<T>(account: ConnectorAccount, path: string): Promise<T> {
    const res = await send(`${ctx.hosts.api}${path}`, { headers: bearer(account) });
    if (!res.ok) throw await refusal(res, ctx.clock);
    return (await res.json()) as T;
  }

  return { hosts: ctx.hosts, client: ctx.client, clock: ctx.clock, send, getJson };
}

export type YoutubeApi = ReturnType<typeof youtubeApi>;
