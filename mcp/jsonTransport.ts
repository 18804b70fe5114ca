// Streamable HTTP as Herald serves it: stateless, one POST in, one JSON answer out. The SDK's own transport
// also handles sessions, SSE streams and resumability, and converts every node request to a web Request and
// back; for this one mode that conversion cost more than the tool call. The rules of a POST are kept as the
// SDK's transport applies them (same statuses and JSON-RPC errors).
import type { Request, Response } from 'express';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

const MAX_BATCH = 100;

/** A refused exchange: the JSON-RPC error, with Herald's {code, message, hint} beside it for HTTP clients. */
export function rpcError(
  res: Response,
  status: number,
  code: number,
  message: string,
  herald = 'invalid_request',
  hint = 'Send one JSON-RPC message as a POST with Content-Type: application/json and Accept: application/json, ' +
    'text/event-stream.',
): void {
  res.status(status).json({ jsonrpc: '2.0', id: null, error: { code, message }, code: herald, message, hint });
}

/** The server's side of one HTTP exchange: it collects the answers to the request ids it was given. */
class ExchangeTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly answers: JSONRPCMessage[] = [];
  readonly answered: Promise<void>;
  private resolve!: () => void;

  constructor(private readonly waiting: Set<RequestId>) {
    this.answered = new Promise((resolve) => (this.resolve = resolve));
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    // Without a stream there is nowhere to put server-to-client requests or notifications: only answers go out.
    if (!('id' in message) || !('result' in message || 'error' in message)) return;
    this.answers.push(message);
    this.waiting.delete(message.id as RequestId);
    if (this.waiting.size === 0) this.resolve();
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

/** Answers one POST (its body already parsed as JSON) with the given server; nothing outlives the exchange. */
export async function answerExchange(server: Server, req: Request, res: Response): Promise<void> {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return rpcError(
      res,
      406,
      -32000,
      'Not Acceptable: Client must accept both application/json and text/event-stream',
      'not_acceptable',
    );
  }
  if (!req.is('application/json')) {
    return rpcError(
      res,
      415,
      -32000,
      'Unsupported Media Type: Content-Type must be application/json',
      'unsupported_media_type',
    );
  }
  const body: unknown = req.body;
  const batch = Array.isArray(body);
  const raw = batch ? body : [body];
  if (raw.length === 0 || raw.length > MAX_BATCH)
    return rpcError(res, 400, -32600, `Invalid Request: send 1 to ${MAX_BATCH} messages`);
  const messages: JSONRPCMessage[] = [];
  for (const item of raw) {
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) return rpcError(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
    messages.push(parsed.data);
  }
  const requests = messages.filter(isJSONRPCRequest);
  const initializing = requests.some((m) => m.method === 'initialize');
  const version = req.headers['mcp-protocol-version'];
  if (!initializing && typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return rpcError(
      res,
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${version} (supported versions: ` +
        `${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    );
  }
  const transport = new ExchangeTransport(new Set(requests.map((m) => m.id)));
  await server.connect(transport);
  const requestInfo = { headers: req.headers };
  for (const message of messages) transport.onmessage?.(message, { requestInfo });
  // Only notifications or responses: accepted, nothing to answer.
  if (requests.length === 0) return void res.status(202).end();
  await transport.answered;
  res.json(batch ? transport.answers : transport.answers[0]);
}
