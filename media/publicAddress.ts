// Public, signed, expiring addresses of a file's bytes and of its thumbnail. Networks that fetch
// media by URL (Instagram, Threads, Facebook) are given `mediaFileUrl`; the API shows thumbnails.
import type { MediaRecord } from '../db/mediaData.ts';
import { ApiError } from '../domain/errors.ts';
import type { Storage } from '../storage/storage.ts';

/** Thumbnails are shown by the dashboard and API clients; a day keeps a page of them cacheable. */
const THUMBNAIL_TTL_SECONDS = 24 * 3600;

export async function thumbnailUrl(storage: Storage, record: MediaRecord): Promise<string | null> {
  return record.thumbnailKey
    ? storage.publicUrl(record.thumbnailKey, { ttlSeconds: THUMBNAIL_TTL_SECONDS, contentType: 'image/jpeg' })
    : null;
}

/** The address a network downloads the file from; valid for at least `ttlSeconds`. */
export async function mediaFileUrl(storage: Storage, record: MediaRecord, ttlSeconds = 3600): Promise<string> {
  if (!record.storageKey || record.status !== 'ready') {
    throw new ApiError(
      409,
      'invalid_state',
      `File ${record.id} has no bytes to publish (status ` +
        `${record.status}${record.bytesDeletedAt ? ', bytes deleted by retention' : ''}).`,
      'Upload the file again and use the new mediaId.',
    );
  }
  return storage.publicUrl(record.storageKey, { ttlSeconds, contentType: record.mime });
}
