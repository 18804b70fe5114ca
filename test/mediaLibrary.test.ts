// The library: get, list (folder and status filters, cursor), move, pin, delete (refused while a
// draft or queued post uses the file), and retention of published files; both databases.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { makeImage, reserve, storedFiles, tempDir, upload } from './support/mediaFiles.ts';
import { setPostState } from './support/posts.ts';

describe.each(DATABASES)('media library on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let other: Seeded;
  let page: string;
  let image: string;
  const dir = tempDir();

  beforeAll(async () => {
    env = await startHerald(kind, { mediaSweepMs: 0 });
    ws = await seedWorkspace(env, { plan: 'creator' });
    other = await seedWorkspace(env, { plan: 'creator' });
    page = await addAccount(env, ws.workspaceId, 'facebook', 'Acme Page');
    image = await makeImage(dir, 'jpeg', 1080, 1080);
  });
  afterAll(async () => {
    await env.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const uploadImage = async () =>
    (await upload(env, ws.writeKey, image, 'image/jpeg')) as { id: string; size: number; folderId: string };
  const get = (id: string, key = ws.readKey) => call(env, 'get', `/v1/media/${id}`, { key });
  const usedBytes = async () =>
    (await call(env, 'get', '/v1/whoami', { key: ws.readKey })).body.usage.storage.usedBytes as number;
  const newFolder = async (name: string, parentId?: string) =>
    (await call(env, 'post', '/v1/folders', { key: ws.writeKey, body: { name, parentId } })).body.id as string;

  /** A post of the file to the Facebook Page, as a draft or queued three days ahead; answers its id. */
  async function post(mediaId: string, state: 'draft' | 'queued'): Promise<string> {
    const when =
      state === 'draft'
        ? 'draft'
        : {
            publishAt: `${DateTime.now().setZone('Europe/Berlin').plus({ days: 3 }).toFormat('yyyy-MM-dd')}T10:00`,
            timezone: 'Europe/Berlin',
          };
    const res = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: { targets: { accountIds: [page] }, mediaIds: [mediaId], text: 'Autumn sale', when, confirm: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.posts[0].id;
  }

  /** A copy made from the original, as publishing makes a JPEG for Instagram: named by extending the original's key. */
  async function addDerivedCopy(mediaId: string): Promise<void> {
    const { storage_key: key } = await env.services.db('media').where({ id: mediaId }).first('storage_key');
    await env.services.storage.put(`${key}.jpg`, Readable.from([Buffer.from('a copy')]), 'image/jpeg');
  }

  const wentLive = (postId: string, hoursAgo: number) =>
    setPostState(env, ws.workspaceId, postId, {
      status: 'live',
      liveAt: new Date(Date.now() - hoursAgo * 3600_000).toISOString(),
      externalUrl: 'https://www.facebook.com/1_2',
    });

  describe('GET /media/{mediaId}', () => {
    it('answers 404 for an unknown id and for a file of another workspace, the same way', async () => {
      const theirs = (await upload(env, other.writeKey, image, 'image/jpeg')).id;
      for (const id of ['med_missing000000000', theirs]) {
        const res = await get(id);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({
          code: 'not_found',
          message: `No media with id ${id} exists in this workspace.`,
        });
      }
      expect((await get(theirs, other.readKey)).status).toBe(200);
    });
  });

  describe('GET /media', () => {
    it('lists newest first, filters by folder and status, and pages with a cursor', async () => {
      const listWs = await seedWorkspace(env, { plan: 'creator' });
      const folder = (await call(env, 'post', '/v1/folders', { key: listWs.writeKey, body: { name: 'Autumn' } })).body
        .id;
      const uploaded: string[] = [];
      for (let i = 0; i < 5; i++)
        uploaded.push((await upload(env, listWs.writeKey, image, 'image/jpeg', i % 2 ? folder : undefined)).id);
      const pending = (await reserve(env, listWs.writeKey, { filename: 'later.jpg', mime: 'image/jpeg', size: 10 }))
        .body.mediaId;
      const newestFirst = [pending, ...[...uploaded].reverse()];

      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await call(env, 'get', `/v1/media?limit=2${cursor ? `&cursor=${cursor}` : ''}`, {
          key: listWs.readKey,
        });
        expect(res.status).toBe(200);
        expect(res.body.media.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.media.map((m: { id: string }) => m.id));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(newestFirst);

      const inFolder = await call(env, 'get', `/v1/media?folderId=${folder}`, { key: listWs.readKey });
      expect(inFolder.body.media.map((m: { id: string }) => m.id)).toEqual([uploaded[3], uploaded[1]]);
      const uploading = await call(env, 'get', '/v1/media?status=uploading', { key: listWs.readKey });
      expect(uploading.body).toEqual({
        media: [expect.objectContaining({ id: pending, status: 'uploading' })],
        nextCursor: null,
      });
    });

    it('answers 400 for a cursor it did not make or a bad filter, 404 for a folder not in the workspace', async () => {
      for (const query of ['cursor=not-a-cursor', 'status=done', 'limit=0', 'limit=101']) {
        const res = await call(env, 'get', `/v1/media?${query}`, { key: ws.readKey });
        expect(res.status, query).toBe(400);
        expect(res.body.code).toBe('invalid_request');
      }
      const theirRoot = (await call(env, 'get', '/v1/folders', { key: other.readKey })).body.folders[0].id;
      for (const folderId of ['fld_missing000000000', theirRoot]) {
        expect((await call(env, 'get', `/v1/media?folderId=${folderId}`, { key: ws.readKey })).status).toBe(404);
      }
    });
  });

  describe('PATCH /media/{mediaId}', () => {
    it('moves a file to another folder, pins and unpins it', async () => {
      const file = await uploadImage();
      const folder = await newFolder('Moved here');
      const moved = await call(env, 'patch', `/v1/media/${file.id}`, { key: ws.writeKey, body: { folderId: folder } });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ id: file.id, folderId: folder, pinned: false });
      const pinned = await call(env, 'patch', `/v1/media/${file.id}`, { key: ws.writeKey, body: { pinned: true } });
      expect(pinned.body).toMatchObject({ folderId: folder, pinned: true });
      const unpinned = await call(env, 'patch', `/v1/media/${file.id}`, { key: ws.writeKey, body: { pinned: false } });
      expect(unpinned.body.pinned).toBe(false);
      expect(
        (await call(env, 'get', `/v1/media?folderId=${folder}`, { key: ws.readKey })).body.media.map(
          (m: { id: string }) => m.id,
        ),
      ).toEqual([file.id]);
    });

    it('answers 404 for an unknown file or folder, 400 for an empty or unknown change', async () => {
      const file = await uploadImage();
      const theirRoot = (await call(env, 'get', '/v1/folders', { key: other.readKey })).body.folders[0].id;
      expect(
        (await call(env, 'patch', '/v1/media/med_missing000000000', { key: ws.writeKey, body: { pinned: true } }))
          .status,
      ).toBe(404);
      expect(
        (await call(env, 'patch', `/v1/media/${file.id}`, { key: ws.writeKey, body: { folderId: theirRoot } })).status,
      ).toBe(404);
      for (const body of [{}, { pinned: 'yes' }, { size: 3 }]) {
        const res = await call(env, 'patch', `/v1/media/${file.id}`, { key: ws.writeKey, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect((await get(file.id)).body).toMatchObject({ pinned: false, folderId: file.folderId });
    });
  });

  describe('DELETE /media/{mediaId}', () => {
    it('needs confirm=true: without it answers 409 confirm_required and keeps the file', async () => {
      const file = await uploadImage();
      for (const query of ['', '?confirm=false']) {
        const res = await call(env, 'delete', `/v1/media/${file.id}${query}`, { key: ws.writeKey });
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('confirm_required');
      }
      expect((await get(file.id)).body.status).toBe('ready');
    });

    it('deletes the record, the bytes, the thumbnail and copies, and frees the storage', async () => {
      const before = await usedBytes();
      const files = storedFiles(env).length;
      const file = await uploadImage();
      await addDerivedCopy(file.id);
      expect(await usedBytes()).toBe(before + file.size);
      expect(storedFiles(env)).toHaveLength(files + 3);
      const res = await call(env, 'delete', `/v1/media/${file.id}?confirm=true`, { key: ws.writeKey });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: file.id, deleted: true });
      expect(await usedBytes()).toBe(before);
      expect(storedFiles(env)).toHaveLength(files);
      expect((await get(file.id)).status).toBe(404);
      expect((await call(env, 'delete', `/v1/media/${file.id}?confirm=true`, { key: ws.writeKey })).status).toBe(404);
    });

    it('refuses with 409 media_in_use while a draft or queued post uses the file, naming the posts', async () => {
      const file = await uploadImage();
      const draft = await post(file.id, 'draft');
      const queued = await post(file.id, 'queued');
      const res = await call(env, 'delete', `/v1/media/${file.id}?confirm=true`, { key: ws.writeKey });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('media_in_use');
      expect(res.body.message).toContain(draft);
      expect(res.body.message).toContain(queued);
      expect(res.body.posts.map((p: { id: string }) => p.id).sort()).toEqual([draft, queued].sort());
      expect((await get(file.id)).body.status).toBe('ready');

      // Once the posts are live, the file can go; the posts keep their record of its id.
      await wentLive(draft, 1);
      await wentLive(queued, 1);
      expect((await call(env, 'delete', `/v1/media/${file.id}?confirm=true`, { key: ws.writeKey })).status).toBe(200);
      expect((await call(env, 'get', `/v1/posts/${draft}`, { key: ws.readKey })).status).toBe(200);
    });

    it('answers 404 for a file of another workspace and deletes nothing there', async () => {
      const theirs = (await upload(env, other.writeKey, image, 'image/jpeg')).id;
      expect((await call(env, 'delete', `/v1/media/${theirs}?confirm=true`, { key: ws.writeKey })).status).toBe(404);
      expect((await get(theirs, other.readKey)).status).toBe(200);
    });
  });

  describe('retention', () => {
    it('deletes the bytes 72 hours after the post went live; the record stays and says so; storage drops', async () => {
      const file = await uploadImage();
      const published = await post(file.id, 'queued');
      await wentLive(published, 73);
      await addDerivedCopy(file.id);
      const before = await usedBytes();
      const files = storedFiles(env).length;

      const first = await env.services.media.sweep();
      expect(first.released).toEqual([file.id]);
      const after = (await get(file.id)).body;
      expect(after).toMatchObject({ id: file.id, status: 'ready', bytesDeletedAt: expect.any(String) });
      expect(Date.parse(after.bytesDeletedAt)).toBeLessThanOrEqual(Date.now());
      expect(await usedBytes()).toBe(before - file.size);
      // The original and its copies go; the small preview stays so the library still shows what was published.
      expect(storedFiles(env)).toHaveLength(files - 2);
      expect(after.thumbnailUrl).toEqual(expect.any(String));

      // Safe to run twice.
      expect((await env.services.media.sweep()).released).toEqual([]);
      expect((await get(file.id)).body.bytesDeletedAt).toBe(after.bytesDeletedAt);
    });

    it('keeps the bytes of a pinned file, and of one a draft or queued post still uses', async () => {
      const pinned = await uploadImage();
      await call(env, 'patch', `/v1/media/${pinned.id}`, { key: ws.writeKey, body: { pinned: true } });
      await wentLive(await post(pinned.id, 'queued'), 100);

      const reused = await uploadImage();
      await wentLive(await post(reused.id, 'queued'), 100);
      await post(reused.id, 'draft');

      const queuedAgain = await uploadImage();
      await wentLive(await post(queuedAgain.id, 'queued'), 100);
      await post(queuedAgain.id, 'queued');

      // Named only by a change waiting for approval beside a queued post of another file.
      const waiting = await uploadImage();
      await wentLive(await post(waiting.id, 'queued'), 100);
      const beside = await post((await uploadImage()).id, 'queued');
      await env.services
        .db('posts')
        .where({ id: beside })
        .update({ pending_change: JSON.stringify({ mediaIds: [waiting.id] }) });

      expect((await env.services.media.sweep()).released).toEqual([]);
      for (const f of [pinned, reused, queuedAgain, waiting]) expect((await get(f.id)).body.bytesDeletedAt).toBeNull();

      // Unpinned, its time has come.
      await call(env, 'patch', `/v1/media/${pinned.id}`, { key: ws.writeKey, body: { pinned: false } });
      expect((await env.services.media.sweep()).released).toEqual([pinned.id]);
    });

    it('waits 72 hours from the latest post that went live, and never touches unpublished files', async () => {
      const recent = await uploadImage();
      await wentLive(await post(recent.id, 'queued'), 71);
      const twice = await uploadImage();
      await wentLive(await post(twice.id, 'queued'), 100);
      await wentLive(await post(twice.id, 'queued'), 10);
      const unpublished = await uploadImage();

      expect((await env.services.media.sweep()).released).toEqual([]);
      for (const f of [recent, twice, unpublished]) expect((await get(f.id)).body.bytesDeletedAt).toBeNull();
      expect((await env.services.media.sweep(new Date(Date.now() + 2 * 3600_000))).released).toEqual([recent.id]);
    });
  });
});
