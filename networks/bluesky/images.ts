// Files as a Bluesky record takes them: images within the lexicon's blob limits (2 MB in a post, 1 MB as a link
// card's picture), scaled down and sent as JPEG when over; a stream's bytes read into memory with a ceiling.
import type { Readable } from 'node:stream';
import { loadSharp } from '../../media/sharp.ts';

/** Image types Bluesky's app shows as they are; others (GIF) go as JPEG. */
const SHOWN = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** Up to `max` bytes of a stream: past them, undefined, or with `cut` the first `max` bytes. */
export async function readUpTo(stream: Readable, max: number, cut = false): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.destroy();
      return cut ? Buffer.concat(chunks).subarray(0, max) : undefined;
    }
  }
  return Buffer.concat(chunks);
}

export interface ImageBlob {
  bytes: Buffer;
  mime: string;
  /** The picture's size as shown (rotation applied), for the record's aspectRatio. */
  width: number;
  height: number;
}

/**
 * The image as it is when Bluesky takes it; otherwise a JPEG, each try scaled by the square root of how far over
 * the limit the last one was (less a margin), which lands under it in one or two tries.
 */
export async function imageWithin(bytes: Buffer, mime: string, maxBytes: number): Promise<ImageBlob> {
  const sharp = await loadSharp();
  const meta = await sharp(bytes).metadata();
  const turned = (meta.orientation ?? 1) >= 5;
  const width = (turned ? meta.height : meta.width) ?? 1;
  const height = (turned ? meta.width : meta.height) ?? 1;
  if (bytes.length <= maxBytes && SHOWN.has(mime)) return { bytes, mime, width, height };
  let scale = Math.min(1, Math.sqrt(maxBytes / bytes.length) * 1.5);
  for (let tries = 0; ; tries++) {
    const w = Math.max(1, Math.round(width * scale));
    const out = await sharp(bytes)
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize({ width: w, withoutEnlargement: true })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    if (out.data.length <= maxBytes || tries === 8)
      return { bytes: out.data, mime: 'image/jpeg', width: out.info.width, height: out.info.height };
    scale *= Math.sqrt(maxBytes / out.data.length) * 0.9;
  }
}
