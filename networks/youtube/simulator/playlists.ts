// Playlists: playlists.insert, playlistItems.insert (not idempotent: a repeat answers videoAlreadyInPlaylist)
// and playlistItems.list, including the channel's uploads playlist.
import express from 'express';
import { nowIso } from '../../../db/rows.ts';
import { randomBase62 } from '../../../domain/ids.ts';
import type { YoutubeSim } from './channel.ts';
import { fault, FAULTS, YoutubeFault } from './faults.ts';
import { youtubeSandboxLimits } from './limits.ts';
import { etag, playlistItem, uploadsPlaylistOf, type PlaylistData, type VideoData } from './resources.ts';

export function playlistRoutes(router: express.Router, { ctx, channelOf }: YoutubeSim): void {
  router.post('/youtube/v3/playlists', express.json({ limit: '1mb' }), async (req, res) => {
    const channel = await channelOf(req);
    const title = req.body?.snippet?.title;
    if (typeof title !== 'string' || !title.trim())
      throw new YoutubeFault(
        fault(400, 'playlistTitleRequired', 'The request must specify a playlist title.', 'youtube.playlist'),
      );
    const playlist = await ctx.state.create<PlaylistData>({
      id: `PL${randomBase62(32)}`,
      account: channel.id,
      kind: 'playlist',
      status: 'ok',
      data: { title, privacyStatus: req.body?.status?.privacyStatus ?? 'public', videoIds: [] },
    });
    res.json({
      kind: 'youtube#playlist',
      etag: etag(),
      id: playlist.id,
      snippet: { publishedAt: playlist.createdAt, channelId: channel.id, title, channelTitle: channel.name },
      status: { privacyStatus: playlist.data.privacyStatus },
    });
  });

  router.post('/youtube/v3/playlistItems', express.json({ limit: '1mb' }), async (req, res) => {
    const channel = await channelOf(req);
    const playlistId = req.body?.snippet?.playlistId;
    const videoId = req.body?.snippet?.resourceId?.videoId;
    if (typeof playlistId !== 'string' || !playlistId) throw new YoutubeFault(FAULTS.playlistIdRequired);
    const playlist = await ctx.state.get<PlaylistData>(playlistId);
    if (!playlist || playlist.kind !== 'playlist') throw new YoutubeFault(FAULTS.playlistNotFound);
    if (playlist.account !== channel.id) throw new YoutubeFault(FAULTS.playlistItemsNotAccessible);
    const video = typeof videoId === 'string' ? await ctx.state.get<VideoData>(videoId) : undefined;
    if (!video || video.kind !== 'video') throw new YoutubeFault(FAULTS.playlistVideoNotFound);
    if (playlist.data.videoIds.includes(video.id)) throw new YoutubeFault(FAULTS.videoAlreadyInPlaylist);
    if (playlist.data.videoIds.length >= youtubeSandboxLimits.playlistMaxItems)
      throw new YoutubeFault(FAULTS.playlistFull);
    await ctx.state.update<PlaylistData>(playlist.id, {
      data: { ...playlist.data, videoIds: [...playlist.data.videoIds, video.id] },
    });
    res.json(playlistItem(playlist.id, playlist.data.videoIds.length, video, nowIso()));
  });

  // playlistItems.list: a playlist of the channel, or its uploads playlist (newest first, private videos included
  // for the owner).
  router.get('/youtube/v3/playlistItems', async (req, res) => {
    const channel = await channelOf(req);
    const playlistId = String(req.query.playlistId ?? '');
    if (!playlistId) throw new YoutubeFault(FAULTS.playlistIdRequired);
    const max = Math.min(50, Math.max(0, Number(req.query.maxResults ?? 5) || 5));
    let items: ReturnType<typeof playlistItem>[];
    if (playlistId === uploadsPlaylistOf(channel.id)) {
      const videos = await ctx.state.list<VideoData>(channel.id, 'video', max);
      items = videos.map((v, i) => playlistItem(playlistId, i, v, v.data.snippet.publishedAt));
    } else {
      const playlist = await ctx.state.get<PlaylistData>(playlistId);
      if (!playlist || playlist.kind !== 'playlist') throw new YoutubeFault(FAULTS.playlistNotFound);
      const videos = await Promise.all(playlist.data.videoIds.slice(0, max).map((id) => ctx.state.get<VideoData>(id)));
      items = videos.flatMap((v, i) => (v ? [playlistItem(playlistId, i, v, playlist.updatedAt)] : []));
    }
    res.json({
      kind: 'youtube#playlistItemListResponse',
      etag: etag(),
      items,
      pageInfo: { totalResults: items.length, resultsPerPage: max },
    });
  });
}
