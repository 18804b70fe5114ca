// The watch page at a video's address (and /shorts/ for Shorts), with the video's bytes and thumbnail.
import type express from 'express';
import type { Response } from 'express';
import { escapeHtml } from '../../../domain/html.ts';
import type { YoutubeSim } from './channel.ts';
import type { VideoData } from './resources.ts';

export function watchRoutes(router: express.Router, { ctx, bytesFile, thumbnailFile }: YoutubeSim): void {
  async function watchPage(res: Response, id: string, short: boolean): Promise<void> {
    const video = await ctx.state.get<VideoData>(id);
    if (!video || video.kind !== 'video') {
      res
        .status(404)
        .type('html')
        .send(
          '<!doctype html><meta charset="utf-8"><title>YouTube (sandbox)</title>' +
            "<p>This video isn't available anymore.</p>",
        );
      return;
    }
    const { snippet, status } = video.data;
    if (status.uploadStatus === 'processed')
      await ctx.state.update<VideoData>(video.id, { data: { ...video.data, views: video.data.views + 1 } });
    const poster = video.data.thumbnail ? ` poster="${ctx.base}/videos/${video.id}/thumbnail"` : '';
    const badges = `${short ? ' · Short' : ''}${status.selfDeclaredMadeForKids ? ' · Made for kids' : ''}`;
    const shownAt = `${snippet.publishedAt.replace('T', ' ').slice(0, 16)} UTC`;
    const published = `<time datetime="${snippet.publishedAt}">${shownAt}</time>`;
    // A private video plays for its channel only; the page a visitor opens says so, as YouTube's does.
    const player =
      status.uploadStatus === 'rejected'
        ? '<p class="removed">This video has been removed because it is too long.</p>'
        : status.privacyStatus === 'private'
          ? '<p class="private">Private video. This video is private: only its channel can watch it.</p>'
          : `<video src="${ctx.base}/videos/${video.id}/file" controls playsinline${poster}></video>`;
    res.type('html').send(`<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(snippet.title)} - YouTube (sandbox)</title>
<style>body{font:16px/1.4 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}
video{max-width:100%;display:block;background:#000}
.channel{font-weight:600}.meta{color:#666;font-size:.9em}.description{white-space:pre-wrap}
.sandbox{color:#a40;font-size:.8em}</style>
<p class="sandbox">YouTube sandbox: this video exists only in Herald's simulator.</p>
<article data-network="youtube" data-id="${video.id}"${short ? ' data-short="true"' : ''}>
${player}
<h1>${escapeHtml(snippet.title)}</h1>
<p class="channel">${escapeHtml(snippet.channelTitle)}</p>
<p class="meta"><span class="visibility">${escapeHtml(status.privacyStatus)}</span>${badges} · ${published}</p>
<p class="description">${escapeHtml(snippet.description)}</p>
</article>
</html>`);
  }

  router.get('/watch', (req, res) => watchPage(res, String(req.query.v ?? ''), false));
  router.get('/shorts/:id', (req, res) => watchPage(res, req.params.id!, true));

  router.get('/videos/:id/:file', async (req, res) => {
    const video = await ctx.state.get<VideoData>(req.params.id!);
    const thumbnail = req.params.file === 'thumbnail';
    if (!video || video.kind !== 'video' || (thumbnail ? !video.data.thumbnail : req.params.file !== 'file')) {
      res.status(404).end();
      return;
    }
    res.sendFile(thumbnail ? thumbnailFile(video.id) : bytesFile(video.data.session), {
      headers: { 'Content-Type': thumbnail ? video.data.thumbnail!.contentType : video.data.contentType },
    });
  });
}
