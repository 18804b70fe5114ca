// Backup and restore as an operator runs them: `herald backup` on an instance that is publishing,
// `herald restore` into an empty one elsewhere, and nothing lost: every post, every file (by checksum)
// and every account token (still decryptable). Restore never overwrites; a damaged backup is refused.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueFailure } from '../networks/sandbox/state.ts';
import type { Config } from '../runtime/config.ts';
import { Keyring } from '../runtime/crypto.ts';
import { createServices, type Services } from '../runtime/services.ts';
import { createApp } from '../server/app.ts';
import { startWorker, type RunningWorker } from '../worker/worker.ts';
import { call, createPgDatabase, DATABASES, seedWorkspace, type Seeded, type TestEnv } from './support/harness.ts';
import { makeImage, tempDir, upload } from './support/mediaFiles.ts';
import { listeningHerald, sandboxAccount } from './support/network.ts';
import { until } from './support/waiting.ts';

const HERALD = new URL('../bin/herald', import.meta.url).pathname;
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

interface Outcome {
  code: number;
  out?: Record<string, unknown>;
  err?: { code: string; message: string; hint: string };
}

function herald(env: Record<string, string | undefined>, ...args: string[]): Promise<Outcome> {
  return promisify(execFile)(HERALD, args, { env: env as NodeJS.ProcessEnv }).then(
    ({ stdout }) => ({ code: 0, out: JSON.parse(stdout) }),
    (e: { code: number; stderr: string }) => ({ code: e.code, err: JSON.parse(e.stderr.trim().split('\n').at(-1)!) }),
  );
}

/** The environment of bin/herald for an instance. */
function instanceEnv(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: config.dataDir,
    DATABASE_URL: config.databaseUrl,
    LOG_FORMAT: 'json',
  };
  delete env.HERALD_SECRET;
  if (!config.databaseUrl) delete env.DATABASE_URL;
  return env;
}

