// What an operation answers, whatever the interface: REST sends it as HTTP, MCP makes it a tool result, and an
// idempotency key stores it to replay.
import type { Response } from 'express';

export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Writes an answer: the JSON text straight to the socket, without express's content negotiation of res.json. */
export function send(res: Response, out: ApiResponse): void {
  res.statusCode = out.status;
  for (const [name, value] of Object.entries(out.headers ?? {})) res.setHeader(name, value);
  if (out.body === undefined) {
    res.end();
    return;
  }
  const text = JSON.stringify(out.body);
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
