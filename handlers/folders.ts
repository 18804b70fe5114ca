// Folders: they nest, every file lies in exactly one, and the root folder `Library` stays put.
// Deleting is for empty folders only, so a delete never takes files with it by surprise.
import type { FolderRecord } from '../db/mediaData.ts';
import type { WorkspaceData } from '../db/workspaceData.ts';
import { ApiError, confirmRequired, invalidRequest, notFound } from '../domain/errors.ts';
import type { Handler } from './types.ts';

function toFolderBody(f: FolderRecord) {
  return { id: f.id, name: f.name, parentId: f.parentId, createdAt: f.createdAt };
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidRequest('`name` must not be blank.');
  return trimmed;
}

async function getOwnFolder(data: WorkspaceData, folderId: string): Promise<FolderRecord> {
  const folder = await data.media.folders.get(folderId);
  if (!folder) throw notFound('folder', folderId);
  return folder;
}

const rootStaysPut = (action: string) =>
  new ApiError(
    409,
    'invalid_state',
    `The root folder Library cannot be ${action}.`,
    'Create a folder inside Library and use that one instead.',
  );

export const listFolders: Handler<'listFolders'> = async ({ data }) => ({
  status: 200,
  body: { folders: (await data.media.folders.list()).map(toFolderBody) },
});

export const createFolder: Handler<'createFolder'> = async ({ data, body }) => {
  const name = checkName(body.name);
  const parentId =
    body.parentId === undefined ? (await data.media.folders.root()).id : (await getOwnFolder(data, body.parentId)).id;
  return { status: 201, body: toFolderBody(await data.media.folders.create(name, parentId)) };
};

export const updateFolder: Handler<'updateFolder'> = async ({ data, params, body }) => {
  const folder = await getOwnFolder(data, params.folderId);
  if (folder.isRoot) throw rootStaysPut(body.parentId === undefined ? 'renamed' : 'moved');
  const name = body.name === undefined ? undefined : checkName(body.name);
  if (body.parentId !== undefined) {
    await getOwnFolder(data, body.parentId);
    // Walk up from the new parent: meeting the folder itself means the move would make a loop.
    const byId = new Map((await data.media.folders.list()).map((f) => [f.id, f]));
    for (let at: string | null = body.parentId; at; at = byId.get(at)?.parentId ?? null) {
      if (at === folder.id) {
        throw new ApiError(
          409,
          'invalid_state',
          `Folder ${folder.id} (${folder.name}) cannot move into ` +
            `${at === body.parentId ? 'itself' : 'one of its own subfolders'}.`,
          'Choose a parentId outside this folder.',
        );
      }
    }
  }
  const updated = await data.media.folders.update(folder.id, { name, parentId: body.parentId });
  if (!updated) throw notFound('folder', folder.id);
  return { status: 200, body: toFolderBody(updated) };
};

export const deleteFolder: Handler<'deleteFolder'> = async ({ data, params, query }) => {
  const folder = await getOwnFolder(data, params.folderId);
  if (folder.isRoot) throw rootStaysPut('deleted');
  if (query.confirm !== true) throw confirmRequired(`Deleting folder ${folder.id}`, 'deleteFolder');
  if (!(await data.media.folders.removeIfEmpty(folder.id))) {
    const { files, folders } = await data.media.folders.contents(folder.id);
    if (files + folders === 0) throw notFound('folder', folder.id);
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    throw new ApiError(
      409,
      'folder_not_empty',
      `Folder ${folder.id} (${folder.name}) still holds ${plural(files, 'file')} and ${plural(folders, 'folder')}.`,
      'Move or delete its contents first, then delete the folder.',
    );
  }
  return { status: 200, body: { id: folder.id, deleted: true } };
};
