// Media: reserve an upload (the bytes then go to a signed PUT, see server/uploadRoutes.ts), add a
// file from a public https address, and read, list, move, pin and delete files.
import type { components } from '../generated/api.d.ts';
import type { MediaRecord, MediaStatus } from '../db/mediaData.ts';
import type { WorkspaceData } from '../db/workspaceData.ts';
import { readCursor, writeCursor } from '../domain/cursor.ts';
import { ApiError, confirmRequired, invalidRequest, notFound } from '../domain/errors.ts';
import { ACCEPTED_MIMES, ACCEPTED_SUMMARY, formatOf, normalizeMime } from '../domain/mediaTypes.ts';
import { openRemoteFile, urlFetchFailed } from '../media/fromUrl.ts';
import { mediaPrefix } from '../media/objectKeys.ts';
import { thumbnailUrl } from '../media/publicAddress.ts';
import { uploadAddress, uploadExpiry } from '../media/uploadAddress.ts';
import type { Storage } from '../storage/storage.ts';
import type { Handler } from './types.ts';

type Media = components['schemas']['Media'];

export async function toMediaBody(storage: Storage, m: MediaRecord): Promise<Media> {
  return {
    id: m.id,
    status: m.status,
    ...(m.status === 'failed' ? { failReason: m.failReason ?? 'Processing failed.' } : {}),
    kind: m.kind,
    filename: m.filename,
    mime: m.mime,
    size: m.size,
    folderId: m.folderId,
    pinned: m.pinned,
    width: m.width,
    height: m.height,
    durationSeconds: m.durationSeconds,
    frameRate: m.frameRate,
    videoCodec: m.videoCodec,
    audioCodec: m.audioCodec,
    thumbnailUrl: await thumbnailUrl(storage, m),
    bytesDeletedAt: m.bytesDeletedAt,
    createdAt: m.createdAt,
  };
}

/** The folder a new or moved file goes to: the one named, or the root folder `Library`. */
async function targetFolder(data: WorkspaceData, folderId: string | undefined): Promise<string> {
  if (folderId === undefined) return (await data.media.folders.root()).id;
  if (!(await data.media.folders.get(folderId))) throw notFound('folder', folderId);
  return folderId;
}

/** Control characters (line breaks, NUL) and the invisible marks that reorder text (bidi overrides). */
const UNSAFE_IN_NAMES = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu;

function cleanFilename(name: string, field: string): string {
  // A name, not a path: whatever directories the client's file lay in are not ours to keep. What is left
  // is shown in the dashboard and sent on in headers, so it keeps nothing that breaks a line or reorders text.
  const base = name.replace(UNSAFE_IN_NAMES, '').split(/[\\/]/).pop()!.replace(/\s+/g, ' ').trim();
  if (!base || base === '.' || base === '..') throw invalidRequest(`\`${field}\` must name a file.`);
  return base;
}

async function getOwnMedia(data: WorkspaceData, mediaId: string): Promise<MediaRecord> {
  const record = await data.media.get(mediaId);
  if (!record) throw notFound('media', mediaId);
  return record;
}

export const createUpload: Handler<'createUpload'> = async ({ data, body, services }) => {
  const mime = normalizeMime(body.mime);
  const format = formatOf(mime);
  if (!format) {
    throw invalidRequest(
      `\`mime\`: ${body.mime} is not a type any network accepts.`,
      `Send ${ACCEPTED_SUMMARY}; mime is one of ${ACCEPTED_MIMES.join(', ')}.`,
    );
  }
  const filename = cleanFilename(body.filename, 'filename');
  const folderId = await targetFolder(data, body.folderId);
  // The reservation holds storage exactly as long as its address works.
  const { exp, expiresAt } = uploadExpiry();
  const record = await data.media.reserve({
    filename,
    mime,
    kind: format.kind,
    size: body.size,
    folderId,
    holdUntil: expiresAt,
  });
  const uploadUrl = uploadAddress(services.keyring, services.config.publicUrl, record.id, exp);
  return { status: 201, body: { mediaId: record.id, uploadUrl, expiresAt } };
};

