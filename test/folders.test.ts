// Folders through HTTP on both databases: they nest, a file lies in exactly one, the root folder
// Library stays put, and only empty folders can be deleted.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import { makeImage, tempDir, upload } from './support/mediaFiles.ts';

interface Folder {
  id: string;
  name: string;
  parentId: string | null;
  createdAt: string;
}

describe.each(DATABASES)('folders on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let other: Seeded;
  let root: Folder;
  const dir = tempDir();

  beforeAll(async () => {
    env = await startHerald(kind, { mediaSweepMs: 0 });
    ws = await seedWorkspace(env, { plan: 'creator' });
    other = await seedWorkspace(env, { plan: 'creator' });
    root = (await call(env, 'get', '/v1/folders', { key: ws.readKey })).body.folders[0];
  });
  afterAll(async () => {
    await env.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const create = async (name: string, parentId?: string) => {
    const res = await call(env, 'post', '/v1/folders', { key: ws.writeKey, body: { name, parentId } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Folder;
  };
  const patch = (id: string, body: unknown) => call(env, 'patch', `/v1/folders/${id}`, { key: ws.writeKey, body });
  const remove = (id: string, query = '?confirm=true') =>
    call(env, 'delete', `/v1/folders/${id}${query}`, { key: ws.writeKey });
  const list = async () => (await call(env, 'get', '/v1/folders', { key: ws.readKey })).body.folders as Folder[];

  it('starts with the root folder Library, parentId null', async () => {
    expect(root).toMatchObject({ id: expect.stringMatching(/^fld_/), name: 'Library', parentId: null });
    expect(await list()).toEqual([root]);
  });

  it('creates folders in Library by default and nested in a parent; lists root first, then by name', async () => {
    const campaigns = await create('Campaigns');
    expect(campaigns.parentId).toBe(root.id);
    const autumn = await create('  Autumn 2026 ', campaigns.id);
    expect(autumn).toMatchObject({ name: 'Autumn 2026', parentId: campaigns.id });
    const archive = await create('Archive');
    const names = (await list()).map((f) => f.name);
    expect(names.slice(0, 4)).toEqual(['Library', 'Archive', 'Autumn 2026', 'Campaigns']);
    for (const f of [autumn, campaigns, archive]) expect((await remove(f.id)).status).toBe(200);
  });

  it('renames and moves a folder; its files and subfolders move with it', async () => {
    const a = await create('A');
    const b = await create('B');
    const inner = await create('Inner', a.id);
    const file = await upload(env, ws.writeKey, await makeImage(dir, 'jpeg', 200, 200), 'image/jpeg', inner.id);

    const moved = await patch(a.id, { name: 'A renamed', parentId: b.id });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: a.id, name: 'A renamed', parentId: b.id });
    const after = await list();
    expect(after.find((f) => f.id === inner.id)?.parentId).toBe(a.id);
    expect((await call(env, 'get', `/v1/media/${file.id}`, { key: ws.readKey })).body.folderId).toBe(inner.id);
  });

  it('refuses moving a folder into itself or a subfolder of it with 409 invalid_state, changing nothing', async () => {
    const top = await create('Top');
    const mid = await create('Mid', top.id);
    const leaf = await create('Leaf', mid.id);
    for (const target of [top, mid, leaf]) {
      const res = await patch(top.id, { parentId: target.id, name: 'Changed' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        code: 'invalid_state',
        message: expect.stringMatching(target === top ? /itself/ : /subfolders/),
      });
    }
    expect((await list()).find((f) => f.id === top.id)).toMatchObject({ name: 'Top', parentId: root.id });
  });

  it('keeps the root folder Library: no rename, no move, no delete (409 invalid_state)', async () => {
    const elsewhere = await create('Elsewhere');
    for (const [res, verb] of [
      [await patch(root.id, { name: 'Mine' }), 'renamed'],
      [await patch(root.id, { parentId: elsewhere.id }), 'moved'],
      [await remove(root.id), 'deleted'],
    ] as const) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'invalid_state', message: expect.stringContaining(verb) });
    }
    expect((await list())[0]).toEqual(root);
  });

  it('deletes an empty folder with confirm=true; refuses without it (409 confirm_required)', async () => {
    const empty = await create('Empty');
    for (const query of ['', '?confirm=false']) {
      const res = await remove(empty.id, query);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('confirm_required');
    }
    const res = await remove(empty.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: empty.id, deleted: true });
    expect((await list()).some((f) => f.id === empty.id)).toBe(false);
    expect((await remove(empty.id)).status).toBe(404);
  });

  it('refuses to delete a folder holding files or folders (409 folder_not_empty), keeping all of it', async () => {
    const withFile = await create('With file');
    const file = await upload(env, ws.writeKey, await makeImage(dir, 'png', 100, 100), 'image/png', withFile.id);
    const withChild = await create('With child');
    await create('Child', withChild.id);
    const files = await remove(withFile.id);
    expect(files.status).toBe(409);
    expect(files.body).toMatchObject({
      code: 'folder_not_empty',
      message: expect.stringContaining('1 file and 0 folders'),
    });
    const folders = await remove(withChild.id);
    expect(folders.body).toMatchObject({
      code: 'folder_not_empty',
      message: expect.stringContaining('0 files and 1 folder'),
    });
    expect((await call(env, 'get', `/v1/media/${file.id}`, { key: ws.readKey })).body.folderId).toBe(withFile.id);

    // Once the file moved out, the folder can go.
    await call(env, 'patch', `/v1/media/${file.id}`, { key: ws.writeKey, body: { folderId: root.id } });
    expect((await remove(withFile.id)).status).toBe(200);
  });

  it('answers 400 naming the field for bad names and changes', async () => {
    const f = await create('Valid');
    const cases: [() => ReturnType<typeof patch>, RegExp][] = [
      [() => call(env, 'post', '/v1/folders', { key: ws.writeKey, body: {} }), /`name` is required/],
      [() => call(env, 'post', '/v1/folders', { key: ws.writeKey, body: { name: '   ' } }), /`name` must not be blank/],
      [() => call(env, 'post', '/v1/folders', { key: ws.writeKey, body: { name: 'x'.repeat(101) } }), /`name`/],
      [() => patch(f.id, {}), /body/],
      [() => patch(f.id, { name: '' }), /`name`/],
      [() => patch(f.id, { color: 'red' }), /`color` is not a known field/],
    ];
    for (const [send, message] of cases) {
      const res = await send();
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(message) });
    }
  });

  it('answers 404 for folders of another workspace, the same as unknown ones', async () => {
    const theirs = (await call(env, 'post', '/v1/folders', { key: other.writeKey, body: { name: 'Theirs' } }))
      .body as Folder;
    const mine = await create('Mine');
    const attempts = [
      () => call(env, 'post', '/v1/folders', { key: ws.writeKey, body: { name: 'X', parentId: theirs.id } }),
      () => patch(theirs.id, { name: 'Taken' }),
      () => patch(mine.id, { parentId: theirs.id }),
      () => remove(theirs.id),
      () => patch('fld_missing000000000', { name: 'X' }),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const theirList = (await call(env, 'get', '/v1/folders', { key: other.readKey })).body.folders as Folder[];
    expect(theirList.find((f) => f.id === theirs.id)).toEqual(theirs);
    expect((await list()).some((f) => f.id === theirs.id)).toBe(false);
  });
});
