// An upload PUT may take up to two hours, so nothing but its pace bounds it: a client that half-closes before the
// body is whole, or trickles it, must not hold the connection. Served as `herald serve` serves it (guardConnections)
// on a real socket; each close is awaited with a deadline.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../runtime/config.ts';
import { guardConnections } from '../server/connections.ts';
import { call, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import { incomingFiles, pathOf, putBytes, reserve } from './support/mediaFiles.ts';
import { until } from './support/waiting.ts';

/** Resolves when the socket closes; fails after `ms`, naming what stayed open. */
function closedWithin(socket: net.Socket, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return resolve();
    const timer = setTimeout(() => reject(new Error(`the connection was still open after ${ms} ms`)), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Herald on a real socket behind the connection rules of `herald serve`; `requestTimeoutMs` shortens their two
 * hours for an upload (Node checks it every `connectionsCheckingInterval`).
 */
async function serveGuarded(kind: (typeof DATABASES)[number], overrides: Partial<Config>, requestTimeoutMs?: number) {
  const env = await startHerald(kind, { mediaSweepMs: 0, ...overrides });
  const server = http.createServer({ connectionsCheckingInterval: 100 }, env.app);
  guardConnections(server);
  // Node enforces a request timeout only when the headers' own is no longer.
  if (requestTimeoutMs) server.requestTimeout = server.headersTimeout = requestTimeoutMs;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const ws = await seedWorkspace(env);
  return {
    env,
    ws,
    port,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await env.close();
    },
  };
}

/** A PUT of `size` bytes opened by hand: the headers go out, the body is the caller's to send (or not). */
async function openPut(port: number, uploadUrl: string, size: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined);
  socket.write(
    `PUT ${pathOf(uploadUrl)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n` +
      `Content-Length: ${size}\r\n\r\n`,
  );
  return {
    socket,
    /** The status and JSON body received before the connection closed. */
    answer() {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      return { status: Number(head.split(' ')[1]), body: body ? JSON.parse(body) : undefined };
    },
  };
}

const reserveBytes = async (env: TestEnv, ws: Seeded, size: number) => {
  const res = await reserve(env, ws.writeKey, { filename: 'slow.jpg', mime: 'image/jpeg', size });
  expect(res.status).toBe(201);
  return res.body as { mediaId: string; uploadUrl: string };
};

/** Nothing of the cut upload is kept, and its address takes the whole file afterwards. */
async function nothingKept(env: TestEnv, ws: Seeded, reserved: { mediaId: string; uploadUrl: string }, size: number) {
  await until(() => incomingFiles(env).length === 0);
  const media = await call(env, 'get', `/v1/media/${reserved.mediaId}`, { key: ws.readKey });
  expect(media.body.status).toBe('uploading');
  expect((await putBytes(env, reserved.uploadUrl, Buffer.alloc(size, 7), 'image/jpeg')).status).toBe(200);
}

describe.each(DATABASES)('an upload PUT held open by its client on %s', (kind) => {
  let served: Awaited<ReturnType<typeof serveGuarded>>;
  // The default minimum rate (a minute's window), which cannot end these connections within the test.
  beforeAll(async () => {
    served = await serveGuarded(kind, {}, 1500);
  });
  afterAll(() => served.close());

  it('answers 400 at once and closes, keeping nothing', async () => {
    const { env, ws, port } = served;
    const reserved = await reserveBytes(env, ws, 5000);
    const put = await openPut(port, reserved.uploadUrl, 5000);
    put.socket.write(Buffer.alloc(1000, 1));
    await until(() => incomingFiles(env).length > 0);
    put.socket.end();
    await closedWithin(put.socket, 5000);
    expect(put.answer()).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', message: expect.stringContaining('closed its side'), hint: expect.any(String) },
    });
    await nothingKept(env, ws, reserved, 5000);
  });

  it('answers 408 request_timeout and closes once the request timeout passes, keeping nothing', async () => {
    const { env, ws, port } = served;
    const reserved = await reserveBytes(env, ws, 5000);
    const put = await openPut(port, reserved.uploadUrl, 5000);
    put.socket.write(Buffer.alloc(1000, 1));
    await closedWithin(put.socket, 5000);
    expect(put.answer()).toMatchObject({ status: 408, body: { code: 'request_timeout' } });
    await nothingKept(env, ws, reserved, 5000);
  });
});

describe.each(DATABASES)('an upload PUT under the minimum rate on %s', (kind) => {
  let served: Awaited<ReturnType<typeof serveGuarded>>;
  // A tenth of a second's window instead of a minute's, so the test runs fast; the rule is the same.
  const rate = { bytes: 1000, windowMs: 300 };
  beforeAll(async () => {
    served = await serveGuarded(kind, { uploadMinRate: rate });
  });
  afterAll(() => served.close());

  it('closes an upload sent a byte at a time with 408 upload_too_slow, keeping nothing', async () => {
    const { env, ws, port } = served;
    const reserved = await reserveBytes(env, ws, 100_000);
    const put = await openPut(port, reserved.uploadUrl, 100_000);
    const trickle = setInterval(() => put.socket.writable && put.socket.write(Buffer.alloc(1, 1)), 50);
    try {
      await closedWithin(put.socket, 5000);
    } finally {
      clearInterval(trickle);
    }
    expect(put.answer()).toMatchObject({
      status: 408,
      body: { code: 'upload_too_slow', message: expect.stringContaining('1000 bytes'), hint: expect.any(String) },
    });
    await nothingKept(env, ws, reserved, 100_000);
  });

  it('keeps an upload that holds the pace over several windows', async () => {
    const { env, ws, port } = served;
    const size = 48_000;
    const reserved = await reserveBytes(env, ws, size);
    const put = await openPut(port, reserved.uploadUrl, size);
    // 2,000 bytes every 50 ms: twelve times the minimum, for about five windows.
    for (let sent = 0; sent < size; sent += 2000) {
      put.socket.write(Buffer.alloc(2000, 2));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await until(() => put.answer().status > 0);
    expect(put.answer()).toMatchObject({ status: 200, body: { mediaId: reserved.mediaId, status: 'processing' } });
    put.socket.destroy();
  });
});
