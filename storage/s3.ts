// Media bytes in an S3-compatible bucket (AWS S3, MinIO, R2, ...). Streams go up as multipart
// uploads, which make the object visible only once every part arrived; public addresses are
// presigned GETs that the bucket serves itself.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../runtime/config.ts';
import { EXPIRY_STEP_SECONDS, roundedExpiry } from './signedToken.ts';
import type { PublicUrlOptions, Storage } from './storage.ts';

type S3Config = Extract<StorageConfig, { kind: 's3' }>;

/** Memory held per upload is about PART_SIZE x QUEUE_SIZE, whatever the file's size. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 4;

/** The AWS SDK, loaded on first use: loading it with the module cost every process 130 ms of CPU to start. */
async function loadSdk() {
  const [s3, storage, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return { ...s3, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
}

export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  private connected?: Promise<{ sdk: Awaited<ReturnType<typeof loadSdk>>; client: S3Client }>;

  constructor(private readonly config: S3Config) {}

  /** The SDK and a client, made on first use. */
  private connect() {
    this.connected ??= loadSdk().then((sdk) => ({ sdk, client: this.newClient(sdk.S3Client) }));
    return this.connected;
  }

  private newClient(S3: typeof S3Client): S3Client {
    const { config } = this;
    return new S3({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      // Checksums only where S3 requires them: S3-compatible servers differ in the newer trailing-checksum uploads.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    return this.config.prefix ? `${this.config.prefix}/${key}` : key;
  }

  async put(key: string, body: Readable, contentType: string): Promise<void> {
    const { sdk, client } = await this.connect();
    // On failure Upload aborts the multipart upload, so no object and no orphan parts remain.
    await new sdk.Upload({
      client,
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      params: { Bucket: this.config.bucket, Key: this.objectKey(key), Body: body, ContentType: contentType },
    }).done();
  }

  async delete(key: string): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const { sdk, client } = await this.connect();
    const Bucket = this.config.bucket;
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket, Prefix: this.objectKey(prefix), ContinuationToken }),
      );
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length)
        await client.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
      ContinuationToken = page.NextContinuationToken;
    } while (ContinuationToken);
  }

  async withLocalFile<T>(key: string, use: (file: string) => Promise<T>): Promise<T> {
    const { sdk, client } = await this.connect();
    const file = path.join(os.tmpdir(), `herald-${randomUUID()}`);
    try {
      const object = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }),
      );
      await pipeline(object.Body as Readable, fs.createWriteStream(file));
      return await use(file);
    } finally {
      await fsp.rm(file, { force: true });
    }
  }

  async publicUrl(key: string, options: PublicUrlOptions): Promise<string> {
    const { sdk, client } = await this.connect();
    const now = Date.now();
    const expires = roundedExpiry(options.ttlSeconds, now);
    // Signed as of the start of the quarter hour, so the address stays the same within it.
    const signedAt = Math.floor(now / 1000 / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
    const command = new sdk.GetObjectCommand({
      Bucket: this.config.bucket,
      Key: this.objectKey(key),
      ResponseContentType: options.contentType,
    });
    return sdk.getSignedUrl(client, command, {
      expiresIn: expires - signedAt,
      signingDate: new Date(signedAt * 1000),
    });
  }

  async close(): Promise<void> {
    if (this.connected) (await this.connected).client.destroy();
  }
}
