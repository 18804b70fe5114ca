// Reservations and the signed PUT, through HTTP on both databases, with real files; and a full disk.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeSpaceChecks } from '../cli/doctor.ts';
import { SQLITE_FILE } from '../db/connect.ts';
import { PLANS } from '../domain/plans.ts';
import { uploadAddress, uploadExpiry } from '../media/uploadAddress.ts';
import { Keyring } from '../runtime/crypto.ts';
import { DiskStorage } from '../storage/disk.ts';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import {
  incomingFiles,
  makeImage,
  pathOf,
  processed,
  putBytes,
  reserve,
  storedFiles,
  tempDir,
} from './support/mediaFiles.ts';
import { until } from './support/waiting.ts';

const GiB = 1024 ** 3;

describe.each(DATABASES)('uploads on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let jpeg: Buffer;
  const dir = tempDir();

  beforeAll(async () => {
    env = await startHerald(kind, { mediaSweepMs: 0 });
    ws = await seedWorkspace(env, { plan: 'creator' });
    jpeg = fs.readFileSync(await makeImage(dir, 'jpeg', 1080, 1350));
  });
  afterAll(async () => {
    await env.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const usedBytes = async (key = ws.readKey) =>
    (await call(env, 'get', '/v1/whoami', { key })).body.usage.storage.usedBytes as number;
  const reserveJpeg = async (extra: Record<string, unknown> = {}) => {
    const res = await reserve(env, ws.writeKey, {
      filename: 'autumn.jpg',
      mime: 'image/jpeg',
      size: jpeg.length,
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body as { mediaId: string; uploadUrl: string; expiresAt: string };
  };

  describe('POST /media/uploads', () => {
    it('reserves a file: a final mediaId, a signed address outside /v1 valid one hour, status uploading', async () => {
      const asked = Date.now();
      const r = await reserveJpeg();
      expect(r.mediaId).toMatch(/^med_\w{16}$/);
      expect(r.uploadUrl.startsWith(`${env.config.publicUrl}/uploads/`)).toBe(true);
      const answered = Date.now();
      // The expiry is rounded up to the whole second after the server's clock read, somewhere in [asked, answered].
      const expiresAt = Date.parse(r.expiresAt);
      expect(expiresAt).toBeGreaterThanOrEqual(asked + 3600_000);
      expect(expiresAt).toBeLessThanOrEqual(Math.ceil(answered / 1000) * 1000 + 3600_000);
      const media = await call(env, 'get', `/v1/media/${r.mediaId}`, { key: ws.readKey });
      expect(media.body).toMatchObject({
        id: r.mediaId,
        status: 'uploading',
        kind: 'image',
        filename: 'autumn.jpg',
        mime: 'image/jpeg',
        size: jpeg.length,
        pinned: false,
        thumbnailUrl: null,
        bytesDeletedAt: null,
      });
      expect(media.body.failReason).toBeUndefined();
    });

    it('counts nothing as stored until the bytes arrive', async () => {
      const before = await usedBytes();
      await reserveJpeg();
      expect(await usedBytes()).toBe(before);
    });

    it('reads the mime without case or parameters, and keeps only the file name of a path', async () => {
      const r = await reserve(env, ws.writeKey, {
        filename: 'C:\\Users\\ann\\Pictures\\sale.JPG',
        mime: 'Image/JPEG; charset=binary',
        size: 10,
      });
      expect(r.status).toBe(201);
      const media = await call(env, 'get', `/v1/media/${r.body.mediaId}`, { key: ws.readKey });
      expect(media.body).toMatchObject({ mime: 'image/jpeg', filename: 'sale.JPG' });
    });

    it('answers 400 for a type no network accepts, and creates nothing', async () => {
      const before = (await call(env, 'get', '/v1/media?limit=100', { key: ws.readKey })).body.media.length;
      for (const mime of [
        'application/pdf',
        'text/plain',
        'image/svg+xml',
        'audio/mpeg',
        'video/x-msvideo',
        'image/bmp',
      ]) {
        const res = await reserve(env, ws.writeKey, { filename: 'x', mime, size: 100 });
        expect(res.status, mime).toBe(400);
        expect(res.body).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(mime) });
        expect(res.body.hint).toContain('image/jpeg');
      }
      expect((await call(env, 'get', '/v1/media?limit=100', { key: ws.readKey })).body.media.length).toBe(before);
    });

    it('answers 400 naming the field for malformed reservations', async () => {
      const cases: [unknown, RegExp][] = [
        [{ mime: 'image/jpeg', size: 10 }, /`filename` is required/],
        [{ filename: 'a.jpg', mime: 'image/jpeg', size: 0 }, /`size`/],
        [{ filename: 'a.jpg', mime: 'image/jpeg', size: 1.5 }, /`size`/],
        [{ filename: 'a.jpg', mime: 'image/jpeg', size: '10' }, /`size`/],
        [{ filename: 'a.jpg', mime: 'image/jpeg', size: 10, extra: true }, /`extra` is not a known field/],
        [{ filename: '   ', mime: 'image/jpeg', size: 10 }, /`filename`/],
        [{ filename: 'a/', mime: 'image/jpeg', size: 10 }, /`filename`/],
      ];
      for (const [body, message] of cases) {
        const res = await call(env, 'post', '/v1/media/uploads', { key: ws.writeKey, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toMatch(message);
      }
    });

    it('answers 404 for a folder that is not in the workspace', async () => {
      const other = await seedWorkspace(env);
      const theirRoot = (await call(env, 'get', '/v1/folders', { key: other.readKey })).body.folders[0].id;
      for (const folderId of ['fld_missing000000000', theirRoot]) {
        const res = await reserve(env, ws.writeKey, { filename: 'a.jpg', mime: 'image/jpeg', size: 10, folderId });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
    });

    it('refuses a file over the per-file limit with 402 quota_exceeded, limit and used', async () => {
      const size = PLANS.creator.maxFileBytes + 1;
      const res = await reserve(env, ws.writeKey, { filename: 'long.mp4', mime: 'video/mp4', size });
      expect(res.status).toBe(402);
      expect(res.body).toMatchObject({
        code: 'quota_exceeded',
        limit: PLANS.creator.maxFileBytes,
        used: size,
        quota: 'maxFileBytes',
        field: 'size',
        upgradeUrl: `${env.config.publicUrl}/app/settings/billing`,
      });
      expect(res.body.hint).toMatch(/Studio/);
    });

    it('counts reservations in progress toward storage, so parallel reservations cannot pass the limit', async () => {
      const full = await seedWorkspace(env, { plan: 'creator' });
      // 15 GiB of storage and 2 GiB per file: 7 fit, the 8th would pass.
      const attempts = await Promise.all(
        Array.from({ length: 9 }, (_, i) =>
          reserve(env, full.writeKey, { filename: `part-${i}.mp4`, mime: 'video/mp4', size: 2 * GiB }),
        ),
      );
      expect(attempts.filter((r) => r.status === 201)).toHaveLength(7);
      const refused = attempts.filter((r) => r.status === 402);
      expect(refused).toHaveLength(2);
      expect(refused[0]!.body).toMatchObject({ code: 'quota_exceeded', limit: 15 * GiB, used: 14 * GiB });
      expect(await usedBytes(full.readKey)).toBe(0);

      // Once the addresses expired unused, the reservations fail and hold nothing.
      const sweep = await env.services.media.sweep(new Date(Date.now() + 3601_000));
      expect(sweep.expired).toBeGreaterThanOrEqual(7);
      const listed = (await call(env, 'get', '/v1/media', { key: full.readKey })).body.media;
      expect(listed).toHaveLength(7);
      for (const m of listed) {
        expect(m).toMatchObject({ status: 'failed', failReason: expect.stringMatching(/upload address expired/) });
      }
      expect(
        (await reserve(env, full.writeKey, { filename: 'again.mp4', mime: 'video/mp4', size: 2 * GiB })).status,
      ).toBe(201);
    });
  });

  describe('PUT <uploadUrl>', () => {
    it('stores the bytes without Authorization, answers 200, and the file counts once stored', async () => {
      const before = await usedBytes();
      const r = await reserveJpeg();
      const put = await putBytes(env, r.uploadUrl, jpeg, 'image/jpeg');
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ mediaId: r.mediaId, status: 'processing' });
      expect(await usedBytes()).toBe(before + jpeg.length);
      expect((await processed(env, ws.readKey, r.mediaId)).status).toBe('ready');
    });

    it('answers size_mismatch when Content-Length is not the reserved size, and keeps the address usable', async () => {
      const r = await reserveJpeg();
      for (const body of [jpeg.subarray(0, jpeg.length - 1), Buffer.concat([jpeg, Buffer.from('x')])]) {
        const res = await putBytes(env, r.uploadUrl, body, 'image/jpeg');
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          code: 'size_mismatch',
          message: expect.stringContaining(String(jpeg.length)),
          hint: expect.any(String),
        });
      }
      expect((await call(env, 'get', `/v1/media/${r.mediaId}`, { key: ws.readKey })).body.status).toBe('uploading');
      expect((await putBytes(env, r.uploadUrl, jpeg, 'image/jpeg')).status).toBe(200);
    });

    it('answers size_mismatch without Content-Length (chunked bodies)', async () => {
      const r = await reserveJpeg();
      const server = http.createServer(env.app).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const res = await fetch(`http://127.0.0.1:${port}${pathOf(r.uploadUrl)}`, {
          method: 'PUT',
          headers: { 'Content-Type': 'image/jpeg' },
          body: new Blob([new Uint8Array(jpeg)]).stream(),
          duplex: 'half',
        } as RequestInit);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'size_mismatch', message: expect.stringMatching(/missing/) });
      } finally {
        server.close();
      }
    });

    it('answers 415 content_type_mismatch when Content-Type is not the reserved mime', async () => {
      const r = await reserveJpeg();
      const res = await putBytes(env, r.uploadUrl, jpeg, 'image/png');
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ code: 'content_type_mismatch', message: expect.stringContaining('image/jpeg') });
    });

    it('answers 409 already_uploaded to a second PUT, and stores nothing more', async () => {
      const r = await reserveJpeg();
      expect((await putBytes(env, r.uploadUrl, jpeg, 'image/jpeg')).status).toBe(200);
      const used = await usedBytes();
      const again = await putBytes(env, r.uploadUrl, jpeg, 'image/jpeg');
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        code: 'already_uploaded',
        hint: expect.stringContaining(`/media/${r.mediaId}`),
      });
      expect(await usedBytes()).toBe(used);
      await env.services.media.whenIdle();
    });

    it('answers 403 address_invalid for an altered, truncated or foreign address', async () => {
      const r = await reserveJpeg();
      const token = r.uploadUrl.split('/uploads/')[1]!;
      const [payload, signature] = token.split('.') as [string, string];
      const otherId = Buffer.from(JSON.stringify({ m: 'med_AAAAAAAAAAAAAAAA', exp: 4102444800 })).toString('base64url');
      const fileToken = (
        await env.services.storage.publicUrl('any/key', { ttlSeconds: 60, contentType: 'image/jpeg' })
      ).split('/media-files/')[1];
      const forged = [
        `${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`,
        `${otherId}.${signature}`,
        payload,
        `${payload}.`,
        fileToken,
      ];
      for (const bad of forged) {
        const res = await request(env.app).put(`/uploads/${bad}`).set('Content-Type', 'image/jpeg').send(jpeg);
        expect(res.status, bad).toBe(403);
        expect(res.body).toMatchObject({
          code: 'address_invalid',
          message: expect.any(String),
          hint: expect.any(String),
        });
      }
    });

    it('answers 410 address_expired after the hour, and the file was not received', async () => {
      const r = await reserveJpeg();
      const expired = uploadAddress(
        env.services.keyring,
        env.config.publicUrl,
        r.mediaId,
        uploadExpiry(Date.now() - 3601_000).exp,
      );
      const res = await putBytes(env, expired, jpeg, 'image/jpeg');
      expect(res.status).toBe(410);
      expect(res.body).toMatchObject({
        code: 'address_expired',
        hint: expect.stringContaining('POST /v1/media/uploads'),
      });
      expect((await call(env, 'get', `/v1/media/${r.mediaId}`, { key: ws.readKey })).body.status).toBe('uploading');
    });

    it('answers 404 when the file was deleted before its bytes came', async () => {
      const r = await reserveJpeg();
      expect((await call(env, 'delete', `/v1/media/${r.mediaId}?confirm=true`, { key: ws.writeKey })).status).toBe(200);
      const res = await putBytes(env, r.uploadUrl, jpeg, 'image/jpeg');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    });

    it('keeps nothing from an interrupted PUT, and the address works until it succeeds', async () => {
      const before = await usedBytes();
      const stored = storedFiles(env).length;
      const r = await reserveJpeg();
      const server = http.createServer(env.app).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      // The server's log lines, as JSON: a client that goes away is no server error (operators alert on warn).
      const logged: { level: number; msg: string }[] = [];
      const logger = env.services.logger;
      env.services.logger = pino({ level: 'debug' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
      try {
        const { port } = server.address() as AddressInfo;
        // Half the body, then the connection drops.
        const socket = net.connect(port, '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write(
          `PUT ${pathOf(r.uploadUrl)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ` +
            `image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`,
        );
        socket.write(jpeg.subarray(0, jpeg.length >> 1));
        await until(() => incomingFiles(env).length > 0);
        socket.destroy();
        await until(() => incomingFiles(env).length === 0);
        await until(() => logged.some((l) => l.msg.startsWith('upload interrupted') || l.level >= 40));
        expect(logged.filter((l) => l.level >= 40)).toEqual([]);
        expect(logged.find((l) => l.msg.startsWith('upload interrupted'))).toMatchObject({
          level: 30,
          msg: 'upload interrupted: the connection closed before the whole file arrived; nothing kept',
        });

        expect((await call(env, 'get', `/v1/media/${r.mediaId}`, { key: ws.readKey })).body.status).toBe('uploading');
        expect(await usedBytes()).toBe(before);
        expect(storedFiles(env)).toHaveLength(stored);

        expect((await putBytes(env, r.uploadUrl, jpeg, 'image/jpeg')).status).toBe(200);
        expect(await usedBytes()).toBe(before + jpeg.length);
        expect((await processed(env, ws.readKey, r.mediaId)).status).toBe('ready');
      } finally {
        env.services.logger = logger;
        server.close();
      }
    });
  });
});