export const uploadFromUrl: Handler<'uploadFromUrl'> = async ({ data, body, services, afterCommit }) => {
  const folderId = await targetFolder(data, body.folderId);
  const stop = new AbortController();
  // Refusals (scheme, private addresses, redirects to them) all happen here, before anything is created.
  const remote = await openRemoteFile(body.url, services.config.fromUrl, stop.signal);
  try {
    if (remote.size === 0) throw urlFetchFailed(body.url, 'the server sent an empty file');
    const lastSegment = new URL(body.url).pathname.split('/').pop() ?? '';
    const filename = cleanFilename(body.filename ?? (safeDecode(lastSegment) || remote.url.hostname), 'filename');
    const mime = normalizeMime(remote.contentType ?? '') || 'application/octet-stream';
    const record = await data.media.reserve({
      filename,
      mime,
      kind: formatOf(mime)?.kind ?? null,
      size: remote.size,
      folderId,
      holdUntil: new Date(Date.now() + services.config.fromUrl.timeoutMs).toISOString(),
      sourceUrl: remote.url.href,
    });
    // The download writes to the record, which another connection sees only once it is committed.
    afterCommit(() => services.media.download(record, remote, record.size, stop));
    return { status: 202, body: { mediaId: record.id, status: record.status } };
  } catch (err) {
    remote.body.destroy();
    throw err;
  }
};

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

interface Cursor {
  c: string;
  i: string;
}

const mediaPosition = (position: unknown) => {
  const { c, i } = (position ?? {}) as Partial<Cursor>;
  return typeof c === 'string' && typeof i === 'string' ? { createdAt: c, id: i } : undefined;
};

export const listMedia: Handler<'listMedia'> = async ({ data, query, services }) => {
  if (query.folderId !== undefined && !(await data.media.folders.get(query.folderId)))
    throw notFound('folder', query.folderId);
  const limit = query.limit ?? 50;
  const page = await data.media.list({
    folderId: query.folderId,
    status: query.status as MediaStatus | undefined,
    after: query.cursor === undefined ? undefined : readCursor(query.cursor, mediaPosition),
    limit: limit + 1,
  });
  const shown = page.slice(0, limit);
  const last = shown[shown.length - 1];
  const nextCursor =
    page.length > limit && last ? writeCursor({ c: last.createdAt, i: last.id } satisfies Cursor) : null;
  return {
    status: 200,
    body: { media: await Promise.all(shown.map((m) => toMediaBody(services.storage, m))), nextCursor },
  };
};

export const getMedia: Handler<'getMedia'> = async ({ data, params, services }) => ({
  status: 200,
  body: await toMediaBody(services.storage, await getOwnMedia(data, params.mediaId)),
});

export const updateMedia: Handler<'updateMedia'> = async ({ data, params, body, services }) => {
  await getOwnMedia(data, params.mediaId);
  const folderId = body.folderId === undefined ? undefined : await targetFolder(data, body.folderId);
  const record = await data.media.update(params.mediaId, { folderId, pinned: body.pinned });
  if (!record) throw notFound('media', params.mediaId);
  return { status: 200, body: await toMediaBody(services.storage, record) };
};

export const deleteMedia: Handler<'deleteMedia'> = async ({ data, params, query, services, afterCommit }) => {
  await getOwnMedia(data, params.mediaId);
  if (query.confirm !== true) throw confirmRequired(`Deleting file ${params.mediaId}`, 'deleteMedia');
  const outcome = await data.media.remove(params.mediaId);
  if ('usedBy' in outcome) {
    const n = outcome.usedBy.length;
    throw new ApiError(
      409,
      'media_in_use',
      `File ${params.mediaId} is used by ${n} post${n === 1 ? '' : 's'} that ${n === 1 ? 'is' : 'are'} draft ` +
        `or queued (${outcome.usedBy.join(', ')}).`,
      'Give those posts other files, or delete the drafts (a queued post is cancelled first), or wait until ' +
        'they are live; then delete the file.',
      { posts: outcome.usedBy.map((id) => ({ id })) },
    );
  }
  if (!outcome.removed) throw notFound('media', params.mediaId);
  // The record is gone first (committed): a failure below leaves an orphan object, never a file that says it has
  // bytes it lacks.
  const { removed } = outcome;
  afterCommit(() => services.storage.deletePrefix(mediaPrefix(removed)));
  return { status: 200, body: { id: params.mediaId, deleted: true } };
};
