// Media and folders. `mediaData` is one workspace's view (see workspaceData.ts: every query in it is
// scoped by workspace); `mediaJobsData` is for work that starts from a media id the server itself
// vouches for (a signed upload address, the processing queue, retention), across workspaces.
import type { Knex } from 'knex';
import type { Workspace } from '../domain/credential.ts';
import { newId } from '../domain/ids.ts';
import type { FileFacts, MediaKind } from '../domain/mediaTypes.ts';
import { PLANS } from '../domain/plans.ts';
import { assertFileFits } from '../domain/quotas.ts';
import type { Db } from './connect.ts';
import { recordEvents } from './events.ts';
import { lockWorkspace } from './locks.ts';
import { nowIso, toBool, toCount } from './rows.ts';
import { usageCounter } from './usage.ts';
import type { StoredChange } from './postRecords.ts';

export type MediaStatus = 'uploading' | 'processing' | 'ready' | 'failed';

/** A media row as the rest of the server reads it (the contract's Media, plus what only the server sees). */
export interface MediaRecord {
  id: string;
  workspaceId: string;
  status: MediaStatus;
  failReason: string | null;
  kind: MediaKind | null;
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
  uploadExpiresAt: string | null;
  uploadedAt: string | null;
  sourceUrl: string | null;
  bytesDeletedAt: string | null;
  createdAt: string;
}

export function toMediaRecord(row: Record<string, any>): MediaRecord {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    status: row.status,
    failReason: row.fail_reason ?? null,
    kind: row.kind ?? null,
    filename: row.filename,
    mime: row.mime,
    size: Number(row.size),
    folderId: row.folder_id,
    pinned: toBool(row.pinned),
    width: num(row.width),
    height: num(row.height),
    durationSeconds: num(row.duration_seconds),
    frameRate: num(row.frame_rate),
    videoCodec: row.video_codec ?? null,
    audioCodec: row.audio_codec ?? null,
    storageKey: row.storage_key ?? null,
    thumbnailKey: row.thumbnail_key ?? null,
    uploadExpiresAt: row.upload_expires_at ?? null,
    uploadedAt: row.uploaded_at ?? null,
    sourceUrl: row.source_url ?? null,
    bytesDeletedAt: row.bytes_deleted_at ?? null,
    createdAt: row.created_at,
  };
}

export interface FolderRecord {
  id: string;
  name: string;
  parentId: string | null;
  isRoot: boolean;
  createdAt: string;
}

function toFolder(row: Record<string, any>): FolderRecord {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id ?? null,
    isRoot: toBool(row.is_root),
    createdAt: row.created_at,
  };
}

export interface NewMedia {
  filename: string;
  mime: string;
  kind: MediaKind | null;
  /** Exact size; undefined when unknown (a download without Content-Length), see reserve. */
  size: number | undefined;
  folderId: string;
  /** Until when the reservation holds storage (the upload address's expiry, or the download's deadline). */
  holdUntil: string;
  sourceUrl?: string;
}

/** What processing learned from the bytes, and where it put the thumbnail. */
export type MediaFacts = FileFacts & { thumbnailKey: string | null };

/** A position in the newest-first media list: the last item of the previous page. */
export interface MediaPosition {
  createdAt: string;
  id: string;
}

/**
 * Bytes that count against the storage limit when deciding on a new file: bytes stored, plus the
 * size of every reservation whose upload or download may still arrive.
 */
async function committedBytes(q: Knex, workspaceId: string, now: string): Promise<number> {
  const reserved = await q('media')
    .where({ workspace_id: workspaceId, status: 'uploading' })
    .where('upload_expires_at', '>', now)
    .sum({ n: 'size' })
    .first();
  return (await usageCounter(q, workspaceId, 'storage_bytes')) + toCount(reserved?.n);
}

/**
 * The draft or queued posts of a workspace that use a file (empty when none). Works before the
 * posts tables exist, so media can ship on its own.
 */
export async function mediaInUse(db: Knex, workspaceId: string, mediaId: string): Promise<string[]> {
  if (!(await db.schema.hasTable('post_media'))) return [];
  const rows = await db('post_media')
    .join('posts', 'posts.id', 'post_media.post_id')
    .where({
      'post_media.workspace_id': workspaceId,
      'post_media.media_id': mediaId,
      'posts.workspace_id': workspaceId,
    })
    .whereIn('posts.status', ['draft', 'queued'])
    .distinct('posts.id')
    .orderBy('posts.id');
  // A change waiting for approval beside a queued post may name files the post does not use yet: approving it
  // must find them (ids are base62 with one `_`, which LIKE matches as any character; the JSON check is exact).
  const waiting: { id: string; pending_change: string }[] = await db('posts')
    .where({ workspace_id: workspaceId })
    .whereIn('status', ['draft', 'queued'])
    .where('pending_change', 'like', `%"${mediaId}"%`)
    .select('id', 'pending_change');
  const named = waiting.filter((r) => {
    const change = JSON.parse(r.pending_change) as StoredChange;
    return change.mediaIds?.includes(mediaId) || JSON.stringify(change.perPlatform ?? {}).includes(`"${mediaId}"`);
  });
  return [...new Set([...rows.map((r) => r.id as string), ...named.map((r) => r.id)])].sort();
}

