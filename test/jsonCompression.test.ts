// JSON answers of at least COMPRESS_FROM bytes go compressed to a client that accepts brotli or gzip, plain to one
// that does not, and small answers always plain; the dashboard's event stream is never compressed and delivers an
// event as it happens. Raw bytes over a real socket: node's http client decompresses nothing.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents } from '../db/events.ts';
import type { EventStreams } from '../server/eventStream.ts';
import { COMPRESS_FROM } from '../server/sendJson.ts';
import { addAccount, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import { postingCalls } from './support/network.ts';
import { addPerson, type Person } from './support/people.ts';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

describe('compressed JSON answers', () => {
  let env: TestEnv;
  let ws: Seeded;
  let person: Person;
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    env = await startHerald('sqlite');
    ws = await seedWorkspace(env, { plan: 'agency' });
    person = await addPerson(env, ws.workspaceId, 'member');
    const accountId = await addAccount(env, ws.workspaceId, 'threads', 'Threads');
    const calls = postingCalls(env, ws);
    for (let i = 1; i <= 25; i++) await calls.postLater(accountId, `Post ${i}: ${'a launch note, '.repeat(25)}`, i);
    server = http.createServer(env.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    (env.app.locals.eventStreams as EventStreams).endAll();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await env.close();
  });

  const get = (path: string, headers: Record<string, string>) =>
    new Promise<Raw>((resolve, reject) => {
      http
        .get(`${base}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  const key = () => ({ Authorization: `Bearer ${ws.readKey}` });

  it('sends a large list in brotli or gzip when asked, plain when not, with Vary and the sent length', async () => {
    const plain = await get('/v1/posts', key());
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThanOrEqual(COMPRESS_FROM);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(plain.body.toString()).posts).toHaveLength(25);

    const br = await get('/v1/posts', { ...key(), 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);

    const gzip = await get('/v1/posts', { ...key(), 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(Number(gzip.headers['content-length'])).toBe(gzip.body.length);
    expect(zlib.gunzipSync(gzip.body).equals(plain.body)).toBe(true);

    const refused = await get('/v1/posts', { ...key(), 'Accept-Encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(plain.body)).toBe(true);
  });

  it('sends a small answer plain, whatever the client accepts', async () => {
    const small = await get('/v1/whoami', { ...key(), 'Accept-Encoding': 'gzip, br' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(COMPRESS_FROM);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(Number(small.headers['content-length'])).toBe(small.body.length);
    expect(JSON.parse(small.body.toString()).workspace.id).toBe(ws.workspaceId);
  });

  it('keeps the event stream uncompressed, delivering an event as it happens', async () => {
    const streams = env.app.locals.eventStreams as EventStreams;
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(`${base}/auth/events`, { headers: { Cookie: person.cookie, 'Accept-Encoding': 'gzip, br' } }, resolve)
        .on('error', reject);
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['content-encoding']).toBeUndefined();
    let text = '';
    res.setEncoding('utf8');
    const frame = new Promise<void>((resolve) =>
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('med_compress')) resolve();
      }),
    );
    await streams.tail.poll();
    await recordEvents(
      env.services.db,
      [{ workspaceId: ws.workspaceId, type: 'media.ready', objectId: 'med_compress' }],
      new Date().toISOString(),
    );
    await streams.tail.poll();
    await frame;
    expect(text).toContain('"objectId":"med_compress"');
    res.destroy();
  });
});
