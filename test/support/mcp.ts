// MCP test helpers: a Herald app on a real socket, and the SDK's own client connected to its /mcp.
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Config } from '../../runtime/config.ts';
import type { DbKind, HeraldOptions, TestEnv } from './harness.ts';
import { listeningHerald } from './network.ts';

/** Herald on a real socket whose PUBLIC_URL is its own address (OAuth metadata and links name it). */
export async function startListening(
  kind: DbKind,
  overrides: Partial<Config> = {},
  options: HeraldOptions = {},
): Promise<{ env: TestEnv; origin: string; close(): Promise<void> }> {
  const env = await listeningHerald(kind, overrides, options);
  return { env, origin: env.base, close: () => env.close() };
}

/** The SDK client over Streamable HTTP with a bearer token (API key or OAuth access token). */
export async function mcpClient(origin: string, bearer: string): Promise<Client> {
  const client = new Client({ name: 'herald-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
    }),
  );
  return client;
}

/** A raw JSON-RPC POST to /mcp, for what the SDK client would not send (node:http, so Host can be set). */
export function rpc(origin: string, bearer: string | undefined, body: unknown, headers: Record<string, string> = {}) {
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const req = http.request(
      `${origin}/mcp`,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'Content-Length': Buffer.byteLength(payload),
          ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
