// Processing of one stored file: uploading -> processing -> ready, or failed with a reason a person
// can act on. Safe to run twice for the same file (a restart re-runs files left in processing).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { MediaFacts, MediaJobsData } from '../db/mediaData.ts';
import type { Storage } from '../storage/storage.ts';
import { damageInWords, inspectFile, makeThumbnail } from './inspect.ts';
import { thumbnailKey } from './objectKeys.ts';

export interface ProcessingDeps {
  jobs: MediaJobsData;
  storage: Storage;
}

export async function processMedia({ jobs, storage }: ProcessingDeps, mediaId: string): Promise<void> {
  const record = await jobs.get(mediaId);
  if (!record || record.status !== 'processing' || !record.storageKey) return;
  const outcome = await storage.withLocalFile(
    record.storageKey,
    async (file): Promise<MediaFacts | { reason: string }> => {
      const inspected = await inspectFile(file, record.mime);
      if (!inspected.ok) return { reason: inspected.reason };
      const preview = path.join(os.tmpdir(), `herald-thumb-${randomUUID()}.jpg`);
      try {
        try {
          await makeThumbnail(file, inspected, preview);
        } catch (err) {
          return {
            reason:
              `The ${inspected.mime} file cannot be decoded: ${damageInWords(err)}. Export it again and upload ` +
              `the new file.`,
          };
        }
        const key = thumbnailKey(record);
        await storage.put(key, fs.createReadStream(preview), 'image/jpeg');
        const { ok: _ok, ...facts } = inspected;
        return { ...facts, thumbnailKey: key };
      } finally {
        await fsp.rm(preview, { force: true });
      }
    },
  );
  if ('reason' in outcome) {
    const key = await jobs.markFailed(mediaId, outcome.reason);
    if (key) await storage.delete(key);
    return;
  }
  // Deleted while it was being processed: the thumbnail just written belongs to nothing.
  if (!(await jobs.markReady(mediaId, outcome)) && outcome.thumbnailKey) await storage.delete(outcome.thumbnailKey);
}
