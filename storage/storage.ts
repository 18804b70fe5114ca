// Where media bytes live, behind one interface: local disk under DATA_DIR (the default) or an
// S3-compatible bucket, which lets several server instances share media.
import type { Readable } from 'node:stream';

export interface PublicUrlOptions {
  /** The address works for at least this long (a little longer: expiries are rounded, see roundedExpiry). */
  ttlSeconds: number;
  /** Served as the response's Content-Type. */
  contentType: string;
}

export interface Storage {
  readonly kind: 'disk' | 's3';
  /**
   * Stores all of `body` at `key`, or nothing: a stream that fails or is cut off leaves no object
   * and no partial file. Memory stays flat whatever the size.
   */
  put(key: string, body: Readable, contentType: string): Promise<void>;
  /** Removes the object; a missing one is not an error, so deleting twice is safe. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (a file and the copies named after it). */
  deletePrefix(prefix: string): Promise<void>;
  /** Runs `use` with a path to the bytes on the local disk (a temporary copy for S3). */
  withLocalFile<T>(key: string, use: (file: string) => Promise<T>): Promise<T>;
  /** A public, signed, expiring address of the bytes, for networks that fetch media by URL. */
  publicUrl(key: string, options: PublicUrlOptions): Promise<string>;
  close(): Promise<void>;
}