export function mediaData(db: Db, workspace: Workspace) {
  const wsId = workspace.id;
  const media = (q: Knex = db) => q('media').where('media.workspace_id', wsId);
  const folders = (q: Knex = db) => q('folders').where('folders.workspace_id', wsId);

  async function getFolder(q: Knex, id: string): Promise<FolderRecord | undefined> {
    const row = await folders(q).where({ id }).first();
    return row ? toFolder(row) : undefined;
  }

  return {
    /** The records among `ids` that exist in this workspace, in the order asked. */
    getMany: async (ids: string[]): Promise<MediaRecord[]> => {
      if (ids.length === 0) return [];
      const rows = (await media().whereIn('id', ids)).map(toMediaRecord);
      return ids.flatMap((id) => rows.filter((r) => r.id === id));
    },

    get: async (id: string): Promise<MediaRecord | undefined> => {
      const row = await media().where({ id }).first();
      return row ? toMediaRecord(row) : undefined;
    },

    /** Newest first; `after` continues from the last item of a previous page. */
    list: async (filter: {
      folderId?: string;
      status?: MediaStatus;
      after?: MediaPosition;
      limit: number;
    }): Promise<MediaRecord[]> => {
      const q = media();
      if (filter.folderId) q.where('folder_id', filter.folderId);
      if (filter.status) q.where('status', filter.status);
      if (filter.after) {
        const { createdAt, id } = filter.after;
        q.where((w) =>
          w.where('created_at', '<', createdAt).orWhere((t) => t.where('created_at', createdAt).where('id', '<', id)),
        );
      }
      return (
        await q
          .orderBy([
            { column: 'created_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(filter.limit)
      ).map(toMediaRecord);
    },

    /**
     * Reserves storage for a new file, refusing one over the plan's limits (atomically, see
     * committedBytes). A file of unknown size holds as much as one file may take, or what storage
     * has left if that is less; its real size replaces the hold once the bytes arrived.
     */
    reserve: (input: NewMedia) =>
      db.transaction(async (trx) => {
        await lockWorkspace(trx, wsId);
        const now = nowIso();
        const committed = await committedBytes(trx, wsId, now);
        const { maxFileBytes, storageBytes } = PLANS[workspace.plan];
        const size = input.size ?? Math.max(1, Math.min(maxFileBytes, storageBytes - committed));
        assertFileFits(workspace.plan, size, committed);
        const id = newId('med');
        await trx('media').insert({
          id,
          workspace_id: wsId,
          folder_id: input.folderId,
          status: 'uploading' satisfies MediaStatus,
          filename: input.filename,
          mime: input.mime,
          kind: input.kind,
          size,
          stored_bytes: 0,
          upload_expires_at: input.holdUntil,
          source_url: input.sourceUrl ?? null,
          pinned: 0,
          created_at: now,
          updated_at: now,
        });
        return toMediaRecord((await trx('media').where({ id }).first())!);
      }),

    // Every write here is in a transaction: an idempotent request's answer commits with it.
    update: (id: string, changes: { folderId?: string; pinned?: boolean }): Promise<MediaRecord | undefined> =>
      db.transaction(async (trx) => {
        const cols: Record<string, unknown> = { updated_at: nowIso() };
        if (changes.folderId !== undefined) cols.folder_id = changes.folderId;
        if (changes.pinned !== undefined) cols.pinned = changes.pinned ? 1 : 0;
        await media(trx).where({ id }).update(cols);
        const row = await media(trx).where({ id }).first();
        return row ? toMediaRecord(row) : undefined;
      }),

    /**
     * Deletes the record unless a draft or queued post uses it; answers the posts in the way, or
     * the deleted record (whose bytes the caller then removes). Live and failed posts keep the id
     * in their own list of files; only their link rows go.
     */
    remove: (id: string) =>
      db.transaction(async (trx): Promise<{ usedBy: string[] } | { removed: MediaRecord | undefined }> => {
        await lockWorkspace(trx, wsId);
        const row = await media(trx).where({ id }).first();
        if (!row) return { removed: undefined };
        const usedBy = await mediaInUse(trx, wsId, id);
        if (usedBy.length) return { usedBy };
        if (await trx.schema.hasTable('post_media'))
          await trx('post_media').where({ workspace_id: wsId, media_id: id }).delete();
        await media(trx).where({ id }).delete();
        return { removed: toMediaRecord(row) };
      }),

    folders: {
      /** Root first, then by name. */
      list: async (): Promise<FolderRecord[]> =>
        (await folders().orderBy([{ column: 'is_root', order: 'desc' }, 'name', 'created_at', 'id'])).map(toFolder),
      get: (id: string) => getFolder(db, id),
      root: async (): Promise<FolderRecord> => toFolder(await folders().where({ is_root: 1 }).first()),
      create: (name: string, parentId: string): Promise<FolderRecord> =>
        db.transaction(async (trx) => {
          const folder = {
            id: newId('fld'),
            workspace_id: wsId,
            parent_id: parentId,
            name,
            is_root: 0,
            created_at: nowIso(),
          };
          await trx('folders').insert(folder);
          return toFolder(folder);
        }),
      update: (id: string, changes: { name?: string; parentId?: string }): Promise<FolderRecord | undefined> =>
        db.transaction(async (trx) => {
          const cols: Record<string, unknown> = {};
          if (changes.name !== undefined) cols.name = changes.name;
          if (changes.parentId !== undefined) cols.parent_id = changes.parentId;
          if (Object.keys(cols).length) await folders(trx).where({ id }).update(cols);
          return getFolder(trx, id);
        }),
      /** How many files and folders lie directly in a folder. */
      contents: async (id: string): Promise<{ files: number; folders: number }> => {
        const row = await db.first(
          media().where('folder_id', id).count('*').as('files'),
          folders().where('parent_id', id).count('*').as('folders'),
        );
        return { files: toCount(row?.files), folders: toCount(row?.folders) };
      },
      /** Deletes a folder only while it is still empty (checked in the same transaction). */
      removeIfEmpty: (id: string) =>
        db.transaction(async (trx): Promise<boolean> => {
          await lockWorkspace(trx, wsId);
          const busy = await trx.first(
            media(trx).where('folder_id', id).count('*').as('files'),
            folders(trx).where('parent_id', id).count('*').as('folders'),
          );
          if (toCount(busy?.files) + toCount(busy?.folders) > 0) return false;
          return (await folders(trx).where({ id, is_root: 0 }).delete()) > 0;
        }),
    },
  };
}

export type MediaData = ReturnType<typeof mediaData>;

/** Media rows by id, for the upload address, processing and retention (not for handlers). */
export function mediaJobsData(db: Db) {
  const byId = (id: string) => db('media').where({ id });

  return {
    get: async (id: string): Promise<MediaRecord | undefined> => {
      const row = await byId(id).first();
      return row ? toMediaRecord(row) : undefined;
    },

    /**
     * Records that the bytes arrived at `storageKey`: they now count as stored, and processing may
     * start. False when another upload of the same reservation got there first.
     */
    commitBytes: async (id: string, storageKey: string, size: number): Promise<boolean> => {
      const now = nowIso();
      const n = await byId(id).whereNull('uploaded_at').where('status', 'uploading').update({
        storage_key: storageKey,
        size,
        stored_bytes: size,
        status: 'processing',
        uploaded_at: now,
        updated_at: now,
      });
      return n > 0;
    },

    /** Ids of files whose processing had started when the server stopped. */
    processingIds: async (): Promise<string[]> =>
      (await db('media').where('status', 'processing').select('id')).map((r) => r.id as string),

    markReady: (id: string, facts: MediaFacts) =>
      db.transaction(async (trx): Promise<boolean> => {
        const row = await trx('media').where({ id, status: 'processing' }).first('workspace_id');
        if (!row) return false;
        const now = nowIso();
        const n = await trx('media').where({ id, status: 'processing' }).update({
          status: 'ready',
          kind: facts.kind,
          mime: facts.mime,
          width: facts.width,
          height: facts.height,
          duration_seconds: facts.durationSeconds,
          frame_rate: facts.frameRate,
          video_codec: facts.videoCodec,
          audio_codec: facts.audioCodec,
          thumbnail_key: facts.thumbnailKey,
          fail_reason: null,
          updated_at: now,
        });
        if (n) await recordEvents(trx, [{ workspaceId: row.workspace_id, type: 'media.ready', objectId: id }], now);
        return n > 0;
      }),

    /**
     * A file that will never be ready. Its bytes are of no use to any post, so they stop counting;
     * answers the key whose object the caller deletes.
     */
    markFailed: (id: string, reason: string) =>
      db.transaction(async (trx): Promise<string | null> => {
        const row = await trx('media')
          .where({ id })
          .whereIn('status', ['uploading', 'processing'])
          .first('storage_key', 'workspace_id');
        if (!row) return null;
        const now = nowIso();
        await trx('media')
          .where({ id })
          .update({ status: 'failed', fail_reason: reason, storage_key: null, stored_bytes: 0, updated_at: now });
        await recordEvents(trx, [{ workspaceId: row.workspace_id, type: 'media.failed', objectId: id }], now);
        return row.storage_key ?? null;
      }),

    /** Reservations whose address expired before any byte arrived become failed files; they hold no storage. */
    /** At most `limit` expired reservations become failed files, in one short statement; answers how many. */
    failExpiredReservations: (now: string, limit: number) =>
      db.transaction(async (trx): Promise<number> => {
        const expired: { id: string; workspace_id: string }[] = await trx('media')
          .where('status', 'uploading')
          .whereNull('uploaded_at')
          .where('upload_expires_at', '<=', now)
          .select('id', 'workspace_id')
          .limit(limit);
        if (!expired.length) return 0;
        const failed: { id: string; workspace_id: string }[] = await trx('media')
          .whereIn(
            'id',
            expired.map((r) => r.id),
          )
          .where('status', 'uploading')
          .whereNull('uploaded_at')
          .update({
            status: 'failed',
            updated_at: now,
            fail_reason:
              'No bytes arrived before the upload address expired. Reserve a new upload with POST /media/uploads.',
          })
          .returning(['id', 'workspace_id']);
        const events = failed.map((r) => ({
          workspaceId: r.workspace_id,
          type: 'media.failed' as const,
          objectId: r.id,
        }));
        await recordEvents(trx, events, now);
        return failed.length;
      }),

    /**
     * Ids of files whose bytes retention may delete now (see retentionDue), among the next `limit` files
     * with bytes after `after` in id order; `next` is where the following batch starts (null: the end).
     */
    retentionDueIds: async (
      cutoff: string,
      after: string,
      limit: number,
    ): Promise<{ ids: string[]; next: string | null }> => {
      if (!(await db.schema.hasTable('post_media'))) return { ids: [], next: null };
      const window: string[] = await db('media')
        .whereNotNull('storage_key')
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit)
        .pluck('id');
      if (!window.length) return { ids: [], next: null };
      const ids: string[] = await retentionDue(db, cutoff)
        .whereIn('media.id', window)
        .orderBy('media.id')
        .pluck('media.id');
      return { ids, next: window.length < limit ? null : window.at(-1)! };
    },

    /**
     * Deletes the record of a file's bytes if retention is still due for it, checked again under
     * the workspace lock (a post may have taken the file meanwhile). Answers the key whose object
     * the caller deletes, or null when nothing was due: running twice is safe.
     */
    releaseBytes: (id: string, cutoff: string, now: string) =>
      db.transaction(async (trx): Promise<string | null> => {
        const found = await trx('media').where({ id }).first('workspace_id');
        if (!found) return null;
        await lockWorkspace(trx, found.workspace_id);
        const row = await retentionDue(trx, cutoff).where('media.id', id).first('media.storage_key');
        if (!row) return null;
        await trx('media')
          .where({ id })
          .update({ storage_key: null, stored_bytes: 0, bytes_deleted_at: now, updated_at: now });
        return row.storage_key;
      }),
  };
}

/**
 * Retention: files with bytes, not pinned, used by a post that went live, the most recent of them
 * at or before `cutoff` (72 hours ago), and used by no draft or queued post.
 */
function retentionDue(q: Knex, cutoff: string) {
  const postsUsing = (statuses: string[]) =>
    q('post_media')
      .join('posts', 'posts.id', 'post_media.post_id')
      .whereRaw('post_media.media_id = media.id')
      .whereIn('posts.status', statuses)
      .select(q.raw('1'));
  return (
    q('media')
      .whereNotNull('media.storage_key')
      .whereNull('media.bytes_deleted_at')
      .where('media.pinned', 0)
      .whereExists(postsUsing(['live']))
      .whereNotExists(
        postsUsing(['live']).where((w) => w.whereNull('posts.live_at').orWhere('posts.live_at', '>', cutoff)),
      )
      .whereNotExists(postsUsing(['draft', 'queued']))
      // Nor one a change waiting for approval names (mediaInUse's JSON check; an id's `_` only widens the match).
      .whereNotExists(
        q('posts')
          .whereRaw('posts.workspace_id = media.workspace_id')
          .whereIn('posts.status', ['draft', 'queued'])
          .whereNotNull('posts.pending_change')
          .whereRaw(`posts.pending_change like '%"' || media.id || '"%'`)
          .select(q.raw('1')),
      )
  );
}

export type MediaJobsData = ReturnType<typeof mediaJobsData>;
