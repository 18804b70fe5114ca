// The resources the YouTube simulator keeps (upload sessions, videos, playlists) and how the Data API
// shows them: https://developers.google.com/youtube/v3/docs/videos and .../docs/playlistItems.
import type { Request } from 'express';
import { randomBase62 } from '../../../domain/ids.ts';
import type { SandboxItem } from '../../sandbox/state.ts';

export interface Channel {
  id: string;
  name: string;
  verified: boolean;
}

export interface VideoSnippet {
  title: string;
  description: string;
  tags?: string[];
  categoryId: string;
}

export interface VideoStatus {
  privacyStatus: string;
  selfDeclaredMadeForKids: boolean;
}

export interface SessionData extends Record<string, unknown> {
  total: number;
  contentType: string;
  received: number;
  snippet: VideoSnippet;
  status: VideoStatus;
  parts: string;
  /** Taken from a queued `unverified` failure: the finished video comes back rejected for its length. */
  rejectForLength: boolean;
  videoId?: string;
}

export interface VideoData extends Record<string, unknown> {
  snippet: VideoSnippet & { publishedAt: string; channelTitle: string };
  status: VideoStatus & { uploadStatus: 'processed' | 'rejected'; rejectionReason?: string };
  contentType: string;
  size: number;
  /** The upload session: its bytes file holds the video. */
  session: string;
  views: number;
  thumbnail?: { contentType: string };
}

export interface PlaylistData extends Record<string, unknown> {
  title: string;
  privacyStatus: string;
  videoIds: string[];
}

export const etag = () => randomBase62(27);
export const uploadsPlaylistOf = (channel: string) => `UU${channel}`;

export function videoResource(base: string, item: SandboxItem<VideoData>, parts: string[]) {
  const { snippet, status } = item.data;
  return {
    kind: 'youtube#video',
    etag: etag(),
    id: item.id,
    ...(parts.includes('snippet')
      ? {
          snippet: {
            publishedAt: snippet.publishedAt,
            channelId: item.account,
            title: snippet.title,
            description: snippet.description,
            thumbnails: { default: { url: `${base}/videos/${item.id}/thumbnail`, width: 120, height: 90 } },
            channelTitle: snippet.channelTitle,
            ...(snippet.tags ? { tags: snippet.tags } : {}),
            categoryId: snippet.categoryId,
            liveBroadcastContent: 'none',
            localized: { title: snippet.title, description: snippet.description },
          },
        }
      : {}),
    ...(parts.includes('status')
      ? {
          status: {
            uploadStatus: status.uploadStatus,
            ...(status.rejectionReason ? { rejectionReason: status.rejectionReason } : {}),
            privacyStatus: status.privacyStatus,
            license: 'youtube',
            embeddable: true,
            publicStatsViewable: true,
            madeForKids: status.selfDeclaredMadeForKids,
            selfDeclaredMadeForKids: status.selfDeclaredMadeForKids,
          },
        }
      : {}),
    ...(parts.includes('statistics')
      ? { statistics: { viewCount: String(item.data.views), likeCount: '0', favoriteCount: '0', commentCount: '0' } }
      : {}),
  };
}

export const partsOf = (req: Request) =>
  String(req.query.part ?? '')
    .split(',')
    .map((p) => p.trim());

export function playlistItem(playlistId: string, position: number, video: SandboxItem<VideoData>, addedAt: string) {
  const { title, description, channelTitle, publishedAt } = video.data.snippet;
  return {
    kind: 'youtube#playlistItem',
    etag: etag(),
    id: randomBase62(40),
    snippet: {
      publishedAt: addedAt,
      channelId: video.account,
      title,
      description,
      channelTitle,
      playlistId,
      position,
      resourceId: { kind: 'youtube#video', videoId: video.id },
      videoOwnerChannelTitle: channelTitle,
      videoOwnerChannelId: video.account,
    },
    contentDetails: { videoId: video.id, videoPublishedAt: publishedAt },
    status: { privacyStatus: video.data.status.privacyStatus },
  };
}
