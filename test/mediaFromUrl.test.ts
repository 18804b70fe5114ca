// POST /media/from-url against a real local https server (a certificate made by the test), reached
// only through the explicit allow-list; every refusal on both databases, creating nothing.
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import * as selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../runtime/config.ts';
import { call, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import { makeImage, processed, reserve, tempDir } from './support/mediaFiles.ts';

const GiB = 1024 ** 3;

/** A small https file server with the answers the tests need. */
async function startFileServer(photo: Buffer) {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    notAfterDate: new Date(Date.now() + 86_400_000),
  });
  const sockets = new Set<Duplex>();
  let base = '';
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const send = (status: number, headers: Record<string, string | number>, body?: Buffer | string) => {
      res.writeHead(status, headers);
      res.end(body);
    };
    switch (req.url) {
      case '/photos/autumn%20sale.jpg':
        return send(200, { 'content-type': 'image/jpeg', 'content-length': photo.length }, photo);
      case '/chunked.jpg':
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.write(photo.subarray(0, 1000));
        return res.end(photo.subarray(1000));
      case '/redirect':
        return send(302, { location: '/photos/autumn%20sale.jpg' });
      case '/loop':
        return send(302, { location: '/loop' });
      case '/to-loopback':
        return send(302, { location: base.replace('localhost', '127.0.0.1') + '/photos/autumn%20sale.jpg' });
      case '/to-http':
        return send(301, { location: base.replace('https:', 'http:') + '/photos/autumn%20sale.jpg' });
      case '/text.png':
        return send(200, { 'content-type': 'image/png' }, 'plain text pretending to be a picture\n'.repeat(10));
      case '/empty':
        return send(200, { 'content-type': 'image/jpeg', 'content-length': 0 });
      case '/huge':
        // Headers of a 3 GiB file; the body never comes (the client must decide on the headers).
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 3 * GiB });
        return res.flushHeaders();
      case '/cut':
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length });
        res.write(photo.subarray(0, 500));
        return setImmediate(() => res.socket?.destroy());
      default:
        return send(404, { 'content-type': 'text/plain' }, 'not here');
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://localhost:${(server.address() as AddressInfo).port}`;
  return {
    base,
    ca: pems.cert,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('FROM_URL_ALLOW_HOSTS', () => {
  it('is off by default: no host is exempt from the public-address rule', () => {
    expect(loadConfig({}).fromUrl.allowHosts).toEqual([]);
    expect(loadConfig({ FROM_URL_ALLOW_HOSTS: ' LocalHost, 127.0.0.1 ' }).fromUrl.allowHosts).toEqual([
      'localhost',
      '127.0.0.1',
    ]);
  });
});

describe.each(DATABASES)('POST /media/from-url on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let photo: Buffer;
  const dir = tempDir();

  beforeAll(async () => {
    photo = fs.readFileSync(await makeImage(dir, 'jpeg', 1080, 1350));
    files = await startFileServer(photo);
    env = await startHerald(kind, {
      mediaSweepMs: 0,
      fromUrl: { allowHosts: ['localhost'], extraCaPem: files.ca, timeoutMs: 60_000 },
    });
    ws = await seedWorkspace(env, { plan: 'creator' });
  });
  afterAll(async () => {
    await env.close();
    await files.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const fromUrl = (url: string, extra: Record<string, unknown> = {}, key = ws.writeKey) =>
    call(env, 'post', '/v1/media/from-url', { key, body: { url, ...extra } });
  const count = async (key = ws.readKey) =>
    (await call(env, 'get', '/v1/media?limit=100', { key })).body.media.length as number;

  it('downloads a file: 202 with a mediaId, then ready with the name from the address', async () => {
    const res = await fromUrl(`${files.base}/photos/autumn%20sale.jpg`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ mediaId: expect.stringMatching(/^med_/), status: 'uploading' });
    const media = await processed(env, ws.readKey, res.body.mediaId);
    expect(media).toMatchObject({
      status: 'ready',
      filename: 'autumn sale.jpg',
      mime: 'image/jpeg',
      size: photo.length,
      width: 1080,
      height: 1350,
    });
  });

  it('follows redirects, takes a given filename and folder, and reads a body without Content-Length', async () => {
    const folder = (await call(env, 'post', '/v1/folders', { key: ws.writeKey, body: { name: 'Imported' } })).body.id;
    const redirected = await fromUrl(`${files.base}/redirect`, { filename: 'campaign.jpg', folderId: folder });
    expect(redirected.status).toBe(202);
    expect(await processed(env, ws.readKey, redirected.body.mediaId)).toMatchObject({
      status: 'ready',
      filename: 'campaign.jpg',
      folderId: folder,
    });
    const chunked = await fromUrl(`${files.base}/chunked.jpg`);
    expect(await processed(env, ws.readKey, chunked.body.mediaId)).toMatchObject({
      status: 'ready',
      size: photo.length,
    });
    const used = (await call(env, 'get', '/v1/whoami', { key: ws.readKey })).body.usage.storage.usedBytes;
    expect(used).toBe(3 * photo.length);
  });

  it('refuses every scheme but https with 400 url_not_allowed, creating nothing', async () => {
    const before = await count();
    for (const url of [
      `${files.base.replace('https:', 'http:')}/photos/autumn%20sale.jpg`,
      'file:///etc/passwd',
      'ftp://localhost/a.jpg',
      'data:image/jpeg;base64,AAAA',
      'gopher://localhost:70/1',
      'ws://localhost/a',
    ]) {
      const res = await fromUrl(url);
      expect(res.status, url).toBe(400);
      expect(res.body).toMatchObject({
        code: 'url_not_allowed',
        message: expect.stringContaining(url),
        hint: expect.stringContaining('public https'),
      });
    }
    expect(await count()).toBe(before);
  });

  it('refuses private, internal and special addresses in every notation, before connecting', async () => {
    const before = await count();
    const cases: [string, RegExp][] = [
      ['https://127.0.0.1/a.jpg', /loopback/],
      ['https://2130706433/a.jpg', /127\.0\.0\.1, a loopback/],
      ['https://0x7f000001/a.jpg', /loopback/],
      ['https://0177.0.0.1/a.jpg', /loopback/],
      ['https://127.1/a.jpg', /loopback/],
      ['https://[::1]/a.jpg', /loopback/],
      ['https://[::ffff:127.0.0.1]/a.jpg', /loopback \(IPv4 inside IPv6\)/],
      ['https://[::ffff:a00:1]/a.jpg', /private \(IPv4 inside IPv6\)/],
      ['https://10.0.0.8/a.jpg', /private/],
      ['https://172.16.5.4/a.jpg', /private/],
      ['https://192.168.1.20/a.jpg', /private/],
      ['https://169.254.169.254/latest/meta-data/', /cloud metadata/],
      ['https://169.254.10.10/a.jpg', /link-local/],
      ['https://[fe80::1]/a.jpg', /link-local/],
      ['https://[fd00:ec2::254]/a.jpg', /cloud metadata/],
      ['https://[fc00::5]/a.jpg', /unique-local/],
      ['https://100.64.1.1/a.jpg', /CGNAT/],
      ['https://100.100.100.200/a.jpg', /cloud metadata/],
      ['https://224.0.0.1/a.jpg', /multicast/],
      ['https://[ff02::1]/a.jpg', /multicast/],
      ['https://255.255.255.255/a.jpg', /broadcast/],
      ['https://0.0.0.0/a.jpg', /unspecified/],
      ['https://[::]/a.jpg', /unspecified/],
    ];
    for (const [url, why] of cases) {
      const res = await fromUrl(url);
      expect(res.status, url).toBe(400);
      expect(res.body.code, url).toBe('url_not_allowed');
      expect(res.body.message, url).toMatch(why);
    }
    expect(await count()).toBe(before);
  });

  it('checks every redirect again: to an address not allowed, or to http, is refused and creates nothing', async () => {
    const before = await count();
    const loopback = await fromUrl(`${files.base}/to-loopback`);
    expect(loopback.status).toBe(400);
    expect(loopback.body).toMatchObject({
      code: 'url_not_allowed',
      message: expect.stringMatching(
        /points at 127\.0\.0\.1, a loopback address \(redirected to https:\/\/127\.0\.0\.1:/,
      ),
    });
    const http = await fromUrl(`${files.base}/to-http`);
    expect(http.body).toMatchObject({
      code: 'url_not_allowed',
      message: expect.stringMatching(/uses http \(redirected to http:/),
    });
    expect(await count()).toBe(before);
  });

  it('answers 400 url_fetch_failed when the address cannot be fetched, creating nothing', async () => {
    const before = await count();
    const cases: [string, RegExp][] = [
      [`${files.base}/missing.jpg`, /answered 404/],
      [`${files.base}/loop`, /redirected more than 5 times/],
      [`${files.base}/empty`, /empty file/],
    ];
    for (const [url, why] of cases) {
      const res = await fromUrl(url);
      expect(res.status, url).toBe(400);
      expect(res.body).toMatchObject({
        code: 'url_fetch_failed',
        message: expect.stringMatching(why),
        hint: expect.any(String),
      });
    }
    expect(await count()).toBe(before);
  });

  it('answers 402 quota_exceeded when Content-Length is over the per-file limit, creating nothing', async () => {
    const before = await count();
    const res = await fromUrl(`${files.base}/huge`);
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'quota_exceeded', limit: 2 * GiB, used: 3 * GiB });
    expect(await count()).toBe(before);
  });

  it('fails the file, saying why, for bytes that are no image, a cut download, or outgrowing its space', async () => {
    const text = await fromUrl(`${files.base}/text.png`);
    expect(await processed(env, ws.readKey, text.body.mediaId)).toMatchObject({
      status: 'failed',
      failReason: expect.stringMatching(/not an image or video/),
    });

    const cut = await fromUrl(`${files.base}/cut`);
    expect(cut.status).toBe(202);
    expect(await processed(env, ws.readKey, cut.body.mediaId)).toMatchObject({
      status: 'failed',
      failReason: expect.stringMatching(/^The download from localhost:\d+ stopped/),
    });

    // A nearly full workspace: 1000 bytes of storage left, and the server sends no Content-Length.
    const full = await seedWorkspace(env, { plan: 'creator' });
    for (let i = 0; i < 7; i++)
      await reserve(env, full.writeKey, { filename: `f${i}.mp4`, mime: 'video/mp4', size: 2 * GiB });
    await reserve(env, full.writeKey, { filename: 'rest.mp4', mime: 'video/mp4', size: GiB - 1000 });
    const big = await fromUrl(`${files.base}/chunked.jpg`, {}, full.writeKey);
    expect(big.status).toBe(202);
    expect(await processed(env, full.readKey, big.body.mediaId)).toMatchObject({
      status: 'failed',
      failReason: expect.stringMatching(/larger than 1000 bytes/),
    });
    expect((await call(env, 'get', '/v1/whoami', { key: full.readKey })).body.usage.storage.usedBytes).toBe(0);
  });

  it('answers 400 for a missing or malformed url and 404 for an unknown folder', async () => {
    expect((await call(env, 'post', '/v1/media/from-url', { key: ws.writeKey, body: {} })).body).toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/`url` is required/),
    });
    expect((await fromUrl('not an address')).body.code).toBe('invalid_request');
    expect((await fromUrl(`${files.base}/photos/autumn%20sale.jpg`, { folderId: 'fld_missing000000000' })).status).toBe(
      404,
    );
  });
});

