// Processing: the true type from the bytes, image and video facts, thumbnails, and failures that
// say what was wrong; real files made by sharp and ffmpeg, on both databases.
import fs from 'node:fs';
import request from 'supertest';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import {
  makeImage,
  makeTextFile,
  makeVideo,
  pathOf,
  processed,
  putBytes,
  reserve,
  storedFiles,
  tempDir,
  upload,
} from './support/mediaFiles.ts';

describe.each(DATABASES)('processing on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  const dir = tempDir();

  beforeAll(async () => {
    env = await startHerald(kind, { mediaSweepMs: 0 });
    ws = await seedWorkspace(env, { plan: 'studio' });
  });
  afterAll(async () => {
    await env.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const usedBytes = async () =>
    (await call(env, 'get', '/v1/whoami', { key: ws.readKey })).body.usage.storage.usedBytes as number;

  /** Fetches a public address served by the app (no credential), as a browser or a network would. */
  const fetchPublic = (address: string) =>
    request(env.app)
      .get(pathOf(address))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  it('goes uploading -> processing -> ready, with the image size and a JPEG thumbnail', async () => {
    const file = await makeImage(dir, 'jpeg', 1080, 1350);
    const bytes = fs.readFileSync(file);
    const r = await reserve(env, ws.writeKey, { filename: 'sale.jpg', mime: 'image/jpeg', size: bytes.length });
    expect((await call(env, 'get', `/v1/media/${r.body.mediaId}`, { key: ws.readKey })).body.status).toBe('uploading');
    expect((await putBytes(env, r.body.uploadUrl, bytes, 'image/jpeg')).body.status).toBe('processing');
    const media = await processed(env, ws.readKey, r.body.mediaId);
    expect(media).toMatchObject({
      status: 'ready',
      kind: 'image',
      mime: 'image/jpeg',
      width: 1080,
      height: 1350,
      size: bytes.length,
      durationSeconds: null,
      frameRate: null,
      videoCodec: null,
      audioCodec: null,
    });
    expect(media.failReason).toBeUndefined();

    const thumb = await fetchPublic(media.thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(thumb.body as Buffer).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 384, height: 480 });
  });

  it('reads PNG, WebP and GIF images', async () => {
    for (const [format, mime] of [
      ['png', 'image/png'],
      ['webp', 'image/webp'],
      ['gif', 'image/gif'],
    ] as const) {
      const media = await upload(env, ws.writeKey, await makeImage(dir, format, 1200, 628), mime);
      expect(media, format).toMatchObject({
        status: 'ready',
        kind: 'image',
        mime,
        width: 1200,
        height: 628,
        thumbnailUrl: expect.any(String),
      });
    }
  });

  it('takes the type from the bytes, not the declared type: a JPEG sent as image/png is a JPEG', async () => {
    const media = await upload(env, ws.writeKey, await makeImage(dir, 'jpeg', 640, 640), 'image/png');
    expect(media).toMatchObject({ status: 'ready', mime: 'image/jpeg', kind: 'image' });
  });

  it('fails text saved as .png, says why, and frees its storage', async () => {
    const before = await usedBytes();
    const stored = storedFiles(env).length;
    const media = await upload(env, ws.writeKey, makeTextFile(dir, 'photo.png'), 'image/png');
    expect(media).toMatchObject({ status: 'failed', thumbnailUrl: null, width: null });
    expect(media.failReason).toMatch(/not an image or video/);
    expect(media.failReason).toMatch(/sent as image\/png/);
    expect(await usedBytes()).toBe(before);
    expect(storedFiles(env)).toHaveLength(stored);
  });

  it('fails a damaged image whose signature is right', async () => {
    const whole = fs.readFileSync(await makeImage(dir, 'png', 800, 800));
    const file = `${dir}/cut.png`;
    fs.writeFileSync(file, whole.subarray(0, 40));
    const media = await upload(env, ws.writeKey, file, 'image/png');
    expect(media.status).toBe('failed');
    expect(media.failReason).toMatch(/image\/png/);
    expect(media.failReason).not.toMatch(/sharp|libpng|vips|\[|0x/i);
  });

  it("says in words that a video cut short is incomplete, without the tool's internals", async () => {
    const whole = fs.readFileSync(makeVideo(dir, { seconds: 1, width: 320, height: 240, fps: 25 }));
    const file = `${dir}/cut.mp4`;
    fs.writeFileSync(file, whole.subarray(0, whole.length >> 1));
    const media = await upload(env, ws.writeKey, file, 'video/mp4');
    expect(media.status).toBe('failed');
    expect(media.failReason).toMatch(/^The file looks like video\/mp4 but cannot be read: it is incomplete/);
    expect(media.failReason).not.toMatch(/moov|atom|mov,mp4|\[|0x/i);
  });

  it('reads a minute-long video: duration, size, frame rate, codecs, thumbnail', async () => {
    const file = makeVideo(dir, { seconds: 60, width: 360, height: 640, fps: 30 });
    const media = await upload(env, ws.writeKey, file, 'video/mp4');
    expect(media).toMatchObject({
      status: 'ready',
      kind: 'video',
      mime: 'video/mp4',
      width: 360,
      height: 640,
      frameRate: 30,
      videoCodec: 'h264',
      audioCodec: 'aac',
    });
    expect(media.durationSeconds).toBeCloseTo(60, 0);
    const thumb = await fetchPublic(media.thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(await sharp(thumb.body as Buffer).metadata()).toMatchObject({ format: 'jpeg', width: 270, height: 480 });
  });

  it('reads a MOV video, a silent one (no audio codec), and the display rotation of phone videos', async () => {
    const mov = await upload(
      env,
      ws.writeKey,
      makeVideo(dir, { seconds: 1, width: 320, height: 240, fps: 25, container: 'mov' }),
      'video/quicktime',
    );
    expect(mov).toMatchObject({ status: 'ready', mime: 'video/quicktime', frameRate: 25 });
    const silent = await upload(
      env,
      ws.writeKey,
      makeVideo(dir, { seconds: 1, width: 320, height: 240, fps: 24, audio: false }),
      'video/mp4',
    );
    expect(silent).toMatchObject({ status: 'ready', audioCodec: null, videoCodec: 'h264' });
    const turned = await upload(
      env,
      ws.writeKey,
      makeVideo(dir, { seconds: 1, width: 640, height: 360, fps: 30, rotate: 90 }),
      'video/mp4',
    );
    expect(turned).toMatchObject({ status: 'ready', width: 360, height: 640 });
  });

  it('fails a video in a format or codec no network accepts, naming it', async () => {
    const avi = await upload(
      env,
      ws.writeKey,
      makeVideo(dir, { seconds: 1, width: 320, height: 240, fps: 25, codec: 'mpeg4', container: 'avi' }),
      'video/mp4',
    );
    expect(avi).toMatchObject({ status: 'failed', failReason: expect.stringMatching(/AVI/) });
    const mpeg4 = await upload(
      env,
      ws.writeKey,
      makeVideo(dir, { seconds: 1, width: 320, height: 240, fps: 25, codec: 'mpeg4' }),
      'video/mp4',
    );
    expect(mpeg4).toMatchObject({
      status: 'failed',
      failReason: expect.stringMatching(/video codec is mpeg4.*H\.264/),
    });
  });

  it('reads a JPEG sent as video/mp4 as the image it is', async () => {
    const media = await upload(env, ws.writeKey, await makeImage(dir, 'jpeg', 500, 500), 'video/mp4');
    expect(media).toMatchObject({ status: 'ready', kind: 'image', mime: 'image/jpeg' });
  });

  it('processes files left in processing again at the next sweep (after a restart or a fault)', async () => {
    const file = await makeImage(dir, 'jpeg', 300, 200);
    const bytes = fs.readFileSync(file);
    const r = await reserve(env, ws.writeKey, { filename: 'again.jpg', mime: 'image/jpeg', size: bytes.length });
    await putBytes(env, r.body.uploadUrl, bytes, 'image/jpeg');
    await env.services.media.whenIdle();
    // As a process stopped mid-way would leave it.
    await env.services
      .db('media')
      .where({ id: r.body.mediaId })
      .update({ status: 'processing', width: null, height: null });
    await env.services.media.sweep();
    expect(await processed(env, ws.readKey, r.body.mediaId)).toMatchObject({
      status: 'ready',
      width: 300,
      height: 200,
    });
  });
});
