// The media sweep, run on a timer in the server process: reservations whose address expired become
// failed files, and retention deletes the bytes of published files 72 hours after their post went
// live, unless pinned or used by a draft or queued post. The record stays, with bytesDeletedAt.
// Every step re-checks its condition as it writes, so two sweeps at once (or twice) do no harm.
import type { MediaJobsData } from '../db/mediaData.ts';
import type { Storage } from '../storage/storage.ts';

export const RETENTION_HOURS = 72;

export interface SweepResult {
  /** Reservations that expired unused. */
  expired: number;
  /** Files whose bytes retention deleted. */
  released: string[];
}

/** Rows one statement of the sweep looks at: each batch is short, so it never holds locks for long. */
export const SWEEP_BATCH = 500;

export async function sweepMedia(jobs: MediaJobsData, storage: Storage, now = new Date()): Promise<SweepResult> {
  const at = now.toISOString();
  let expired = 0;
  for (;;) {
    const n = await jobs.failExpiredReservations(at, SWEEP_BATCH);
    expired += n;
    if (n < SWEEP_BATCH) break;
  }
  const cutoff = new Date(now.getTime() - RETENTION_HOURS * 3600_000).toISOString();
  const released: string[] = [];
  for (let after: string | null = ''; after !== null; ) {
    const batch = await jobs.retentionDueIds(cutoff, after, SWEEP_BATCH);
    for (const id of batch.ids) {
      const key = await jobs.releaseBytes(id, cutoff, at);
      if (!key) continue;
      // The record says the bytes are gone before they go: a crash here leaves an orphan object, never a
      // dangling record. By prefix: copies made from the original (a JPEG for Instagram) go too.
      await storage.deletePrefix(key);
      released.push(id);
    }
    after = batch.next;
  }
  return { expired, released };
}