describe.each(DATABASES)('backup and restore on %s', (kind) => {
  let env: TestEnv & { base: string };
  let ws: Seeded;
  let worker: RunningWorker;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-backup-'));
  const backupDir = path.join(scratch, 'backup');
  const restoredDir = path.join(scratch, 'restored');
  let restoredPg: { url: string; drop: () => Promise<void> } | undefined;
  let restored: Services | undefined;

  beforeAll(async () => {
    env = await listeningHerald(kind, { sandboxProcessingMs: 0 });
    ws = await seedWorkspace(env, { plan: 'agency' });
    worker = await startWorker(env.services, { retryDelaysMs: [300, 300, 300], watchEveryMs: 200 });
    restoredPg = kind === 'postgres' ? await createPgDatabase() : undefined;
  });
  afterAll(async () => {
    await worker.stop();
    await restored?.close();
    await env.close();
    await restoredPg?.drop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('backs up an instance while it publishes, and restores every post, file and token elsewhere', async () => {
    const images = tempDir();
    const files = [await makeImage(images, 'jpeg', 1080, 1350), await makeImage(images, 'png', 1080, 1080)];
    const media = await Promise.all(
      files.map((file, i) => upload(env, ws.writeKey, file, i ? 'image/png' : 'image/jpeg')),
    );
    const accounts = await Promise.all(
      ['threads', 'facebook', 'instagram', 'threads'].map((p) => sandboxAccount(env, ws.workspaceId, p as 'threads')),
    );
    // One account answers "unavailable" once per post: the worker retries it, so publishing goes on for a while.
    await queueFailure(env.services.db, {
      network: 'threads',
      account: accounts[3]!.externalId,
      scenario: 'unavailable',
      times: 1000,
    });
    const create = async (when: unknown, text: string) => {
      const res = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: {
          targets: { accountIds: accounts.map((a) => a.id) },
          mediaIds: [media[0].id],
          text,
          when,
          confirm: true,
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.posts.map((p: { id: string }) => p.id) as string[];
    };
    const tomorrow = { publishAt: new Date(Date.now() + 86_400_000).toISOString().slice(0, 16), timezone: 'UTC' };
    const before = [...(await create(tomorrow, 'Tomorrow: the winter collection.'))];
    const tokens = new Map(
      (await env.services.db('accounts').select('id', 'token_sealed')).map((a) => [
        a.id,
        env.services.keyring.decrypt(a.token_sealed),
      ]),
    );

    // One batch has gone live before the backup begins (a backup can finish before a post due now is sent).
    const first = await create('now', 'Flash sale, opening hour.');
    before.push(...first);
    await until(
      () => call(env, 'get', `/v1/posts/${first[0]}`, { key: ws.readKey }).then((r) => r.body.status),
      (s) => s === 'live',
    );
    // Posts keep coming while the backup runs, each batch sent before the previous one has settled.
    const backupRun = herald(instanceEnv(env.config), 'backup', '--to', backupDir);
    let backupDone = false;
    void backupRun.finally(() => (backupDone = true));
    for (let i = 0; !backupDone && i < 50; i++) {
      const ids = await create('now', `Flash sale, hour ${i}.`);
      before.push(...ids);
      await until(
        () => call(env, 'get', `/v1/posts/${ids[0]}`, { key: ws.readKey }).then((r) => r.body.status),
        (s) => s !== 'queued',
      );
    }
    const backup = await backupRun;
    expect(backup, JSON.stringify(backup.err)).toMatchObject({
      code: 0,
      out: { backup: backupDir, database: kind === 'sqlite' ? 'sqlite' : 'postgresql' },
    });
    expect(before.length).toBeGreaterThan(4);

    const restoredConfig = { ...env.config, dataDir: restoredDir, databaseUrl: restoredPg?.url };
    const restore = await herald(instanceEnv(restoredConfig), 'restore', '--from', backupDir);
    expect(restore, JSON.stringify(restore.err)).toMatchObject({
      code: 0,
      out: { restored: true, pendingMigrations: [] },
    });

    restored = createServices(restoredConfig);
    const copy = { ...env, config: restoredConfig, services: restored, app: await createApp(restored) };
    const posts = new Map((await restored.db('posts').select('id', 'status', 'publish_at')).map((p) => [p.id, p]));
    // The snapshot was taken mid-publishing: some posts had gone live, some due ones were still on their way.
    const statuses = [...posts.values()].map((p) => p.status);
    expect(statuses).toContain('live');
    expect([...posts.values()].some((p) => p.status === 'queued' && Date.parse(p.publish_at) <= Date.now())).toBe(true);
    // Every post created before the backup began is there (later ones may be), and reads as the API showed it then
    // or later.
    for (const id of before.slice(0, accounts.length)) {
      expect(posts.has(id), id).toBe(true);
      const res = await call(copy, 'get', `/v1/posts/${id}`, { key: ws.readKey });
      expect(res.body).toMatchObject({ id, status: 'queued', mediaIds: [media[0].id] });
      // A scheduled post keeps its publish job.
      expect(await restored.jobs.postsWithoutJob([id], new Date().toISOString()), id).toEqual([]);
    }
    for (const [id, post] of posts) {
      const res = await call(copy, 'get', `/v1/posts/${id}`, { key: ws.readKey });
      expect(res.status, id).toBe(200);
      expect(res.body.status, id).toBe(post.status);
    }
    // Every file, byte for byte, and its thumbnail.
    for (const [i, file] of files.entries()) {
      const row = await restored.db('media').where({ id: media[i].id }).first();
      expect(sha256(path.join(restoredDir, 'media', row.storage_key)), file).toBe(sha256(file));
      expect(fs.existsSync(path.join(restoredDir, 'media', row.thumbnail_key))).toBe(true);
      expect((await call(copy, 'get', `/v1/media/${media[i].id}`, { key: ws.readKey })).body).toMatchObject({
        status: 'ready',
        size: fs.statSync(file).size,
      });
    }
    // Every account token, decrypted with the restored secret.
    const keyring = new Keyring(fs.readFileSync(path.join(restoredDir, 'secret'), 'utf8').trim());
    for (const account of await restored.db('accounts').select('id', 'token_sealed')) {
      expect(keyring.decrypt(account.token_sealed), account.id).toBe(tokens.get(account.id));
    }
    expect(Number((await restored.db('accounts').count({ n: '*' }).first())!.n)).toBe(tokens.size);
    // The sandbox networks still know those accounts (on SQLite they keep a file of their own).
    const externalIds = accounts.map((a) => a.externalId);
    expect(await restored.db('sandbox_accounts').whereIn('id', externalIds)).toHaveLength(accounts.length);
  });

  it('refuses to restore over an instance, or to back up into a directory in use', async () => {
    const again = await herald(
      instanceEnv({ dataDir: restoredDir, databaseUrl: restoredPg?.url }),
      'restore',
      '--from',
      backupDir,
    );
    expect(again).toMatchObject({
      code: 1,
      err: { code: 'restore_target_not_empty', hint: expect.stringContaining('never overwrites') },
    });
    if (kind === 'postgres') {
      // An empty DATA_DIR is not enough: the database must be empty too.
      const elsewhere = await herald(
        instanceEnv({ dataDir: path.join(scratch, 'empty'), databaseUrl: restoredPg!.url }),
        'restore',
        '--from',
        backupDir,
      );
      expect(elsewhere).toMatchObject({
        code: 1,
        err: { code: 'restore_target_not_empty', message: expect.stringContaining('DATABASE_URL') },
      });
      expect(fs.existsSync(path.join(scratch, 'empty', 'secret'))).toBe(false);
    }
    const into = await herald(instanceEnv(env.config), 'backup', '--to', backupDir);
    expect(into).toMatchObject({ code: 1, err: { code: 'backup_target_not_empty' } });
    const usage = await herald(instanceEnv(env.config), 'backup');
    expect(usage).toMatchObject({ code: 2, err: { code: 'invalid_request', message: '--to is required.' } });
  });

  it('refuses a damaged backup, naming the file', async () => {
    const damaged = path.join(scratch, 'damaged');
    fs.cpSync(backupDir, damaged, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(damaged, 'manifest.json'), 'utf8'));
    const victim = path.join(damaged, manifest.media.files[0].path);
    fs.appendFileSync(victim, 'x');
    const res = await herald(
      instanceEnv({ dataDir: path.join(scratch, 'from-damaged'), databaseUrl: undefined }),
      'restore',
      '--from',
      damaged,
    );
    expect(res).toMatchObject({
      code: 1,
      err: { code: 'backup_corrupt', message: expect.stringContaining(manifest.media.files[0].path) },
    });
    expect(fs.existsSync(path.join(scratch, 'from-damaged'))).toBe(false);
  });
});
