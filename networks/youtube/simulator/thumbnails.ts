// thumbnails.set (https://developers.google.com/youtube/v3/docs/thumbnails/set): a JPEG or PNG for a video
// of the channel, refused with 403 forbidden for an unverified channel.
import fs from 'node:fs';
import type express from 'express';
import type { YoutubeSim } from './channel.ts';
import { FAULTS, YoutubeFault } from './faults.ts';
import { youtubeSandboxLimits } from './limits.ts';
import { etag, type VideoData } from './resources.ts';

export function thumbnailRoutes(router: express.Router, { ctx, dir, thumbnailFile, channelOf }: YoutubeSim): void {
  router.post('/upload/youtube/v3/thumbnails/set', async (req, res) => {
    const channel = await channelOf(req);
    const video = await ctx.state.get<VideoData>(String(req.query.videoId ?? ''));
    if (!video || video.kind !== 'video' || video.account !== channel.id) throw new YoutubeFault(FAULTS.videoNotFound);
    if (!channel.verified) throw new YoutubeFault(FAULTS.thumbnailForbidden);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > youtubeSandboxLimits.thumbnailMaxBytes) {
        req.resume();
        throw new YoutubeFault(FAULTS.uploadTooLarge);
      }
      chunks.push(chunk);
    }
    const image = Buffer.concat(chunks);
    if (image.length === 0) throw new YoutubeFault(FAULTS.mediaBodyRequired);
    const jpeg = image[0] === 0xff && image[1] === 0xd8 && image[2] === 0xff;
    const png = image.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    if (!jpeg && !png) throw new YoutubeFault(FAULTS.invalidImage);
    await fs.promises.mkdir(dir, { recursive: true });
    await fs.promises.writeFile(thumbnailFile(video.id), image);
    await ctx.state.update<VideoData>(video.id, {
      data: { ...video.data, thumbnail: { contentType: jpeg ? 'image/jpeg' : 'image/png' } },
    });
    const url = `${ctx.base}/videos/${video.id}/thumbnail`;
    res.json({
      kind: 'youtube#thumbnailSetResponse',
      etag: etag(),
      items: [{ default: { url, width: 120, height: 90 }, high: { url, width: 480, height: 360 } }],
    });
  });
}
