// Fetching a file from a user-given address without letting that address reach the server's own
// network (SSRF). Only https; every hop of a redirect is checked again; the IP check runs inside
// the socket's own DNS lookup and once more on the connected socket, so a name that resolves to a
// public address for a check and to a private one for the connection (DNS rebinding) is refused. Webhook deliveries
// (worker/webhookSender.ts) go through the same guard with a policy of their own.
import dns from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import tls from 'node:tls';
import { ApiError } from '../domain/errors.ts';
import { nonPublicRange } from '../domain/publicAddress.ts';

export interface FetchPolicy {
  /** Host names (or IP literals) exempt from the public-address rule: for tests, empty by default. */
  allowHosts: string[];
  /**
   * Origins (scheme, host and port) exempt from it: the sandbox's own servers. Their hosts' other ports are not, so
   * a person naming a server cannot probe them.
   */
  allowOrigins?: string[];
  /** Extra trusted certificate authorities (PEM), on top of the system's. */
  extraCaPem?: string;
  /** Exempt hosts may be reached over plain http too (a test receiver); never so for any other host. */
  httpForExempt?: boolean;
  /** What a refused address's hint tells the caller to do instead. */
  refusalHint?: string;
}

export interface RemoteFile {
  /** The address the file finally came from, after redirects. */
  url: URL;
  body: IncomingMessage;
  /** Content-Length, when the server sent one. */
  size: number | undefined;
  contentType: string | undefined;
}

/** How long the server may take to answer with headers, redirects included. */
const ANSWER_TIMEOUT_MS = 15_000;
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const FILE_HINT = 'Host the file on a public https address, or upload it with POST /media/uploads.';

export class UrlNotAllowed extends ApiError {
  constructor(url: string, why: string, hint = FILE_HINT) {
    super(400, 'url_not_allowed', `url: ${url} ${why}; only public https addresses are allowed.`, hint);
  }
}

export const urlFetchFailed = (url: string, why: string) =>
  new ApiError(
    400,
    'url_fetch_failed',
    `url: ${url} could not be fetched: ${why}.`,
    'Check that the address opens in a browser without signing in, then try again; or upload the file with ' +
      'POST /media/uploads.',
  );

/**
 * Connects to `address`, follows redirects and answers once a 2xx response's headers arrived; the
 * body is left to the caller, and `signal` aborts it. Refusals throw UrlNotAllowed, other failures
 * url_fetch_failed.
 */
export async function openRemoteFile(address: string, policy: FetchPolicy, signal: AbortSignal): Promise<RemoteFile> {
  const deadline = Date.now() + ANSWER_TIMEOUT_MS;
  let url = guardedUrl(address, policy);
  for (let hop = 0; ; hop++) {
    const res = await guardedRequest(url, policy, MEDIA_GET, signal, deadline).catch((err: unknown) => {
      throw err instanceof ApiError ? err : urlFetchFailed(address, describeFailure(err));
    });
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status)) {
      res.resume();
      const location = res.headers.location;
      if (!location) throw urlFetchFailed(address, `the server answered ${status} without a Location`);
      if (hop === MAX_REDIRECTS) throw urlFetchFailed(address, `it redirected more than ${MAX_REDIRECTS} times`);
      url = guardedUrl(new URL(location, url).href, policy, address);
      continue;
    }
    if (status < 200 || status > 299) {
      res.resume();
      throw urlFetchFailed(address, `the server answered ${status}${url.href === address ? '' : ` at ${url.href}`}`);
    }
    const length = Number(res.headers['content-length']);
    return {
      url,
      body: res,
      size: Number.isSafeInteger(length) && length >= 0 ? length : undefined,
      contentType: res.headers['content-type'],
    };
  }
}

/**
 * Parses one hop's address (`asked` is the one the caller gave, before redirects): https only, and an IP literal
 * must be public (names are checked at connect). Exempt hosts skip the address rule, and http too if the policy says.
 */
