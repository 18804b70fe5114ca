// Talking to an account's AT Protocol servers through @atproto/api. Its XRPC calls go through a fetch of our own:
// the servers are the ones a person named (any PDS, not only Bluesky's), so every request passes the public-address
// guard of media/fromUrl.ts, and each carries the session Herald holds, never one the library would refresh and
// keep to itself. The servers' refusals become the spec's kinds of failure with their own words.
// https://docs.bsky.app/docs/advanced-guides/rate-limits, https://atproto.com/specs/xrpc#error-responses
import { Readable } from 'node:stream';
import type { XRPCError } from '@atproto/api';
import { ApiError } from '../../domain/errors.ts';
import { atproto, isXrpcError } from './atproto.ts';
import { describeFailure, guardedRequest, guardedUrl, type FetchPolicy } from '../../media/fromUrl.ts';
import { NetworkError, type AccountCredentials, type ConnectorAccount, type FailureKind } from '../connector.ts';

/** How long a server may take to answer a call; an upload gets longer, as its answer follows the whole file. */
const CALL_WAIT_MS = 60_000;
export const UPLOAD_WAIT_MS = 15 * 60_000;

/** No answer came: the server could not be reached, or the connection dropped. */
export class Unreachable extends Error {}

/** RequestInit's body as guardedRequest sends it. */
function bodyOf(body: RequestInit['body']): string | Uint8Array | Readable | undefined {
  if (body === null || body === undefined || typeof body === 'string') return body ?? undefined;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof ReadableStream) return Readable.fromWeb(body as import('node:stream/web').ReadableStream);
  if (body instanceof Blob) return Readable.fromWeb(body.stream() as import('node:stream/web').ReadableStream);
  throw new TypeError(`a request body of type ${body.constructor.name} cannot be sent`);
}

/** How long the headers of a cut upload wait for the server's refusal (refusalOf); a refusal comes at once. */
const REFUSAL_WAIT_MS = 5_000;

/** Answers to the headers sent again that are about that request (no file came), not about the upload. */
const ABOUT_THE_PROBE = new Set([408, 417]);

/**
 * A server that refuses an upload on its headers (over its size limit) answers and closes while the file is still
 * being sent, and the next write fails (EPIPE, ECONNRESET) before that answer is read. The same headers, its
 * content-length included, go again with `Expect: 100-continue` and no file, to read it: a server that would take
 * the file answers only `100 Continue`, and the request is dropped unsent after REFUSAL_WAIT_MS.
 */
async function refusalOf(url: URL, policy: FetchPolicy, headers: Record<string, string>, signal: AbortSignal) {
  const probe = { method: 'POST' as const, headers: { ...headers, expect: '100-continue' } };
  const res = await guardedRequest(url, policy, probe, signal, Date.now() + REFUSAL_WAIT_MS).catch(() => undefined);
  const status = res?.statusCode ?? 0;
  if (status >= 400 && !ABOUT_THE_PROBE.has(status)) return res;
  res?.destroy();
  return undefined;
}

/**
 * A fetch that reaches only what `policy` allows; its failures reject with Unreachable or UrlNotAllowed. `upload`:
 * its calls send files, and a call cut while sending asks for the server's refusal (refusalOf).
 */
export function guardedFetch(policy: FetchPolicy, { waitMs = CALL_WAIT_MS, upload = false } = {}) {
  return async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const url = guardedUrl(String(input), policy);
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'POST') throw new TypeError(`${method} is not an XRPC method`);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const signal = init.signal ?? AbortSignal.timeout(waitMs);
    let res: Awaited<ReturnType<typeof guardedRequest>>;
    try {
      res = await guardedRequest(
        url,
        policy,
        { method, headers, body: bodyOf(init.body) },
        signal,
        Date.now() + waitMs,
      );
    } catch (err) {
      if (err instanceof ApiError) throw err;
      const cut = ['EPIPE', 'ECONNRESET'].includes((err as NodeJS.ErrnoException).code ?? '');
      const sized = upload && cut && headers['content-length'] !== undefined;
      const refused = sized ? await refusalOf(url, policy, headers, signal) : undefined;
      if (!refused) throw new Unreachable(`${url.origin} could not be reached: ${describeFailure(err)}`);
      res = refused;
    }
    const answer = new Headers();
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value);
    const status = res.statusCode ?? 502;
    const empty = status === 204 || status === 304;
    if (empty) res.resume();
    return new Response(empty ? null : (Readable.toWeb(res) as ReadableStream), { status, headers: answer });
  };
}