describe.each(DATABASES)('the upload PUT under the request rate limit on %s', (kind) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startHerald(kind, { mediaSweepMs: 0, rateLimit: { max: 2, windowMs: 600_000 } });
  });
  afterAll(() => env.close());

  it('answers 429 rate_limited with Retry-After once the address has used its requests', async () => {
    const ws = await seedWorkspace(env);
    const r = await reserve(env, ws.writeKey, { filename: 'a.jpg', mime: 'image/jpeg', size: 3 });
    expect(r.status).toBe(201);
    const first = await putBytes(env, r.body.uploadUrl, Buffer.from('abc'), 'image/png');
    expect(first.status).toBe(415);
    const limited = await putBytes(env, r.body.uploadUrl, Buffer.from('abc'), 'image/jpeg');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.body).toMatchObject({ code: 'rate_limited', message: expect.any(String), hint: expect.any(String) });
  });
});

describe('disk storage at start-up', () => {
  it('removes half-written files a killed process left hours ago, and keeps any being written', () => {
    const root = tempDir();
    const incoming = path.join(root, '.incoming');
    fs.mkdirSync(incoming);
    fs.writeFileSync(path.join(incoming, 'abandoned'), 'half a file');
    const sevenHoursAgo = new Date(Date.now() - 7 * 3600_000);
    fs.utimesSync(path.join(incoming, 'abandoned'), sevenHoursAgo, sevenHoursAgo);
    fs.writeFileSync(path.join(incoming, 'in-progress'), 'being written by another process');
    new DiskStorage(root, new Keyring('test-secret'), 'http://127.0.0.1');
    expect(fs.readdirSync(incoming)).toEqual(['in-progress']);
    fs.rmSync(root, { recursive: true, force: true });
  });
});

