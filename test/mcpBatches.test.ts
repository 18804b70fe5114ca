// JSON-RPC batches at /mcp: a request cancelled inside its own batch is not waited for (else the POST would stay
// open until the server's two-hour request timeout), batches are taken only from clients whose protocol version has
// them, and each message of a batch counts against the per-address limit as the POST it could have been.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, seedWorkspace, type Seeded, type TestEnv } from './support/harness.ts';
import { rpc, startListening } from './support/mcp.ts';

/** An answer within `ms`, or a failure naming what hung: a POST left open must fail fast, not at the test timeout. */
function within<T>(ms: number, answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([answer, deadline]).finally(() => clearTimeout(timer));
}

const request = (id: number, method: string, params?: object) => ({ jsonrpc: '2.0', id, method, params });
const cancel = (requestId: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });
const whoami = (id: number) => request(id, 'tools/call', { name: 'service_whoami', arguments: {} });

describe.each(DATABASES)('MCP batches on %s', (kind) => {
  let env: TestEnv;
  let origin: string;
  let stop: () => Promise<void>;
  let ws: Seeded;

  beforeAll(async () => {
    ({ env, origin, close: stop } = await startListening(kind));
    ws = await seedWorkspace(env);
  });
  afterAll(() => stop());

  describe('a request cancelled in its own batch', () => {
    it('answers 202 with no body when the cancellation leaves no request to answer', async () => {
      const res = await within(5000, rpc(origin, ws.readKey, [request(1, 'tools/list'), cancel(1)]));
      expect(res.status).toBe(202);
      expect(res.body).toBeUndefined();
    });

    it('answers the requests that remain', async () => {
      const batch = [request(1, 'tools/list'), whoami(2), cancel(1), request(3, 'ping')];
      const res = await within(5000, rpc(origin, ws.readKey, batch));
      expect(res.status).toBe(200);
      expect(res.body.map((m: { id: number }) => m.id).sort()).toEqual([2, 3]);
      expect(res.body.find((m: { id: number }) => m.id === 2).result.isError).toBeFalsy();
    });
  });

  describe('protocol versions', () => {
    it('takes a batch from a client of 2025-03-26, named or assumed without MCP-Protocol-Version', async () => {
      const batch = [request(1, 'tools/list'), request(2, 'ping')];
      for (const headers of [{}, { 'MCP-Protocol-Version': '2025-03-26' }] as Record<string, string>[]) {
        const res = await rpc(origin, ws.readKey, batch, headers);
        expect(res.status).toBe(200);
        expect(res.body.map((m: { id: number }) => m.id).sort()).toEqual([1, 2]);
      }
    });

    it('refuses a batch with JSON-RPC Invalid Request from versions without batches, running none of it', async () => {
      for (const version of ['2025-06-18', '2025-11-25', '2024-11-05']) {
        const res = await rpc(origin, ws.readKey, [whoami(1), request(2, 'ping')], {
          'MCP-Protocol-Version': version,
        });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: expect.stringContaining(`${version} has no JSON-RPC batches`) },
          code: 'invalid_request',
          hint: expect.any(String),
        });
      }
      // A single message under the same versions is answered as ever.
      const single = await rpc(origin, ws.readKey, request(1, 'ping'), { 'MCP-Protocol-Version': '2025-06-18' });
      expect(single.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it('refuses initialize inside a batch', async () => {
      const initialize = request(1, 'initialize', {
        protocolVersion: '2025-03-26',
        capabilities: {},
        clientInfo: { name: 'batcher', version: '1' },
      });
      const res = await rpc(origin, ws.readKey, [initialize, request(2, 'ping')]);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: -32600, message: expect.stringContaining('initialize') });
    });
  });
});

describe.each(DATABASES)('MCP batches under the per-address rate limit on %s', (kind) => {
  it('counts each message of a batch, and refuses a batch past the limit with a JSON-RPC error', async () => {
    const { env, origin, close } = await startListening(kind, { rateLimit: { max: 150, windowMs: 600_000 } });
    try {
      const ws = await seedWorkspace(env);
      const calls = (from: number) => Array.from({ length: 100 }, (_, i) => whoami(from + i));
      const first = await rpc(origin, ws.readKey, calls(0));
      expect(first.status).toBe(200);
      expect(first.body).toHaveLength(100);
      expect(first.headers['ratelimit-remaining']).toBe('50');

      // The shape: a second batch of 100 would pass the 150 this address may send.
      const second = await rpc(origin, ws.readKey, calls(100));
      expect(second.status).toBe(429);
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
      expect(second.body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.stringContaining('counts as 100 requests') },
        code: 'rate_limited',
        hint: expect.stringMatching(/^Wait \d+ seconds/),
      });
      // The refused batch counted too: the address is over its limit for single messages as well.
      expect((await rpc(origin, ws.readKey, request(1, 'ping'))).status).toBe(429);
    } finally {
      await close();
    }
  });
});
