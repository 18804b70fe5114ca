// The media work of one server process: storing received bytes, processing files in the background
// (an in-process queue, two at a time), downloads from addresses, and the periodic sweep. The
// state lives in the media rows, so a restart picks up files left in processing.
import { pipeline, Transform, type Readable } from 'node:stream';
import type { Db } from '../db/connect.ts';
import { forgetOldEvents } from '../db/events.ts';
import { forgetOldDeliveries } from '../db/webhooksData.ts';
import { forgetExpiredKeys } from '../db/idempotencyKeys.ts';
import { mediaJobsData, type MediaRecord } from '../db/mediaData.ts';
import type { Logger } from '../runtime/logger.ts';
import type { Storage } from '../storage/storage.ts';
import type { RemoteFile } from './fromUrl.ts';
import { newOriginalKey } from './objectKeys.ts';
import { processMedia } from './processing.ts';
import { sweepMedia, type SweepResult } from './retention.ts';

/** Files processed at once; each runs ffprobe/ffmpeg or sharp, which use a core each. */
const PROCESSING_CONCURRENCY = 2;

/** `gone`: the file was deleted while its bytes were arriving. */
export type ReceiveOutcome = 'stored' | 'already_uploaded' | 'gone';

export class Interrupted extends Error {}

export function createMediaWork(deps: {
  db: Db;
  storage: Storage;
  logger: Logger;
  sweepEveryMs: number;
  downloadTimeoutMs: number;
}) {
  const { storage, logger } = deps;
  const jobs = mediaJobsData(deps.db);
  const inFlight = new Set<Promise<unknown>>();
  const waiting: string[] = [];
  const queued = new Set<string>();
  const downloads = new Set<AbortController>();
  let processing = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  /** Queues a file for processing (once, however often it is asked). */
  function enqueue(mediaId: string): void {
    if (stopped || queued.has(mediaId)) return;
    queued.add(mediaId);
    waiting.push(mediaId);
    drain();
  }

  function drain(): void {
    while (processing < PROCESSING_CONCURRENCY && waiting.length) {
      const id = waiting.shift()!;
      processing++;
      void track(
        processMedia({ jobs, storage }, id)
          .catch((err) =>
            logger.error(
              { err, mediaId: id },
              'media processing failed; the file stays in processing until the next sweep',
            ),
          )
          .finally(() => {
            processing--;
            queued.delete(id);
            drain();
          }),
      );
    }
  }

  /**
   * Stores a reservation's bytes and starts processing. `received` answers how many bytes arrived,
   * or undefined when the body ended early: then nothing is kept and the reservation stays open.
   */
  async function receive(
    record: MediaRecord,
    body: Readable,
    received: () => number | undefined,
  ): Promise<ReceiveOutcome> {
    const key = newOriginalKey(record);
    await storage.put(key, body, record.mime);
    const size = received();
    if (size === undefined) {
      await storage.delete(key);
      throw new Interrupted('the body ended before all its bytes arrived');
    }
    if (!(await jobs.commitBytes(record.id, key, size))) {
      await storage.delete(key);
      return (await jobs.get(record.id)) ? 'already_uploaded' : 'gone';
    }
    enqueue(record.id);
    return 'stored';
  }

  /**
   * Downloads an opened remote file into a reservation, in the background, within `maxBytes` and the download timeout.
   */
  function download(record: MediaRecord, remote: RemoteFile, maxBytes: number, stopDownload: AbortController): void {
    downloads.add(stopDownload);
    const deadline = setTimeout(() => stopDownload.abort(), deps.downloadTimeoutMs).unref();
    let bytes = 0;
    const limited = pipeline(
      remote.body,
      new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          done(
            bytes > maxBytes
              ? new Error(`the file is larger than ${maxBytes} bytes, the most this workspace can take`)
              : null,
            chunk,
          );
        },
      }),
      () => undefined,
    );
    void track(
      receive(record, limited, () => (remote.body.complete ? bytes : undefined))
        .catch(async (err) => {
          const why = stopDownload.signal.aborted
            ? `it took longer than ${deps.downloadTimeoutMs / 1000} seconds`
            : (err as Error).message;
          await jobs.markFailed(
            record.id,
            `The download from ${remote.url.host} stopped: ${why}. Try again, or upload the file with POST ` +
              `/media/uploads.`,
          );
        })
        .catch((err) => logger.error({ err, mediaId: record.id }, 'recording a failed download failed'))
        .finally(() => {
          clearTimeout(deadline);
          downloads.delete(stopDownload);
        }),
    );
  }

  async function sweep(now?: Date): Promise<SweepResult> {
    const result = await sweepMedia(jobs, storage, now);
    // The retention pass also forgets Idempotency-Key answers past their 24 hours, and events and webhook deliveries
    // past their 30 days.
    await forgetExpiredKeys(deps.db, (now ?? new Date()).getTime());
    await forgetOldEvents(deps.db, (now ?? new Date()).getTime());
    await forgetOldDeliveries(deps.db, (now ?? new Date()).getTime());
    // Files left in processing by a fault or a stopped process get another try.
    for (const id of await jobs.processingIds()) enqueue(id);
    return result;
  }

  return {
    jobs,
    enqueue,
    receive,
    download,
    sweep,

    /** Begins background work: files left in processing, then the sweep on its timer. */
    start(): void {
      if (stopped || timer || deps.sweepEveryMs === 0) return;
      const runSweep = () => void track(sweep().catch((err) => logger.error({ err }, 'media sweep failed')));
      runSweep();
      timer = setInterval(runSweep, deps.sweepEveryMs).unref();
    },

    /** Resolves once no processing, download or sweep is running or queued. */
    async whenIdle(): Promise<void> {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },

    /** Stops the timer, abandons downloads (their files fail) and waits for the rest to finish. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      for (const controller of downloads) controller.abort();
      waiting.length = 0;
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
  };
}

export type MediaWork = ReturnType<typeof createMediaWork>;