// A full disk under SQLite and disk storage: DATA_DIR on a small tmpfs (mounted for the test, which needs root, as
// CI runs) is filled up with a file. Writes and uploads then answer 507 insufficient_storage, keep everything
// committed before, and the service goes on once the file is removed; `herald doctor` saw it coming. Here, beside
// the other uploads, to share this file's contract checker.
const root = process.getuid?.() === 0;

/** Writes a file until the disk refuses more; answers its path. */
function fillDisk(dir: string): string {
  const filler = path.join(dir, 'filler');
  const fd = fs.openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  return filler;
}

describe.skipIf(!root)('a full disk on SQLite (DATA_DIR on a 8 MiB tmpfs)', () => {
  const mount = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-full-'));
  let env: TestEnv;
  let ws: Seeded;
  let account: string;
  let filler: string;
  const created: string[] = [];

  const createDraft = (n: number) =>
    call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: {
        targets: { accountIds: [account] },
        mediaIds: [],
        when: 'draft',
        text: `Draft ${n} ${'x'.repeat(300)}`,
        confirm: true,
      },
    });

  beforeAll(async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount]);
    env = await startHerald('sqlite', { dataDir: mount });
    ws = await seedWorkspace(env);
    account = await addAccount(env, ws.workspaceId, 'threads', 'Acme');
  });
  afterAll(async () => {
    await env?.close();
    execFileSync('umount', [mount]);
    fs.rmdirSync(mount);
  });

  it('herald doctor fails the free space check before the disk is full', () => {
    const [check] = freeSpaceChecks(env.config);
    expect(check).toMatchObject({ name: 'free space', status: 'fail', fix: expect.stringContaining('Free space') });
    expect(check!.message).toContain(mount);
  });

  it('answers 507 insufficient_storage to writes and uploads, and keeps what was committed', async () => {
    const upload = await reserve(env, ws.writeKey, { filename: 'a.jpg', mime: 'image/jpeg', size: 512 * 1024 });
    expect(upload.status).toBe(201);
    for (let n = 0; n < 3; n++) {
      const res = await createDraft(n);
      expect(res.status).toBe(201);
      created.push(res.body.posts[0].id);
    }
    // An empty write-ahead log, as after a checkpoint: the next commit needs new pages of the disk.
    await env.services.db.raw('pragma wal_checkpoint(TRUNCATE)');
    filler = fillDisk(mount);
    const refused = await createDraft(3);
    expect(refused.status, JSON.stringify(refused.body)).toBe(507);
    expect(refused.body).toEqual({
      code: 'insufficient_storage',
      message: "The server's disk is full: nothing of this request was kept.",
      hint: expect.stringContaining('free space'),
    });
    const put = await putBytes(env, upload.body.uploadUrl, Buffer.alloc(512 * 1024, 7), 'image/jpeg');
    expect(put.status).toBe(507);
    expect(put.body.code).toBe('insufficient_storage');
    expect(fs.readdirSync(path.join(mount, 'media', '.incoming'))).toEqual([]);
    // Reads go on while the disk is full.
    const listed = await call(env, 'get', '/v1/posts?limit=100', { key: ws.readKey });
    expect(listed.status).toBe(200);

    fs.rmSync(filler);
    const after = await createDraft(-1);
    expect(after.status).toBe(201);
    created.push(after.body.posts[0].id);
    expect((await putBytes(env, upload.body.uploadUrl, Buffer.alloc(512 * 1024, 7), 'image/jpeg')).status).toBe(200);
    for (const id of created) expect((await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).status).toBe(200);
    const file = new Database(path.join(mount, SQLITE_FILE), { readonly: true });
    expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
    file.close();
  });
});
