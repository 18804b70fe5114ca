// Connection-level rules of the HTTP server, below express: how long headers and requests may take, and
// what a connection that sends bytes no HTTP parser can read gets back.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Headers must arrive within this time; bodies have their own deadline (see requestFaults.ts). */
const HEADERS_TIMEOUT_MS = 20_000;
/**
 * A file of up to 4 GB arrives in one PUT: Node's default of five minutes per request would cut a slow link;
 * two hours allow about 0.6 MB/s. An upload slower than its minimum rate is cut much sooner (uploadRate.ts), and
 * every other route answers 408 within its body deadline (bodyDeadline).
 */
const UPLOAD_TIMEOUT_MS = 2 * 3600_000;

function rawAnswer(status: number, reason: string, code: string, message: string, hint: string): string {
  const body = JSON.stringify({ code, message, hint });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

function faultAnswer(err: NodeJS.ErrnoException): string {
  if (err.code === 'HPE_INVALID_EOF_STATE')
    return rawAnswer(
      400,
      'Bad Request',
      'invalid_request',
      'The request ended before all its bytes arrived: the client closed its side of the connection.',
      'Send the whole request before closing; an upload may be sent again to the same address until it expires.',
    );
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return rawAnswer(
      431,
      'Request Header Fields Too Large',
      'headers_too_large',
      'The request headers are too large.',
      'Send fewer or shorter headers (cookies included).',
    );
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return rawAnswer(
      408,
      'Request Timeout',
      'request_timeout',
      'The request did not arrive in time.',
      'Send the whole request at once.',
    );
  return rawAnswer(
    400,
    'Bad Request',
    'invalid_request',
    'The request is not valid HTTP/1.1.',
    'Send a well-formed HTTP request.',
  );
}

export function guardConnections(server: Server): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = UPLOAD_TIMEOUT_MS;
  const answering = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    answering.set(req.socket, { req, res });
    res.once('finish', () => {
      if (answering.get(req.socket)?.res === res) answering.delete(req.socket);
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = answering.get(socket);
    const pending = inFlight !== undefined && !inFlight.res.writableFinished;
    // Bytes after a request's exact body (an upload's, say) that are no request: the answer to that request is
    // still on its way and must arrive whole, or the client believes an upload failed that succeeded.
    if (pending && inFlight.req.complete) {
      if (!inFlight.res.headersSent) inFlight.res.setHeader('Connection', 'close');
      inFlight.res.once('finish', () => socket.destroySoon());
      return;
    }
    // Otherwise the request being read can never arrive whole (a body cut short by a half-close, a request past
    // its timeout): it is answered here unless its answer has begun, and closing the connection interrupts its
    // route (an upload keeps nothing), now rather than at a deadline.
    if (socket.writable && err.code !== 'ECONNRESET' && !(pending && inFlight.res.headersSent))
      socket.end(faultAnswer(err));
    socket.destroySoon();
  });
}
