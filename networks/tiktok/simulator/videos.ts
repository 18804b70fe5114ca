// A video's upload: video/init with FILE_UPLOAD, then its chunks PUT in order to the upload_url.
import fs from 'node:fs';
import path from 'node:path';
import type { Router } from 'express';
import { randomBase62 } from '../../../domain/ids.ts';
import { creatorOf } from './creator.ts';
import { FAULTS, TiktokFault } from './faults.ts';
import { LIMITS } from './limits.ts';
import type { PublishData, TiktokSim } from './publishes.ts';
import { handle } from './wire.ts';

export function videoRoutes(router: Router, sim: TiktokSim): void {
  const { ctx, dir, creatorFor, checkPostInfo, admit, newPublish, reviewUntil } = sim;

  router.post(
    '/v2/post/publish/video/init/',
    handle(async (req) => {
      const creator = await creatorFor(req, 'video.publish');
      const { post_info: info = {}, source_info: source = {} } = req.body ?? {};
      await checkPostInfo(creator, info, LIMITS.videoTitleUnits);
      if (source.source !== 'FILE_UPLOAD') throw FAULTS.param('The sandbox simulates source FILE_UPLOAD for videos.');
      const size = Number(source.video_size);
      const chunkSize = Number(source.chunk_size);
      const chunks = Number(source.total_chunk_count);
      const { chunk } = LIMITS;
      if (!Number.isSafeInteger(size) || size <= 0) throw FAULTS.param('video_size must be the size in bytes.');
      if (
        size < chunk.min
          ? chunkSize !== size || chunks !== 1
          : chunkSize < chunk.min || chunkSize > Math.min(size, chunk.max)
      )
        throw FAULTS.param('chunk_size must be 5 MB to 64 MB, or the whole file when it is under 5 MB.');
      if (chunks !== Math.floor(size / chunkSize) || chunks > chunk.maxCount)
        throw FAULTS.param('total_chunk_count must be floor(video_size / chunk_size), at most 1000.');
      if (size - (chunks - 1) * chunkSize > chunk.lastMax) throw FAULTS.param('The last chunk may be at most 128 MB.');
      const failReason = await admit(creator);
      const item = await newPublish(creator, 'file', {
        mediaType: 'VIDEO',
        postInfo: info,
        size,
        chunkSize,
        chunks,
        received: 0,
        files: [],
        uploadExpiresMs: Date.now() + LIMITS.uploadUrlMs,
        ...(failReason ? { failReason } : {}),
      });
      return {
        publish_id: item.id,
        upload_url:
          `${ctx.base}/upload/?upload_id=${encodeURIComponent(item.id)}` + `&upload_token=${item.data.uploadToken}`,
      };
    }),
  );

  // The upload_url: the upload_token is its credential, as on TikTok; chunks arrive in order.
  router.put('/upload/', async (req, res, next) => {
    try {
      const item = await ctx.state.get<PublishData>(String(req.query.upload_id ?? ''));
      if (!item || item.data.uploadToken !== req.query.upload_token || item.data.mediaType !== 'VIDEO') {
        req.resume();
        throw new TiktokFault(404, 'upload_not_found', 'The upload_url is not valid.');
      }
      const d = item.data;
      if (d.uploadExpiresMs !== undefined && Date.now() > d.uploadExpiresMs) {
        req.resume();
        throw new TiktokFault(403, 'upload_url_expired', 'The upload_url has expired.');
      }
      const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(req.get('Content-Range') ?? '');
      const [first, last, total] = range ? [Number(range[1]), Number(range[2]), Number(range[3])] : [NaN, NaN, NaN];
      const index = Math.floor(first / d.chunkSize);
      const expectedLast = index === d.chunks - 1 ? d.size - 1 : first + d.chunkSize - 1;
      if (!range || total !== d.size || first % d.chunkSize !== 0 || index >= d.chunks || last !== expectedLast) {
        req.resume();
        throw new TiktokFault(416, 'invalid_range', 'Content-Range does not name a chunk of this upload.');
      }
      if (first > d.received) {
        req.resume();
        throw new TiktokFault(416, 'invalid_range', 'Chunks must be uploaded in order.');
      }
      if (first < d.received) {
        // A chunk sent again (a resumed upload): TikTok holds it already.
        req.resume();
        return res.status(d.received === d.size ? 201 : 206).end();
      }
      fs.mkdirSync(dir, { recursive: true });
      const name = d.files[0]?.name ?? `upload-${randomBase62(16)}.mp4`;
      const file = fs.createWriteStream(path.join(dir, name), { flags: first === 0 ? 'w' : 'a' });
      let bytes = 0;
      for await (const part of req as AsyncIterable<Buffer>) {
        bytes += part.length;
        if (!file.write(part)) await new Promise<void>((resolve) => file.once('drain', () => resolve()));
      }
      await new Promise<void>((resolve) => file.end(() => resolve()));
      if (bytes !== last - first + 1) throw FAULTS.param('The body is not as long as its Content-Range.');
      const received = last + 1;
      // Merged into the item as it is now: the body took a while, and what another call wrote meanwhile stays.
      await ctx.state.merge<PublishData>(item.id, {
        received,
        files: [{ kind: 'video', mime: 'video/mp4', name }],
        ...(received === d.size
          ? {
              readyMs: Date.now(),
              reviewUntilMs: reviewUntil(creatorOf(item.account, d.nickname), d.postInfo, Date.now()),
            }
          : {}),
      });
      res.status(received === d.size ? 201 : 206).end();
    } catch (err) {
      next(err);
    }
  });
}
