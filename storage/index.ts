// Picks the storage backend from the configuration (STORAGE=disk|s3).
import path from 'node:path';
import type { Config } from '../runtime/config.ts';
import type { Keyring } from '../runtime/crypto.ts';
import { DiskStorage } from './disk.ts';
import { S3Storage } from './s3.ts';

export type AnyStorage = DiskStorage | S3Storage;

export function createStorage(config: Config, keyring: Keyring): AnyStorage {
  return config.storage.kind === 's3'
    ? new S3Storage(config.storage)
    : new DiskStorage(path.join(config.dataDir, 'media'), keyring, config.publicUrl);
}
