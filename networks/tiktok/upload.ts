// A video's bytes through FILE_UPLOAD: video/init names the chunking, then each chunk is PUT to the
// upload_url in order with its Content-Range, streamed from storage (one chunk's bytes at a time, never
// the file). A crashed attempt resumes from the chunk TikTok holds (status/fetch's uploaded_bytes).
// TikTok's rules: a file under 5 MB goes in one piece; otherwise chunks of 5 to 64 MB, at most 1,000 of
// them, total_chunk_count = floor(size / chunk_size), the last chunk taking the rest (up to 128 MB).
// https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide
import type { Readable } from 'node:stream';
import { NetworkError, type PublishJob, type PublishMedia } from '../connector.ts';
import { refusal, type TiktokApi } from './api.ts';

const MB = 1024 * 1024;
const MIN_CHUNK = 5 * MB;
const MAX_CHUNKS = 1000;
/** Tries of one chunk after a server error or a dropped connection, before the worker's own retries. */
const CHUNK_RETRIES = 4;

/** The chunking TikTok accepts for a file of `size` bytes: the smallest chunks it allows, within 1,000. */
export function chunkPlan(size: number): { chunkSize: number; chunks: number } {
  if (size < 2 * MIN_CHUNK) return { chunkSize: size, chunks: 1 };
  const chunkSize = Math.max(MIN_CHUNK, Math.ceil(size / MAX_CHUNKS));
  return { chunkSize, chunks: Math.floor(size / chunkSize) };
}

/** First and last byte (inclusive) of chunk `i`; the last chunk takes the rest of the file. */
function chunkRange(i: number, plan: { chunkSize: number; chunks: number }, size: number): [number, number] {
  const first = i * plan.chunkSize;
  return [first, i === plan.chunks - 1 ? size - 1 : first + plan.chunkSize - 1];
}

/** A file stream as a request body: Node's fetch sends any async iterable of bytes, which its types leave out. */
const streamed = (stream: Readable) => stream as unknown as RequestInit['body'];

/** PUTs one chunk; 206 takes it (more to come), 201 completes the file. */
async function putChunk(
  api: TiktokApi,
  uploadUrl: string,
  video: PublishMedia,
  [first, last]: [number, number],
): Promise<Response> {
  const body = await video.open({ start: first, end: last });
  try {
    return await api.send(uploadUrl, {
      method: 'PUT',
      body: streamed(body),
      duplex: 'half',
      headers: {
        'Content-Type': video.mime,
        'Content-Length': String(last - first + 1),
        'Content-Range': `bytes ${first}-${last}/${video.size}`,
      },
    });
  } finally {
    body.destroy();
  }
}

/**
 * Sends chunks `from` onwards, each tried again after a server error or a drop. Answers false when the
 * upload_url is gone (TikTok keeps it about an hour, then answers 403): the caller starts a new upload,
 * which is safe, as a publish whose bytes never all arrived makes no post.
 * https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide (read 2026-11-29)
 */
export async function sendChunks(
  api: TiktokApi,
  job: PublishJob,
  video: PublishMedia,
  upload: { uploadUrl: string; chunkSize: number; chunks: number },
  from: number,
  /** Records each chunk TikTok took, before the next is sent. */
  sent: (chunks: number) => Promise<void>,
): Promise<boolean> {
  for (let i = from; i < upload.chunks; i++) {
    for (let failures = 0; ; failures++) {
      let problem: NetworkError;
      try {
        const res = await putChunk(api, upload.uploadUrl, video, chunkRange(i, upload, video.size));
        if (res.status === 201 || res.status === 206 || res.status === 200) {
          await res.body?.cancel();
          await sent(i + 1);
          break;
        }
        // An expired upload_url answers 403 (the media-transfer guide); 404 and 410 say the same.
        if (res.status === 403 || res.status === 404 || res.status === 410) {
          await res.body?.cancel();
          return false;
        }
        problem = refusal(res.status, await res.json().catch(() => undefined));
      } catch (err) {
        if (!(err instanceof NetworkError)) throw err;
        problem = err;
      }
      if (problem.kind !== 'unavailable' || failures >= CHUNK_RETRIES) throw problem;
      await job.sleep(1000 * 2 ** failures);
    }
  }
  return true;
}

/** The chunk to send next, from the bytes TikTok says it holds (whole chunks only). */
export const chunkReached = (uploadedBytes: number, chunkSize: number, chunks: number) =>
  Math.min(Math.floor(uploadedBytes / chunkSize), chunks);
