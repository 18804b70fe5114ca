// Media and folders of one workspace (see workspaceData.ts: every query here is scoped by workspace).
import type { Knex } from 'knex';
import type { Workspace } from '../domain/credential.ts';
import type { Db } from './connect.ts';
import { toBool, toCount } from './rows.ts';

export type MediaStatus = 'uploading' | 'processing' | 'ready' | 'failed';

/** A media row as the rest of the server reads it (the contract's Media, plus what only the server sees). */
export interface MediaRecord {
  id: string;
  status: MediaStatus;
  failReason: string | null;
  kind: 'image' | 'video' | null;
  filename: string;
  mime: string;
  size: number;
  folderId: string;
  pinned: boolean;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  frameRate: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  storageKey: string | null;
  thumbnailKey: string | null;
  bytesDeletedAt: string | null;
  createdAt: string;
}

export function toMediaRecord(row: Record<string, any>): MediaRecord {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: row.id, status: row.status, failReason: row.fail_reason ?? null, kind: row.kind ?? null, filename: row.filename,
    mime: row.mime, size: Number(row.size), folderId: row.folder_id, pinned: toBool(row.pinned), width: num(row.width),
    height: num(row.height), durationSeconds: num(row.duration_seconds), frameRate: num(row.frame_rate),
    videoCodec: row.video_codec ?? null, audioCodec: row.audio_codec ?? null, storageKey: row.storage_key ?? null,
    thumbnailKey: row.thumbnail_key ?? null, bytesDeletedAt: row.bytes_deleted_at ?? null, createdAt: row.created_at,
  };
}

export function mediaData(db: Db, workspace: Workspace) {
  const media = (q: Knex = db) => q('media').where('media.workspace_id', workspace.id);
  return {
    /** The records among `ids` that exist in this workspace, in the order asked. */
    getMany: async (ids: string[]): Promise<MediaRecord[]> => {
      if (ids.length === 0) return [];
      const rows = (await media().whereIn('id', ids)).map(toMediaRecord);
      return ids.flatMap((id) => rows.filter((r) => r.id === id));
    },
    /** Bytes held in storage: what counts toward the plan. */
    storageUsedBytes: async (): Promise<number> => toCount((await media().sum({ n: 'stored_bytes' }).first())?.n),
  };
}
