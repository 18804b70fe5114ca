// Streamable HTTP as Herald serves it: stateless, one POST in, one JSON answer out. The SDK's own transport
// also handles sessions, SSE streams and resumability, and converts every node request to a web Request and
// back; for this one mode that conversion cost more than the tool call. The rules of a POST are kept as the
// SDK's transport applies them (same statuses and JSON-RPC errors).
import type { Request, Response } from 'express';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CancelledNotificationSchema,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { paramsRefusal } from './protocolParams.ts';

const MAX_BATCH = 100;

/**
 * JSON-RPC batches exist in one protocol version: 2025-03-26 added them, 2025-06-18 removed them. Herald negotiates
 * every version the SDK supports (2024-11-05 to 2025-11-25), and a stateless POST names its version only in
 * MCP-Protocol-Version; one without that header is read as 2025-03-26, as the spec says, so it may batch. Refusing
 * every batch would break that version's rule that a server MUST accept them; taking them from clients whose version
 * has none would accept what their protocol forbids. Each message of a batch counts against the address's rate
 * limit (mcp/http.ts), so a batch buys nothing a client could not get by sending its messages one by one.
 */
const BATCHING_VERSION = '2025-03-26';

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
    if (waiting.size === 0) this.resolve();
  }

  /** A request the client cancelled: the SDK sends no answer to it (the spec says SHOULD NOT); none is awaited. */
  forget(id: RequestId): void {
    if (this.waiting.delete(id) && this.waiting.size === 0) this.resolve();
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

/** The messages of one POST, read by the rules of Streamable HTTP and the version the client speaks. */
export interface Exchange {
  messages: JSONRPCMessage[];
  /** The answers to requests refused for their params (protocolParams.ts), which the server never sees. */
  refused: JSONRPCMessage[];
  batch: boolean;
}

/** Reads one POST (its body already parsed as JSON); a POST that breaks a rule is answered here, and undefined. */
export function readExchange(req: Request, res: Response): Exchange | undefined {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    rpcError(
      res,
      406,
      -32000,
      'Not Acceptable: Client must accept both application/json and text/event-stream',
      'not_acceptable',
    );
    return undefined;
  }
  if (!req.is('application/json')) {
    rpcError(
      res,
      415,
      -32000,
      'Unsupported Media Type: Content-Type must be application/json',
      'unsupported_media_type',
    );
    return undefined;
  }
  const body: unknown = req.body;
  const batch = Array.isArray(body);
  const raw = batch ? body : [body];
  if (raw.length === 0 || raw.length > MAX_BATCH) {
    rpcError(res, 400, -32600, `Invalid Request: send 1 to ${MAX_BATCH} messages`);
    return undefined;
  }
  const messages: JSONRPCMessage[] = [];
  const refused: JSONRPCMessage[] = [];
  for (const item of raw) {
    const refusal = paramsRefusal(item);
    if (refusal) {
      refused.push(refusal);
      continue;
    }
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) {
      rpcError(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
      return undefined;
    }
    messages.push(parsed.data);
  }
  const initializing = messages.some((m) => isJSONRPCRequest(m) && m.method === 'initialize');
  const version = req.headers['mcp-protocol-version'];
  if (!initializing && typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    rpcError(
      res,
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${version} (supported versions: ` +
        `${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    );
    return undefined;
  }
  const problem = batch ? batchProblem(typeof version === 'string' ? version : BATCHING_VERSION, initializing) : '';
  if (problem) {
    rpcError(res, 400, -32600, `Invalid Request: ${problem}`);
    return undefined;
  }
  return { messages, refused, batch };
}

function batchProblem(version: string, initializing: boolean): string {
  if (version !== BATCHING_VERSION)
    return `protocol version ${version} has no JSON-RPC batches; send each message in a POST of its own.`;
  // 2025-03-26: nothing may travel with initialize, which must be answered before anything else is sent.
  if (initializing) return 'initialize must not be part of a JSON-RPC batch.';
  return '';
}

/**
 * The requests a POST awaits answers to, and those a cancellation in the same batch withdraws. The SDK drops the
 * answer to a request it aborted, so awaiting it would hold the POST forever. Withdrawing a little more than the SDK
 * aborts (a cancellation sent before its request) is safe: an answer is then sent if it comes in time, and a
 * cancelled request needs none.
 */
function awaitedIds(messages: JSONRPCMessage[]): { waiting: Set<RequestId>; cancelled: RequestId[] } {
  const waiting = new Set<RequestId>(messages.filter(isJSONRPCRequest).map((m) => m.id));
  const cancelled: RequestId[] = [];
  for (const message of messages) {
    const cancel = CancelledNotificationSchema.safeParse(message);
    const id = cancel.success ? cancel.data.params.requestId : undefined;
    if (id !== undefined) cancelled.push(id);
  }
  return { waiting, cancelled };
}

/** Answers one read exchange with the given server; nothing outlives the exchange. */
export async function answerExchange(server: Server, exchange: Exchange, req: Request, res: Response): Promise<void> {
  const { waiting, cancelled } = awaitedIds(exchange.messages);
  const transport = new ExchangeTransport(waiting);
  await server.connect(transport);
  const requestInfo = { headers: req.headers };
  for (const message of exchange.messages) transport.onmessage?.(message, { requestInfo });
  for (const id of cancelled) transport.forget(id);
  await transport.answered;
  const answers = [...exchange.refused, ...transport.answers];
  // Only notifications or responses, or every request cancelled: accepted, nothing to answer (JSON-RPC sends no
  // empty array).
  if (answers.length === 0) return void res.status(202).end();
  res.json(exchange.batch ? answers : answers[0]);
}
