// The S3 storage backend against a real S3-compatible server (s3rver on 127.0.0.1, started here):
// uploads stream in, processing reads them back, public addresses are presigned, deletes and
// retention remove the objects, and an interrupted upload leaves none; on both databases.
import fs from 'node:fs';
import http from 'node:http';
import { Readable } from 'node:stream';
import net, { type AddressInfo } from 'node:net';
import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWorkspace } from '../db/identity.ts';
import { mediaData } from '../db/mediaData.ts';
import { mediaFileUrl } from '../media/publicAddress.ts';
import type { StorageConfig } from '../runtime/config.ts';
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
  makeImage,
  makeTextFile,
  makeVideo,
  pathOf,
  putBytes,
  reserve,
  tempDir,
  upload,
} from './support/mediaFiles.ts';
import { setPostState } from './support/posts.ts';

describe.each(DATABASES)('S3 storage on %s', (kind) => {
  let s3: S3rver;
  let client: S3Client;
  let storage: Extract<StorageConfig, { kind: 's3' }>;
  let env: TestEnv;
  let ws: Seeded;
  const dir = tempDir();

  beforeAll(async () => {
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: tempDir(),
      configureBuckets: [{ name: 'herald', configs: [] }],
    });
    const { port } = await s3.run();
    const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
    storage = {
      kind: 's3',
      bucket: 'herald',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      prefix: 'herald-media',
      credentials,
    };
    client = new S3Client({ region: 'us-east-1', endpoint: storage.endpoint, forcePathStyle: true, credentials });
    env = await startHerald(kind, { mediaSweepMs: 0, storage });
    ws = await seedWorkspace(env, { plan: 'creator' });
  });
  afterAll(async () => {
    await env.close();
    client.destroy();
    await s3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const objects = async () =>
    ((await client.send(new ListObjectsV2Command({ Bucket: 'herald' }))).Contents ?? []).map((o) => o.Key!).sort();
  const record = async (id: string) =>
    (await mediaData(env.services.db, (await findWorkspace(env.services.db, ws.workspaceId))!).get(id))!;

  it('stores an upload as an object under the prefix, processes it, and presigns its thumbnail', async () => {
    const media = await upload(env, ws.writeKey, await makeImage(dir, 'jpeg', 1080, 1350), 'image/jpeg');
    expect(media).toMatchObject({ status: 'ready', width: 1080, height: 1350 });
    const keys = (await objects()).filter((k) => k.includes(media.id));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(new RegExp(`^herald-media/${ws.workspaceId}/${media.id}/original-[0-9a-f-]{36}$`));
    expect(keys[1]).toBe(`herald-media/${ws.workspaceId}/${media.id}/thumbnail.jpg`);
    expect(media.thumbnailUrl.startsWith(`${storage.endpoint}/herald/herald-media/`)).toBe(true);
    const thumb = await fetch(media.thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).height).toBe(480);
  });

  it('gives networks a public, signed address of the bytes', async () => {
    const file = makeVideo(dir, { seconds: 3, width: 360, height: 640, fps: 30 });
    const media = await upload(env, ws.writeKey, file, 'video/mp4');
    expect(media).toMatchObject({ status: 'ready', kind: 'video', videoCodec: 'h264' });
    const address = await mediaFileUrl(env.services.storage, await record(media.id), 600);
    const res = await fetch(address);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(file))).toBe(true);
    // Presigned and expiring (s3rver itself serves anonymous reads, so only the address shows it).
    const query = new URL(address).searchParams;
    expect(query.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(query.get('X-Amz-Expires'))).toBeGreaterThanOrEqual(600);
  });

  it('removes the objects of a deleted file (copies included) and of a file that failed processing', async () => {
    const media = await upload(env, ws.writeKey, await makeImage(dir, 'png', 300, 300), 'image/png');
    const original = (await record(media.id)).storageKey!;
    await env.services.storage.put(`${original}.jpg`, Readable.from([Buffer.from('a copy')]), 'image/jpeg');
    expect((await objects()).filter((k) => k.includes(media.id))).toHaveLength(3);
    expect((await call(env, 'delete', `/v1/media/${media.id}?confirm=true`, { key: ws.writeKey })).status).toBe(200);
    expect((await objects()).filter((k) => k.includes(media.id))).toEqual([]);

    const text = await upload(env, ws.writeKey, makeTextFile(dir, 'fake.jpg'), 'image/jpeg');
    expect(text.status).toBe('failed');
    expect((await objects()).filter((k) => k.includes(text.id))).toEqual([]);
  });

  it('leaves no object after an interrupted upload; the address then works', async () => {
    const bytes = fs.readFileSync(makeVideo(dir, { seconds: 2, width: 320, height: 240, fps: 25 }));
    const r = await reserve(env, ws.writeKey, { filename: 'cut.mp4', mime: 'video/mp4', size: bytes.length });
    const server = http.createServer(env.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const received = new Promise<http.IncomingMessage>((resolve) => server.once('request', resolve));
      const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
      socket.write(
        `PUT ${pathOf(r.body.uploadUrl)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ` +
          `video/mp4\r\nContent-Length: ${bytes.length}\r\n\r\n`,
      );
      socket.write(bytes.subarray(0, bytes.length >> 1));
      const req = await received;
      socket.destroy();
      if (!req.destroyed) await new Promise((resolve) => req.once('close', resolve));
      expect((await call(env, 'get', `/v1/media/${r.body.mediaId}`, { key: ws.readKey })).body.status).toBe(
        'uploading',
      );

      expect((await putBytes(env, r.body.uploadUrl, bytes, 'video/mp4')).status).toBe(200);
      await env.services.media.whenIdle();
      // Exactly the completed upload's original and its thumbnail: the cut attempt left nothing.
      expect((await objects()).filter((k) => k.includes(r.body.mediaId))).toHaveLength(2);
    } finally {
      server.close();
    }
  });

  it('retention deletes the object of a published file and keeps the record', async () => {
    const page = await addAccount(env, ws.workspaceId, 'facebook', 'Acme Page');
    const media = await upload(env, ws.writeKey, await makeImage(dir, 'jpeg', 800, 800), 'image/jpeg');
    const created = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: { targets: { accountIds: [page] }, mediaIds: [media.id], text: 'Sale', when: 'draft', confirm: true },
    });
    await setPostState(env, ws.workspaceId, created.body.posts[0].id, {
      status: 'live',
      liveAt: new Date(Date.now() - 80 * 3600_000).toISOString(),
    });
    expect((await env.services.media.sweep()).released).toEqual([media.id]);
    expect((await objects()).filter((k) => k.includes(media.id) && k.includes('original'))).toEqual([]);
    expect((await call(env, 'get', `/v1/media/${media.id}`, { key: ws.readKey })).body.bytesDeletedAt).toEqual(
      expect.any(String),
    );
    // Tidy the bucket for the next suite.
    const left = await objects();
    if (left.length)
      await client.send(
        new DeleteObjectsCommand({ Bucket: 'herald', Delete: { Objects: left.map((Key) => ({ Key })) } }),
      );
  });
});
