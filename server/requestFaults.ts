// What a client can get wrong before any handler runs: a path with a broken percent escape, a JSON body
// that is too large, compressed in a way Herald does not take or does not match its Content-Encoding, or
// one that trickles in too slowly, or nested too deeply. Each becomes a clear 4xx {code, message, hint}, never a 500.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ApiError, invalidRequest } from '../domain/errors.ts';

/** The fields of the errors body-parser (http-errors) and the router raise for a client's fault. */
export interface ClientFault extends Error {
  type?: string;
  status?: number;
  length?: number;
  limit?: number;
  encoding?: string;
  charset?: string;
}

export const malformedPath = () =>
  invalidRequest(
    'The path holds a malformed percent escape (such as %zz, or a cut-off UTF-8 sequence).',
    'Percent-encode each byte of the path as %XX with two hex digits, using UTF-8.',
  );

/** Whether every percent escape of a path decodes (as a router will decode it). */
export function decodablePath(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** The 4xx for an error a body parser or router raised because of the request; undefined for a fault of ours. */
export function clientFaultError(
  err: ClientFault,
  maxBodyBytes: number,
  contentEncoding?: string,
): ApiError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return invalidRequest(`The request body is not valid JSON: ${err.message}.`, 'Send a JSON object.');
    case 'entity.too.large':
      return new ApiError(
        413,
        'payload_too_large',
        err.length === undefined
          ? `The request body decompresses to more than ${maxBodyBytes} bytes, the most this server accepts.`
          : `The request body is ${err.length} bytes; this server accepts at most ${maxBodyBytes} bytes.`,
        'Send a smaller body; files are not sent in JSON but uploaded through POST /media/uploads.',
      );
    case 'encoding.unsupported':
      return new ApiError(
        415,
        'unsupported_encoding',
        `The Content-Encoding "${err.encoding ?? ''}" is not accepted.`,
        'Send the body uncompressed, or compressed with gzip, deflate or br.',
      );
    case 'charset.unsupported':
      return new ApiError(
        415,
        'unsupported_encoding',
        `The charset "${err.charset ?? ''}" is not accepted.`,
        'Send UTF-8 JSON.',
      );
    case NESTED_TOO_DEEPLY:
      return invalidRequest(
        `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
        'Send the fields as the contract describes them; none is nested that deep.',
      );
    case 'request.aborted':
    case 'request.size.invalid':
      return invalidRequest('The request body ended before Content-Length bytes arrived.', 'Send the whole body.');
  }
  if (err instanceof URIError) return malformedPath();
  if (err.status === undefined || err.status < 400 || err.status >= 500) return undefined;
  // A compressed body its Content-Encoding does not describe, or any other fault body-parser pins on the client.
  const hint = 'Send a JSON body compressed as its Content-Encoding says, or uncompressed without that header.';
  if (contentEncoding && contentEncoding !== 'identity') {
    return invalidRequest(
      `The request body is not ${contentEncoding} data, as its Content-Encoding says (${err.message}).`,
      hint,
    );
  }
  return invalidRequest(`The request body could not be read: ${err.message}.`, hint);
}

/** The deepest JSON body taken: Herald's own bodies nest a few levels; walks over a body (fieldWithNul) recurse. */
export const MAX_JSON_DEPTH = 64;
const NESTED_TOO_DEEPLY = 'entity.too.deep';

/** Whether `value` nests objects or arrays more than `max` levels deep; a loop, so any depth is measured. */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const open: [unknown, number][] = [[value, 0]];
  for (let next = open.pop(); next; next = open.pop()) {
    const [item, depth] = next;
    if (!item || typeof item !== 'object') continue;
    if (depth === max) return true;
    for (const child of Object.values(item)) open.push([child, depth + 1]);
  }
  return false;
}

/**
 * express.json, refusing a body nested more than MAX_JSON_DEPTH levels: every JSON door (/v1, /auth, /oauth,
 * /mcp) parses with it, so nothing after it meets a body 10,000 levels deep.
 */
export function jsonBody(limit: number | string): RequestHandler {
  const parse = express.json({ limit });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (err || !nestedDeeperThan(req.body, MAX_JSON_DEPTH)) return next(err);
      next(Object.assign(new Error('nested too deeply'), { status: 400, type: NESTED_TOO_DEEPLY }));
    });
}

/**
 * The name of the first field (path, query or body) whose text holds a NUL character, which PostgreSQL cannot store.
 */
export function fieldWithNul(value: unknown, name = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? name || 'the value' : undefined;
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const found = fieldWithNul(key, name) ?? fieldWithNul(child, name ? `${name}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

export const nulRefused = (field: string) =>
  invalidRequest(
    `\`${field}\` holds a NUL character (\\u0000), which Herald does not store.`,
    'Remove the NUL characters and send the request again.',
  );

/**
 * Refuses a path, query or JSON body holding a NUL character (routes outside /v1; api.ts checks its own): the ids in
 * a path reach the queries as the router decodes them. A malformed escape is left for the router to refuse.
 */
export function refuseNul(render: (res: Response, err: ApiError) => void) {
  return (req: Request, res: Response, next: NextFunction) => {
    // jsonBody refused bodies deep enough to outrun the recursion.
    const path = decodablePath(req.path) ? decodeURIComponent(req.path) : '';
    const field = fieldWithNul(path, 'path') ?? fieldWithNul(req.query) ?? fieldWithNul(req.body);
    if (field) return render(res, nulRefused(field));
    next();
  };
}

/**
 * Refuses a request with more than one Host header (RFC 9112 §3.2 asks for a 400). Node keeps the first and drops
 * the rest, so a proxy that routes by another one and Herald would disagree about which site was asked.
 */
export function oneHost(render: (res: Response, err: ApiError) => void) {
  return (req: Request, res: Response, next: NextFunction) => {
    let hosts = 0;
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') hosts += 1;
    if (hosts <= 1) return next();
    render(res, invalidRequest(`The request carries ${hosts} Host headers; HTTP allows one.`, 'Send one Host header.'));
  };
}

/**
 * A request must arrive whole within `ms` (the upload PUT, which may carry gigabytes, excepted): a client
 * trickling a byte a second must not hold a connection. The answer is 408 and the connection is closed.
 */
/** Whether the request says a body follows its headers (a length or a transfer encoding). */
export function announcesBody(req: Request): boolean {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

export function bodyDeadline(ms: number, publicUrl: string, render: (res: Response, err: ApiError) => void) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'PUT' && req.path.startsWith('/uploads/')) return next();
    // Without a body the request arrived whole with its headers: no timer to set and clear.
    if (!announcesBody(req)) return next();
    const timer = setTimeout(() => {
      if (req.complete || res.headersSent) return;
      res.setHeader('Connection', 'close');
      render(
        res,
        new ApiError(
          408,
          'request_timeout',
          `The request did not arrive whole within ${ms / 1000} seconds.`,
          `Send the whole request at once; only file uploads (PUT ${publicUrl}/uploads/...) may take longer.`,
        ),
      );
    }, ms);
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
