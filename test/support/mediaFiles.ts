// Real media files for tests, made on the spot: images with sharp, videos with ffmpeg's test
// sources; and the upload steps (reserve, PUT, wait for processing) as a client performs them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import sharp from 'sharp';
import { call, type TestEnv } from './harness.ts';

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'herald-media-'));
}

export async function makeImage(
  dir: string,
  format: 'jpeg' | 'png' | 'webp' | 'gif',
  width: number,
  height: number,
): Promise<string> {
  const file = path.join(dir, `image-${width}x${height}.${format}`);
  await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 30 } } })
    .toFormat(format)
    .toFile(file);
  return file;
}

/**
 * A video from ffmpeg's test pattern with a tone. `codec` picks the video codec (mpeg4 and an AVI
 * container make a file networks refuse); `rotate` writes display rotation metadata, as phones do.
 */
export function makeVideo(
  dir: string,
  opts: {
    seconds: number;
    width: number;
    height: number;
    fps: number;
    codec?: 'libx264' | 'mpeg4';
    container?: 'mp4' | 'avi' | 'mov';
    audio?: boolean;
    rotate?: number;
  },
): string {
  const { seconds, width, height, fps, codec = 'libx264', container = 'mp4', audio = true } = opts;
  const file = path.join(dir, `video-${width}x${height}-${seconds}s-${codec}-${opts.rotate ?? 0}.${container}`);
  const args = [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=${fps}:duration=${seconds}`,
  ];
  if (audio) args.push('-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`);
  args.push('-c:v', codec, '-pix_fmt', 'yuv420p');
  if (codec === 'libx264') args.push('-preset', 'ultrafast');
  if (audio) args.push('-c:a', container === 'avi' ? 'mp3' : 'aac');
  if (opts.rotate === undefined) {
    execFileSync('ffmpeg', [...args, '-shortest', file]);
    return file;
  }
  // ffmpeg 5 writes the rotation (a display matrix) only when copying streams, as a phone's file has it.
  const plain = `${file}.plain.${container}`;
  execFileSync('ffmpeg', [...args, '-shortest', plain]);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    plain,
    '-c',
    'copy',
    '-metadata:s:v:0',
    `rotate=${opts.rotate}`,
    file,
  ]);
  return file;
}

export function makeTextFile(dir: string, name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, 'This is plain text, saved with an image name.\n'.repeat(20));
  return file;
}

/** The path (and query) of an absolute address, for supertest against the in-process app. */
export function pathOf(address: string): string {
  const url = new URL(address);
  return url.pathname + url.search;
}

export async function reserve(
  env: TestEnv,
  key: string,
  body: { filename: string; mime: string; size: number; folderId?: string },
) {
  return call(env, 'post', '/v1/media/uploads', { key, body });
}

export function putBytes(env: TestEnv, uploadUrl: string, bytes: Buffer, mime: string) {
  return request(env.app).put(pathOf(uploadUrl)).set('Content-Type', mime).send(bytes);
}

/** Reserves, PUTs the file's bytes, waits for processing and answers the file as GET /media/{id} shows it. */
export async function upload(env: TestEnv, key: string, file: string, mime: string, folderId?: string) {
  const bytes = fs.readFileSync(file);
  const reserved = await reserve(env, key, { filename: path.basename(file), mime, size: bytes.length, folderId });
  if (reserved.status !== 201)
    throw new Error(`reservation answered ${reserved.status}: ${JSON.stringify(reserved.body)}`);
  const put = await putBytes(env, reserved.body.uploadUrl, bytes, mime);
  if (put.status !== 200) throw new Error(`PUT answered ${put.status}: ${JSON.stringify(put.body)}`);
  return processed(env, key, reserved.body.mediaId);
}

/** Waits for the background work to settle, then reads the file through the API. */
export async function processed(env: TestEnv, key: string, mediaId: string) {
  await env.services.media.whenIdle();
  const res = await call(env, 'get', `/v1/media/${mediaId}`, { key });
  if (res.status !== 200) throw new Error(`GET /media answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Files kept in the disk storage of a test server (excluding the temporary upload area). */
export function storedFiles(env: TestEnv): string[] {
  const root = path.join(env.config.dataDir, 'media');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter(
    (f) => !f.startsWith('.incoming') && fs.statSync(path.join(root, f)).isFile(),
  );
}

export function incomingFiles(env: TestEnv): string[] {
  const dir = path.join(env.config.dataDir, 'media', '.incoming');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}