export function guardedUrl(text: string, policy: FetchPolicy, asked = text): URL {
  const refuse = (why: string) => new UrlNotAllowed(asked, why, policy.refusalHint);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('is not an absolute address');
  }
  const via = text === asked ? '' : ` (redirected to ${url.href})`;
  const host = hostOf(url);
  const plainAllowed = url.protocol === 'http:' && policy.httpForExempt && exempt(url, policy);
  if (url.protocol !== 'https:' && !plainAllowed) throw refuse(`uses ${url.protocol.replace(/:$/, '')}${via}`);
  // The URL parser already turned decimal, octal and hex IPv4 forms (2130706433, 0177.0.0.1, 0x7f.1) into dotted quads.
  const range = net.isIP(host) && !exempt(url, policy) ? nonPublicRange(host) : undefined;
  if (range) throw refuse(`points at ${host}, a ${range} address${via}`);
  return url;
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

function exempt(url: URL, policy: FetchPolicy): boolean {
  return (
    policy.allowHosts.includes(hostOf(url).replace(/\.$/, '')) || Boolean(policy.allowOrigins?.includes(url.origin))
  );
}

class NoAnswer extends Error {}

export interface GuardedRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** A stream is sent as it is read (a file upload). */
  body?: string | Uint8Array | Readable;
}

const MEDIA_GET: GuardedRequest = { method: 'GET', headers: { 'user-agent': 'Herald media import', accept: '*/*' } };

/**
 * One request to an address guardedUrl accepted, redirects not followed; it fails if no response headers arrived
 * by `deadline` (the body may take longer).
 */
export function guardedRequest(
  url: URL,
  policy: FetchPolicy,
  request: GuardedRequest,
  signal: AbortSignal,
  deadline: number,
): Promise<IncomingMessage> {
  const checked = !exempt(url, policy);
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'http:' ? http : https).request(url, {
      method: request.method,
      // No pooled sockets: every hop connects (and is checked) on its own.
      agent: false,
      lookup: checked ? publicOnlyLookup(url.href) : undefined,
      ca: policy.extraCaPem ? [...tls.rootCertificates, policy.extraCaPem] : undefined,
      headers: request.headers,
      signal,
    });
    req.once('socket', (socket) =>
      socket.once('connect', () => {
        // The address actually connected to, whatever resolved it (and for IP literals, which skip lookup).
        const range = checked ? nonPublicRange(socket.remoteAddress ?? '') : undefined;
        if (range) req.destroy(new UrlNotAllowed(url.href, `connected to ${socket.remoteAddress}, a ${range} address`));
      }),
    );
    const timer = setTimeout(() => req.destroy(new NoAnswer()), Math.max(0, deadline - Date.now()));
    req.once('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    req.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    if (request.body instanceof Readable) {
      request.body.once('error', (err) => req.destroy(err));
      request.body.pipe(req);
    } else req.end(request.body);
  });
}

/** A DNS lookup for the socket itself that fails when any address of the name is not public. */
function publicOnlyLookup(address: string): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err, '', 0);
      const bad = found.find((a) => nonPublicRange(a.address));
      if (bad)
        return callback(
          new UrlNotAllowed(address, `resolves to ${bad.address}, a ${nonPublicRange(bad.address)} address`),
          '',
          0,
        );
      if (options.all) return (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, found);
      callback(null, found[0]!.address, found[0]!.family);
    });
  };
}

/** Why no answer came, as a code (the contract's WebhookDeliveryAttempt.noAnswer). */
export type NoAnswerReason =
  | 'timeout'
  | 'host_unknown'
  | 'connection_refused'
  | 'connection_reset'
  | 'certificate_untrusted'
  | 'address_not_public'
  | 'other';

/** Why a request got no answer, from the error that ended it. */
export function noAnswerOf(err: unknown): NoAnswerReason {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (err instanceof NoAnswer) return 'timeout';
  if (err instanceof UrlNotAllowed) return 'address_not_public';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host_unknown';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET') return 'connection_reset';
  if (/CERT|SELF_SIGNED|TLS|SSL/i.test(code)) return 'certificate_untrusted';
  return 'other';
}

const FAILURE_SENTENCES: Partial<Record<NoAnswerReason, string>> = {
  timeout: `no answer within ${ANSWER_TIMEOUT_MS / 1000} seconds`,
  host_unknown: 'its host name does not resolve',
  connection_refused: 'the connection was refused',
  connection_reset: 'the connection was reset',
};

export function describeFailure(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const reason = noAnswerOf(err);
  if (reason === 'certificate_untrusted') return `its TLS certificate is not trusted (${e.code})`;
  return FAILURE_SENTENCES[reason] ?? (e.message || String(err));
}