/**
 * An agent on `server` whose calls carry `token` (an access token, or the refresh token for refreshSession), for the
 * account `did` when it is known. The library never sees a password or keeps a session.
 */
export function agentOn(server: string, policy: FetchPolicy, options: { did?: string; token?: string } = {}) {
  const fetch = guardedFetch(policy);
  const upload = guardedFetch(policy, { waitMs: UPLOAD_WAIT_MS, upload: true });
  return new (atproto().Agent)({
    did: options.did,
    fetchHandler(path: string, init: RequestInit) {
      const headers = new Headers(init.headers);
      if (options.token) headers.set('authorization', `Bearer ${options.token}`);
      const send = path.startsWith('/xrpc/com.atproto.repo.uploadBlob') ? upload : fetch;
      return send(new URL(path, server), { ...init, headers });
    },
  });
}

/** The account's agent on its PDS, with its access token. */
export function accountAgent(account: ConnectorAccount, policy: FetchPolicy) {
  return agentOn(serversOf(account.credentials).pds, policy, {
    did: account.externalId,
    token: account.credentials.accessToken,
  });
}

export function serversOf(credentials: AccountCredentials): { service: string; pds: string } {
  const servers = credentials.servers;
  if (!servers?.service || !servers.pds)
    throw new NetworkError('bluesky', 'token_rejected', 'No Bluesky server is stored for this account.');
  return { service: servers.service, pds: servers.pds };
}

/** An access token's expiry (its `exp` claim), when it has one; the token is read, not verified. */
export function tokenClaims(jwt: string): { exp?: number; scope?: string } {
  try {
    return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
  } catch {
    return {};
  }
}

/** The server's error names, and what each is: the ones not here go by status. */
const ERRORS: Record<string, [FailureKind, string?]> = {
  ExpiredToken: ['token_rejected'],
  InvalidToken: ['token_rejected'],
  AuthenticationRequired: ['token_rejected'],
  AccountTakedown: ['rejected', 'Bluesky suspended this account; it cannot post until that is lifted.'],
  AccountDeactivated: ['rejected', 'The account is deactivated: reactivate it on Bluesky, then retry the post.'],
  RateLimitExceeded: ['rate_limited'],
  PayloadTooLarge: ['rejected', 'The file is larger than the account’s server takes: send a smaller one.'],
};

/** Seconds until the server's rate-limit window resets (RateLimit-Reset is an epoch time in seconds). */
function retryAfter(err: XRPCError, nowMs: number): number | undefined {
  const reset = Number(err.headers?.['ratelimit-reset']);
  if (Number.isFinite(reset) && reset > 0) return Math.max(1, Math.ceil(reset - nowMs / 1000));
  const after = Number(err.headers?.['retry-after']);
  return Number.isFinite(after) && after > 0 ? after : undefined;
}

/** The HTTP status an XRPCError came with (the library keeps it as its own enum, equal for real statuses). */
export const statusOf = (err: XRPCError) => Number(err.status);

/** Whether no answer came (the server may have acted on the call). */
export function unanswered(err: unknown): boolean {
  const cause = isXrpcError(err) ? err.cause : err;
  return cause instanceof Unreachable || (isXrpcError(err) && statusOf(err) >= 500);
}

/** A failed call as the spec's kind of failure, quoting the server. */
export function refusal(err: unknown, nowMs: number): NetworkError {
  if (err instanceof NetworkError) return err;
  const cause = isXrpcError(err) ? err.cause : err;
  if (cause instanceof Unreachable) return new NetworkError('bluesky', 'unavailable', `${cause.message}.`);
  if (cause instanceof ApiError)
    return new NetworkError(
      'bluesky',
      'rejected',
      cause.message,
      undefined,
      'Reconnect the account on a public server.',
    );
  if (!isXrpcError(err)) throw err;
  const status = statusOf(err);
  const [kind, fix] = ERRORS[err.error] ?? [
    status === 401 ? 'token_rejected' : status === 429 ? 'rate_limited' : status >= 500 ? 'unavailable' : 'rejected',
  ];
  const words = `${err.message} (${[status, err.error].filter(Boolean).join(' ')})`;
  return new NetworkError('bluesky', kind, fix ? `${words} ${fix}` : words, retryAfter(err, nowMs));
}
