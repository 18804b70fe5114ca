// The pages a person opens: an avatar, a post's files, the creator's profile and a post's own page.
import path from 'node:path';
import type { Router } from 'express';
import { escapeHtml } from '../../../domain/html.ts';
import type { PostData, TiktokSim } from './publishes.ts';

export function pageRoutes(router: Router, sim: TiktokSim): void {
  const { ctx, dir } = sim;

  router.get('/avatar/:id.svg', (req, res) => {
    const letter = escapeHtml(String(req.params.id).slice(-1).toUpperCase());
    res
      .type('image/svg+xml')
      .send(
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">' +
          '<circle cx="32" cy="32" r="32" fill="#111"/>' +
          `<text x="32" y="42" font-size="28" text-anchor="middle" fill="#fff">${letter}</text></svg>`,
      );
  });

  router.get('/files/:name', (req, res) => {
    res.sendFile(path.join(dir, path.basename(String(req.params.name))), (err) => {
      if (err && !res.headersSent) res.status(404).type('text/plain').send('No such file.');
    });
  });

  // The creator's profile: where a post TikTok never named (a private one) is found.
  router.get('/@:username', async (req, res) => {
    const username = String(req.params.username);
    const rows = await ctx
      .db('sandbox_items')
      .where({ network: 'tiktok', kind: 'post' })
      .orderBy('created_at', 'desc')
      .limit(1000)
      .select('id', 'data');
    const posts = rows
      .map((r: { id: string; data: string }) => ({ id: r.id, data: JSON.parse(r.data) as PostData }))
      .filter((p) => p.data.username === username);
    if (!posts.length)
      return res
        .status(404)
        .type('html')
        .send('<!doctype html><meta charset="utf-8"><p>Couldn\'t find this account.</p>');
    const items = posts
      .map(
        (p) =>
          `<li data-id="${p.id}" data-privacy="${escapeHtml(p.data.privacy)}">` +
          `${escapeHtml(p.data.mediaType === 'VIDEO' ? p.data.title : p.data.description)}</li>`,
      )
      .join('\n');
    res.type('html').send(`<!doctype html>
<html lang="en"><meta charset="utf-8"><title>@${escapeHtml(username)} on TikTok (sandbox)</title>
<p class="sandbox">TikTok sandbox: this profile exists only in Herald's simulator.</p>
<h1>@${escapeHtml(username)}</h1>
<ul>
${items}
</ul>
</html>`);
  });

  router.get('/@:username/:kind/:id', async (req, res) => {
    const post = await ctx.state.get<PostData>(String(req.params.id));
    const kind = post?.data.mediaType === 'VIDEO' ? 'video' : 'photo';
    if (!post || post.kind !== 'post' || req.params.kind !== kind || req.params.username !== post.data.username)
      return res
        .status(404)
        .type('html')
        .send('<!doctype html><meta charset="utf-8"><p>Video currently unavailable.</p>');
    await ctx.state.update<PostData>(post.id, { data: { ...post.data, views: post.data.views + 1 } });
    const media = post.data.files
      .map((f) =>
        f.kind === 'video'
          ? `<video src="${ctx.base}/files/${f.name}" controls playsinline></video>`
          : `<img src="${ctx.base}/files/${f.name}" alt="">`,
      )
      .join('\n');
    res.type('html').send(`<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(post.data.nickname)} on TikTok (sandbox)</title>
<style>body{font:16px/1.4 system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}
video,img{max-width:100%;display:block;margin:.5rem 0}.sandbox{color:#a40;font-size:.8em}</style>
<p class="sandbox">TikTok sandbox: this post exists only in Herald's simulator.</p>
<article data-network="tiktok" data-id="${post.id}" data-privacy="${escapeHtml(post.data.privacy)}">
<p><strong>${escapeHtml(post.data.nickname)}</strong> @${escapeHtml(post.data.username)}</p>
${media}
${post.data.mediaType === 'PHOTO' && post.data.title ? `<h1>${escapeHtml(post.data.title)}</h1>` : ''}
<p>${escapeHtml(post.data.mediaType === 'VIDEO' ? post.data.title : post.data.description)}</p>
</article>
</html>`);
  });
}
