// Media bytes as files under DATA_DIR/media. A file is written under .incoming/ and renamed into
// place once complete and flushed, so a reader never sees half a file; its public address is a
// signed /media-files/<token> route served by this app.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Keyring } from '../runtime/crypto.ts';
import { readToken, roundedExpiry, signToken } from './signedToken.ts';
import type { PublicUrlOptions, Storage } from './storage.ts';

/** What a /media-files token carries: the object key and the type to serve it as. */
interface MediaFileToken {
  k: string;
  t: string;
  exp: number;
}

/** A temporary file unchanged this long belongs to no write in progress (upload addresses live an hour). */
const ABANDONED_WRITE_MS = 6 * 3600_000;

/** Large writes: fewer system calls per gigabyte than the 16 KiB default. */
const WRITE_CHUNK = 1024 * 1024;

export class DiskStorage implements Storage {
  readonly kind = 'disk' as const;
  private readonly incoming: string;

  constructor(
    private readonly root: string,
    private readonly keyring: Keyring,
    private readonly publicBase: string,
  ) {
    this.incoming = path.join(root, '.incoming');
    fs.mkdirSync(this.incoming, { recursive: true });
    this.removeAbandonedWrites();
  }

  /**
   * Half-written files a killed process left behind. Other processes on this DATA_DIR may be writing
   * right now, so only files untouched for longer than any upload address lives are removed.
   */
  private removeAbandonedWrites(): void {
    const before = Date.now() - ABANDONED_WRITE_MS;
    for (const name of fs.readdirSync(this.incoming)) {
      const file = path.join(this.incoming, name);
      if ((fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < before)
        fs.rmSync(file, { force: true });
    }
  }

  /** The file of `key`; keys are made by Herald, but one that climbs out of the root is refused anyway. */
  filePath(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep) || key.startsWith('.'))
      throw new Error(`storage key outside the media root: ${key}`);
    return file;
  }

  async put(key: string, body: Readable): Promise<void> {
    const target = this.filePath(key);
    const temp = path.join(this.incoming, randomUUID());
    try {
      // flush: fsync before close. Durable before it counts as stored: the upload's 200 promises the bytes are kept.
      await pipeline(body, fs.createWriteStream(temp, { flags: 'wx', flush: true, highWaterMark: WRITE_CHUNK }));
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(temp, target);
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.filePath(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    const at = this.filePath(prefix);
    if (prefix.endsWith('/')) {
      await fsp.rm(at, { recursive: true, force: true });
      return;
    }
    const dir = path.dirname(at);
    const names = await fsp
      .readdir(dir)
      .catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? [] : Promise.reject(err)));
    for (const name of names)
      if (name.startsWith(path.basename(at))) await fsp.rm(path.join(dir, name), { force: true });
  }

  async withLocalFile<T>(key: string, use: (file: string) => Promise<T>): Promise<T> {
    return use(this.filePath(key));
  }

  async publicUrl(key: string, options: PublicUrlOptions): Promise<string> {
    const token = signToken<MediaFileToken>(this.keyring, 'media-file', {
      k: key,
      t: options.contentType,
      exp: roundedExpiry(options.ttlSeconds),
    });
    return `${this.publicBase}/media-files/${token}`;
  }

  /** The key and type named by a token of publicUrl, or undefined when its signature does not match. */
  readPublicToken(token: string): MediaFileToken | undefined {
    return readToken<MediaFileToken>(this.keyring, 'media-file', token);
  }

  async close(): Promise<void> {}
}
