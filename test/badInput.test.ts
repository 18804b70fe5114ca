// Bad input gets a clear 4xx {code, message, hint} and changes nothing: broken percent escapes, bodies
// that are too large or wrongly compressed, empty ids, leap seconds, unsafe filenames, slow bodies, and
// bytes after an upload's exact body. No case may answer 500 or end the process.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardConnections } from '../server/connections.ts';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { pathOf, reserve } from './support/mediaFiles.ts';
import { asPerson, signedIn } from './support/people.ts';

const MAX_BODY = 4096;

/** Every byte a connection answers until the server closes it. */
function exchange(port: number, ...parts: (string | Buffer)[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    for (const part of parts) socket.write(part);
  });
}

describe.each(DATABASES)('bad input on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let server: http.Server;
  let port: number;
  let account: string;

  beforeAll(async () => {
    env = await startHerald(kind, { maxBodyBytes: MAX_BODY, bodyTimeoutMs: 300, mediaSweepMs: 0 });
    ws = await seedWorkspace(env);
    account = await addAccount(env, ws.workspaceId, 'threads', 'Acme Threads');
    // A real socket with the connection rules of `herald serve`.
    server = http.createServer(env.app);
    guardConnections(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await env.close();
  });

  /** A POST of exact bytes over the real socket. */
  async function post(path: string, body: Buffer, headers: Record<string, string>) {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      body: new Uint8Array(body),
      headers: { 'Content-Type': 'application/json', ...headers },
    });
    return { status: res.status, body: await res.json() };
  }
  const groupCount = async () =>
    (await call(env, 'get', '/v1/groups', { key: ws.readKey })).body.groups.length as number;

  it('answers 400 invalid_request to malformed percent escapes in any path', async () => {
    const auth = { Authorization: `Bearer ${ws.readKey}` };
    for (const [method, path] of [
      ['get', '/v1/media/%zz'],
      ['get', '/v1/posts/%E0%A4%A'],
      ['put', '/uploads/%zz'],
      ['get', '/media-files/%zz'],
      ['get', '/auth/connect/%zz'],
    ] as const) {
      const res = await request(env.app)[method](path).set(auth);
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/percent escape/),
        hint: expect.any(String),
      });
    }
  });

  it('takes gzip; refuses a body its Content-Encoding misdescribes (400) and an unknown encoding (415)', async () => {
    const send = (body: Buffer, encoding: string) =>
      post('/v1/groups', body, { Authorization: `Bearer ${ws.writeKey}`, 'Content-Encoding': encoding });
    const json = Buffer.from(JSON.stringify({ name: 'Zipped', accountIds: [account] }));
    const before = await groupCount();
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await send(json, encoding);
      expect(res.status, encoding).toBe(400);
      expect(res.body).toMatchObject({
        code: 'invalid_request',
        message: expect.stringContaining(`not ${encoding} data`),
      });
    }
    const unknown = await send(json, 'zstd');
    expect(unknown.status).toBe(415);
    expect(unknown.body).toMatchObject({
      code: 'unsupported_encoding',
      message: expect.stringContaining('zstd'),
      hint: expect.any(String),
    });
    expect(await groupCount()).toBe(before);
    expect((await send(zlib.gzipSync(json), 'gzip')).status).toBe(201);
  });

  it('answers 413 payload_too_large to a body over MAX_BODY_BYTES, compressed or not, unauthenticated', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(10_000), accountIds: [account] });
    for (const [body, encoding, size] of [
      [Buffer.from(big), 'identity', `${big.length} bytes`],
      [zlib.gzipSync(big), 'gzip', `decompresses to more than ${MAX_BODY} bytes`],
    ] as const) {
      const res = await post('/v1/groups', body, { 'Content-Encoding': encoding });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({
        code: 'payload_too_large',
        message: expect.stringContaining(size),
        hint: expect.any(String),
      });
    }
  });

  it('answers 404 to an empty account id in a group, and changes nothing', async () => {
    const before = await groupCount();
    const created = await call(env, 'post', '/v1/groups', { key: ws.writeKey, body: { name: 'g', accountIds: [''] } });
    expect(created.status).toBe(404);
    const group = await call(env, 'post', '/v1/groups', {
      key: ws.writeKey,
      body: { name: 'Kept', accountIds: [account] },
    });
    const patched = await call(env, 'patch', `/v1/groups/${group.body.id}`, {
      key: ws.writeKey,
      body: { accountIds: [''] },
    });
    expect(patched.status).toBe(404);
    expect(await groupCount()).toBe(before + 1);
  });

  it('refuses text holding a NUL character, which PostgreSQL cannot store, anywhere', async () => {
    const before = await groupCount();
    const named = await call(env, 'post', '/v1/groups', {
      key: ws.writeKey,
      body: { name: 'a\u0000b', accountIds: [account] },
    });
    expect(named.status).toBe(400);
    expect(named.body.message).toMatch(/^`name` holds a NUL character/);
    expect(await groupCount()).toBe(before);
    expect((await call(env, 'get', '/v1/media/med_%00', { key: ws.readKey })).status).toBe(400);
    const signIn = await request(env.app).post('/auth/sign-in').send({ email: 'a\u0000@example.com', password: 'x' });
    expect(signIn.status).toBe(400);
    expect(signIn.body).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('`email`') });
  });

  it('refuses a NUL character in the ids of dashboard routes, in OAuth queries and inside list cursors', async () => {
    const owner = await signedIn(env, ws.userId, ws.workspaceId);
    for (const [method, path, body] of [
      ['delete', '/auth/keys/key_%00', undefined],
      ['patch', '/auth/members/usr_%00', { role: 'member' }],
      ['delete', '/auth/members/usr_%00', undefined],
      ['delete', '/auth/invites/inv_%00', undefined],
      ['get', '/auth/accounts/acc_%00/disconnect', undefined],
      ['post', '/auth/accounts/acc_%00/disconnect', { confirm: true }],
      ['delete', '/auth/mcp-grants/grt_%00', undefined],
    ] as const) {
      const res = await asPerson(env, owner, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body, path).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('NUL') });
    }
    const authorize = await request(env.app).get('/oauth/authorize?client_id=%00&response_type=code');
    expect(authorize.status).toBe(400);
    expect(authorize.body).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('client_id') });
    const consentSignIn = await request(env.app)
      .post('/oauth/sign-in')
      .type('form')
      .set('Accept', 'application/json')
      .send({ email: 'a@example.com', password: 'x', next: '/oauth/authorize?client_id=%00' });
    expect(consentSignIn.status).toBe(400);
    // Cursors are opaque text the client sends back: one that decodes to a NUL is not one of ours.
    const nulCursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const path of [
      `/v1/media?cursor=${nulCursor({ c: '2026-01-01T00:00:00.000Z', i: 'med_\u0000' })}`,
      `/v1/posts?cursor=${nulCursor(['2026-01-01T00:00:00.000Z', 'pst_\u0000'])}`,
      `/v1/posts?cursor=${nulCursor(['\u0000', 'pst_1'])}`,
    ]) {
      const res = await call(env, 'get', path, { key: ws.readKey });
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('cursor') });
    }
  });

  it('refuses a leap second (23:59:60), which passes the date-time format', async () => {
    const res = await call(env, 'get', '/v1/posts?from=2026-01-01T23:59:60Z', { key: ws.readKey });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('from'),
      field: 'from',
    });
  });

  it('refuses a posts range whose `to` is not later than its `from`, in whatever offsets', async () => {
    for (const [from, to] of [
      ['2026-03-01T00:00:00Z', '2026-02-01T00:00:00Z'],
      ['2026-03-01T00:00:00Z', '2026-03-01T01:00:00+01:00'],
    ]) {
      const res = await call(env, 'get', `/v1/posts?from=${encodeURIComponent(from!)}&to=${encodeURIComponent(to!)}`, {
        key: ws.readKey,
      });
      expect(res.status, to).toBe(400);
      expect(res.body).toMatchObject({
        code: 'invalid_request',
        message: '`to` (' + new Date(to!).toISOString() + ') must be later than `from` (2026-03-01T00:00:00.000Z).',
        field: 'to',
      });
    }
  });

  it('names the refused field and its bound as facts beside the message', async () => {
    const res = await call(env, 'post', '/v1/groups', {
      key: ws.writeKey,
      body: { name: 'x'.repeat(500), accountIds: [] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', field: 'name', limit: expect.any(Number) });
    expect(res.body.message).toContain('name');
  });

  it('keeps no control characters, bidi overrides or path parts in filenames', async () => {
    for (const [sent, kept] of [
      ['a\r\nX-Injected: 1.jpg', 'aX-Injected: 1.jpg'],
      ['../../x.jpg', 'x.jpg'],
      ['a\u0007b\u001b.jpg', 'ab.jpg'],
      ['C:\\photos\\\u202Egpj.exe', 'gpj.exe'],
      ['  holiday\t photo.jpg ', 'holiday photo.jpg'],
    ] as [string, string][]) {
      const res = await reserve(env, ws.writeKey, { filename: sent, mime: 'image/jpeg', size: 1000 });
      expect(res.status, sent).toBe(201);
      expect((await call(env, 'get', `/v1/media/${res.body.mediaId}`, { key: ws.readKey })).body.filename).toBe(kept);
    }
    for (const sent of ['..', '/', '\u202E', '../../x\u0000.jpg']) {
      const res = await reserve(env, ws.writeKey, { filename: sent, mime: 'image/jpeg', size: 1000 });
      expect(res.status, sent).toBe(400);
    }
  });

  it('refuses a request with two Host headers', async () => {
    const answer = await exchange(
      port,
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: other.example\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 'invalid_request',
      message: 'The request carries 2 Host headers; HTTP allows one.',
    });
    const one = await exchange(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(one).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers 408 to a body that trickles in, but lets an upload PUT take its time', async () => {
    const r = await reserve(env, ws.writeKey, { filename: 'slow.jpg', mime: 'image/jpeg', size: 10 });
    const upload = net.connect(port, '127.0.0.1');
    const uploaded: Buffer[] = [];
    upload.on('data', (c) => uploaded.push(c));
    upload.write(
      `PUT ${pathOf(r.body.uploadUrl)} HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: ` +
        `10\r\n\r\n12345`,
    );

    const answer = await exchange(
      port,
      `POST /v1/groups HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ws.writeKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name"',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 'request_timeout',
      hint: expect.any(String),
    });

    // The upload, started before that request and still unfinished after its deadline, completes.
    const done = new Promise((resolve) => upload.once('data', resolve));
    upload.write('67890');
    await done;
    upload.destroy();
    expect(Buffer.concat(uploaded).toString()).toMatch(/^HTTP\/1\.1 200 /);
    await env.services.media.whenIdle();
  });

  it('answers an upload whole when garbage follows its exact body on the connection', async () => {
    const bytes = Buffer.alloc(2000, 7);
    const r = await reserve(env, ws.writeKey, { filename: 'g.jpg', mime: 'image/jpeg', size: bytes.length });
    const answer = await exchange(
      port,
      `PUT ${pathOf(r.body.uploadUrl)} HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\n` +
        `Content-Length: ${bytes.length}\r\n\r\n`,
      bytes,
      '\u0000\u0001GARBAGE\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).not.toMatch(/HTTP\/1\.1 400/);
    expect(answer).toContain(`"mediaId":"${r.body.mediaId}"`);
    await env.services.media.whenIdle();
  });

  it('answers 400 in JSON to bytes that are not HTTP at all', async () => {
    const answer = await exchange(port, 'NOT HTTP\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'invalid_request' });
  });
});
