// Who may call the media and folder operations: a key is needed (401), writes need the write scope
// (403), the Free plan has no API (402), and another workspace's ids answer 404; on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import { reserve } from './support/mediaFiles.ts';

type Method = 'get' | 'post' | 'patch' | 'delete';

describe.each(DATABASES)('media and folder access on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let free: Seeded;
  let theirs: { mediaId: string; folderId: string };

  beforeAll(async () => {
    env = await startHerald(kind, { mediaSweepMs: 0 });
    ws = await seedWorkspace(env, { plan: 'creator' });
    free = await seedWorkspace(env, { plan: 'free' });
    const other = await seedWorkspace(env, { plan: 'creator' });
    theirs = {
      mediaId: (await reserve(env, other.writeKey, { filename: 'a.jpg', mime: 'image/jpeg', size: 10 })).body.mediaId,
      folderId: (await call(env, 'post', '/v1/folders', { key: other.writeKey, body: { name: 'Theirs' } })).body.id,
    };
  });
  afterAll(() => env.close());

  /** Every operation, with a valid body; `id` routes name another workspace's record. */
  const operations = (): {
    name: string;
    method: Method;
    url: string;
    body?: unknown;
    write: boolean;
    foreign?: boolean;
  }[] => [
    {
      name: 'createUpload',
      method: 'post',
      url: '/v1/media/uploads',
      body: { filename: 'a.jpg', mime: 'image/jpeg', size: 10 },
      write: true,
    },
    {
      name: 'uploadFromUrl',
      method: 'post',
      url: '/v1/media/from-url',
      body: { url: 'https://127.0.0.1/a.jpg' },
      write: true,
    },
    { name: 'listMedia', method: 'get', url: '/v1/media', write: false },
    { name: 'getMedia', method: 'get', url: `/v1/media/${theirs.mediaId}`, write: false, foreign: true },
    {
      name: 'updateMedia',
      method: 'patch',
      url: `/v1/media/${theirs.mediaId}`,
      body: { pinned: true },
      write: true,
      foreign: true,
    },
    {
      name: 'deleteMedia',
      method: 'delete',
      url: `/v1/media/${theirs.mediaId}?confirm=true`,
      write: true,
      foreign: true,
    },
    { name: 'listFolders', method: 'get', url: '/v1/folders', write: false },
    { name: 'createFolder', method: 'post', url: '/v1/folders', body: { name: 'X' }, write: true },
    {
      name: 'updateFolder',
      method: 'patch',
      url: `/v1/folders/${theirs.folderId}`,
      body: { name: 'Y' },
      write: true,
      foreign: true,
    },
    {
      name: 'deleteFolder',
      method: 'delete',
      url: `/v1/folders/${theirs.folderId}?confirm=true`,
      write: true,
      foreign: true,
    },
  ];

  it('answers 401 unauthenticated without a key or with a wrong one', async () => {
    for (const op of operations()) {
      for (const key of [undefined, 'hld_NotARealKey000000000000000000000000000']) {
        const res = await call(env, op.method, op.url, { key, body: op.body });
        expect(res.status, op.name).toBe(401);
        expect(res.body.code).toBe('unauthenticated');
      }
    }
  });

  it('answers 403 insufficient_scope to a read key on every write, and lets it read', async () => {
    for (const op of operations()) {
      const res = await call(env, op.method, op.url, { key: ws.readKey, body: op.body });
      if (op.write) {
        expect(res.status, op.name).toBe(403);
        expect(res.body.code).toBe('insufficient_scope');
      } else {
        expect(res.status, op.name).not.toBe(403);
      }
    }
  });

  it('answers 402 quota_exceeded to a Free workspace key: the Free plan has no API', async () => {
    for (const op of operations()) {
      const res = await call(env, op.method, op.url, { key: free.writeKey, body: op.body });
      expect(res.status, op.name).toBe(402);
      expect(res.body).toMatchObject({ code: 'quota_exceeded', limit: 0, used: 0 });
    }
  });

  it("answers 404 not_found for another workspace's files and folders, and changes nothing there", async () => {
    for (const op of operations().filter((o) => o.foreign)) {
      const res = await call(env, op.method, op.url, { key: ws.writeKey, body: op.body });
      expect(res.status, op.name).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const media = await env.services.db('media').where({ id: theirs.mediaId }).first();
    expect(media).toMatchObject({ status: 'uploading' });
    expect(Number(media.pinned)).toBe(0);
    expect(await env.services.db('folders').where({ id: theirs.folderId }).first()).toMatchObject({ name: 'Theirs' });
  });
});
