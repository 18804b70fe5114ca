// A post's files in every simulator: downloaded from their addresses, typed by their first bytes, kept on disk.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { randomBase62 } from '../../domain/ids.ts';
import type { Platform } from '../rules.ts';
import type { SimulatorContext } from './simulator.ts';

/** A file the simulator downloaded, kept under DATA_DIR/sandbox/<network> and shown on post pages. */
export interface StoredFile {
  kind: 'image' | 'video';
  mime: string;
  name: string;
}

const FETCH_TIMEOUT_MS = 120_000;

export const mediaDir = (ctx: SimulatorContext, network: Platform) => path.join(ctx.dataDir, 'sandbox', network);

/** The type of a file from its first bytes (the address's Content-Type is not proof). */
function sniff(head: Buffer): { mime: string; ext: string } | undefined {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { mime: 'image/jpeg', ext: 'jpg' };
  if (head.subarray(0, 4).toString('hex') === '89504e47') return { mime: 'image/png', ext: 'png' };
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return { mime: 'image/gif', ext: 'gif' };
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
    return { mime: 'image/webp', ext: 'webp' };
  const box = head.subarray(4, 8).toString('latin1');
  if (box === 'ftyp')
    return head.subarray(8, 10).toString('latin1') === 'qt'
      ? { mime: 'video/quicktime', ext: 'mov' }
      : { mime: 'video/mp4', ext: 'mp4' };
  if (['moov', 'mdat', 'wide', 'free'].includes(box)) return { mime: 'video/quicktime', ext: 'mov' };
  return undefined;
}

/**
 * Downloads a post's file from its public address, as Meta does with cURL (and with Facebook's
 * crawler user agent, which hosts must let through). Answers the stored file, or why it failed in
 * words for the network's error answer.
 */
export async function fetchMedia(
  ctx: SimulatorContext,
  network: Platform,
  url: string | undefined,
  kind: 'image' | 'video',
): Promise<StoredFile | string> {
  if (!url) return 'no address was given';
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { 'user-agent': 'facebookexternalhit/1.1' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (err) {
    const fault = err as Error & { cause?: Error };
    return `the address could not be reached (${fault.cause?.message ?? fault.message})`;
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    return `the address answered HTTP ${res.status}`;
  }
  const dir = mediaDir(ctx, network);
  fs.mkdirSync(dir, { recursive: true });
  const partial = path.join(dir, `${randomBase62(16)}.part`);
  try {
    await pipeline(Readable.fromWeb(res.body as WebReadableStream), fs.createWriteStream(partial));
  } catch (err) {
    fs.rmSync(partial, { force: true });
    return `the download was cut off (${(err as Error).message})`;
  }
  const head = Buffer.alloc(12);
  const fd = fs.openSync(partial, 'r');
  fs.readSync(fd, head, 0, head.length, 0);
  fs.closeSync(fd);
  const type = sniff(head);
  if (!type || !type.mime.startsWith(`${kind}/`)) {
    fs.rmSync(partial, { force: true });
    return `the file is not ${kind === 'image' ? 'an image' : 'a video'}${type ? ` (it is ${type.mime})` : ''}`;
  }
  const name = partial.replace(/\.part$/, `.${type.ext}`);
  fs.renameSync(partial, name);
  return { kind, mime: type.mime, name: path.basename(name) };
}
