// A post's files as connectors see them: a public, signed, expiring address (converted to JPEG for
// networks that take only JPEG), and the bytes as a stream for networks that take uploads.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { MediaRecord } from '../db/mediaData.ts';
import { loadSharp } from '../media/sharp.ts';
import { mediaFileUrl } from '../media/publicAddress.ts';
import type { ImageBox, PublishMedia } from '../networks/connector.ts';
import type { Storage } from '../storage/storage.ts';

/** Long enough for a network to fetch a video while it processes the container. */
const FETCH_TTL_SECONDS = 6 * 3600;

/** An image larger than the box, either way round. */
function exceeds(record: MediaRecord, box: ImageBox): boolean {
  const [w, h] = [record.width ?? 0, record.height ?? 0];
  return Math.min(w, h) > box.short || Math.max(w, h) > box.long;
}

/** The JPEG copy of an image (scaled down into `box`, kept upright), made once and kept beside the original. */
async function jpegCopyKey(storage: Storage, record: MediaRecord, box?: ImageBox): Promise<string> {
  const key = box ? `${record.storageKey}.${box.long}x${box.short}.jpg` : `${record.storageKey}.jpg`;
  const sharp = await loadSharp();
  await storage.withLocalFile(record.storageKey!, async (file) => {
    let image = sharp(file).rotate().flatten({ background: '#ffffff' });
    if (box) {
      const wide = (record.width ?? 0) >= (record.height ?? 0);
      const [width, height] = wide ? [box.long, box.short] : [box.short, box.long];
      image = image.resize({ width, height, fit: 'inside', withoutEnlargement: true });
    }
    const jpeg = image.jpeg({ quality: 92, mozjpeg: true });
    await storage.put(key, Readable.from(await jpeg.toBuffer()), 'image/jpeg');
  });
  return key;
}

export function publishMedia(storage: Storage, record: MediaRecord): PublishMedia {
  let jpegKey: Promise<string> | undefined;
  let scaledKey: Promise<string> | undefined;
  return {
    id: record.id,
    kind: record.kind ?? 'image',
    mime: record.mime,
    size: record.size,
    width: record.width,
    height: record.height,
    durationSeconds: record.durationSeconds,
    filename: record.filename,
    async publicUrl(options = {}) {
      const image = record.kind === 'image';
      const scale = image && options.within !== undefined && exceeds(record, options.within);
      if (!scale && (options.format !== 'jpeg' || record.mime === 'image/jpeg' || !image))
        return mediaFileUrl(storage, record, FETCH_TTL_SECONDS);
      if (scale) scaledKey ??= jpegCopyKey(storage, record, options.within);
      else jpegKey ??= jpegCopyKey(storage, record);
      const key = await (scale ? scaledKey : jpegKey)!;
      return storage.publicUrl(key, { ttlSeconds: FETCH_TTL_SECONDS, contentType: 'image/jpeg' });
    },
    open(options = {}) {
      // The local file (a temporary copy on S3) lives until the stream closes.
      return new Promise<Readable>((resolve, reject) => {
        storage
          .withLocalFile(
            record.storageKey!,
            (file) =>
              new Promise<void>((done) => {
                const stream = fs.createReadStream(file, { start: options.start ?? 0, end: options.end });
                stream.once('close', () => done());
                resolve(stream);
              }),
          )
          .catch(reject);
      });
    },
  };
}
