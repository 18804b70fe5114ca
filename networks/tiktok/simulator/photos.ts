// Photos: content/init pulls them from their addresses on Herald's own origin and checks them as TikTok does.
import path from 'node:path';
import type { Router } from 'express';
import { loadSharp } from '../../../media/sharp.ts';
import { fetchMedia, type StoredFile } from '../../sandbox/files.ts';
import { FAULTS } from './faults.ts';
import { LIMITS } from './limits.ts';
import type { TiktokSim } from './publishes.ts';
import { handle } from './wire.ts';

/** A photo within 1080p, either way round. */
async function within1080p(file: string): Promise<boolean> {
  const sharp = await loadSharp();
  const { width = 0, height = 0, orientation = 1 } = await sharp(file).metadata();
  const [w, h] = orientation >= 5 ? [height, width] : [width, height];
  return Math.min(w, h) <= LIMITS.photoSides.short && Math.max(w, h) <= LIMITS.photoSides.long;
}

export function photoRoutes(router: Router, sim: TiktokSim): void {
  const { ctx, dir, creatorFor, checkPostInfo, admit, newPublish, reviewUntil } = sim;

  router.post(
    '/v2/post/publish/content/init/',
    handle(async (req) => {
      const creator = await creatorFor(req, 'video.publish');
      const { post_info: info = {}, source_info: source = {}, media_type, post_mode } = req.body ?? {};
      if (media_type !== 'PHOTO' || post_mode !== 'DIRECT_POST')
        throw FAULTS.param('The sandbox simulates media_type PHOTO with post_mode DIRECT_POST.');
      await checkPostInfo(creator, info, LIMITS.photoTitleUnits);
      if (String(info.description ?? '').length > LIMITS.photoDescriptionUnits)
        throw FAULTS.param(`description is longer than ${LIMITS.photoDescriptionUnits} runes.`);
      const urls: unknown[] = Array.isArray(source.photo_images) ? source.photo_images : [];
      if (source.source !== 'PULL_FROM_URL' || urls.length < LIMITS.photos.min || urls.length > LIMITS.photos.max)
        throw FAULTS.param('source_info needs source PULL_FROM_URL and 1 to 35 photo_images.');
      for (const url of urls) {
        let origin: string | undefined;
        try {
          origin = new URL(String(url)).origin;
        } catch {
          origin = undefined;
        }
        if (origin !== new URL(ctx.appUrl).origin) throw FAULTS.unverified(String(url));
      }
      let failReason = await admit(creator);
      const files: StoredFile[] = [];
      for (const url of urls) {
        const file = await fetchMedia(ctx, 'tiktok', String(url), 'image');
        if (typeof file === 'string') failReason ??= 'photo_pull_failed';
        else if (!['image/jpeg', 'image/webp'].includes(file.mime)) failReason ??= 'file_format_check_failed';
        else if (!(await within1080p(path.join(dir, file.name)))) failReason ??= 'picture_size_check_failed';
        else files.push(file);
      }
      const readyMs = Date.now();
      const item = await newPublish(creator, 'url', {
        mediaType: 'PHOTO',
        postInfo: info,
        size: 0,
        chunkSize: 0,
        chunks: 0,
        received: 0,
        files,
        readyMs,
        reviewUntilMs: reviewUntil(creator, info, readyMs),
        ...(failReason ? { failReason } : {}),
      });
      return { publish_id: item.id };
    }),
  );
}