describe.each(DATABASES)('POST /media/from-url without the test settings on %s', (kind) => {
  let defaults: TestEnv;
  let untrusting: TestEnv;
  let files: Awaited<ReturnType<typeof startFileServer>>;

  beforeAll(async () => {
    files = await startFileServer(Buffer.from('x'));
    defaults = await startHerald(kind, { mediaSweepMs: 0 });
    // The host is allowed, but its certificate authority is not trusted.
    untrusting = await startHerald(kind, {
      mediaSweepMs: 0,
      fromUrl: { allowHosts: ['localhost'], extraCaPem: undefined, timeoutMs: 60_000 },
    });
  });
  afterAll(async () => {
    await defaults.close();
    await untrusting.close();
    await files.close();
  });

  const fromUrl = async (env: TestEnv) => {
    const ws = await seedWorkspace(env, { plan: 'creator' });
    const res = await call(env, 'post', '/v1/media/from-url', {
      key: ws.writeKey,
      body: { url: `${files.base}/photos/autumn%20sale.jpg` },
    });
    expect((await call(env, 'get', '/v1/media', { key: ws.readKey })).body.media).toEqual([]);
    return res;
  };

  it('refuses a host name that resolves to a loopback address, at the connection, creating nothing', async () => {
    const res = await fromUrl(defaults);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'url_not_allowed',
      message: expect.stringMatching(/resolves to (127\.0\.0\.1|::1), a loopback address/),
    });
  });

  it('answers 400 url_fetch_failed naming an untrusted certificate, creating nothing', async () => {
    const res = await fromUrl(untrusting);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'url_fetch_failed',
      message: expect.stringMatching(/certificate is not trusted/),
    });
  });
});
