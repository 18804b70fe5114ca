// `herald doctor --json` as an operator runs it: all well on a healthy instance (exit 0), and each
// misconfiguration it lists caught on its own, by the check named for it, with a fix (exit 1).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeSpaceCheck, nodeCheck, type Check } from '../cli/doctor.ts';
import { startWorker, type RunningWorker } from '../worker/worker.ts';
import { createPgDatabase, DATABASES, seedWorkspace } from './support/harness.ts';
import { listeningHerald, sandboxAccount } from './support/network.ts';
import { NETWORKS } from '../networks/index.ts';

const HERALD = new URL('../bin/herald', import.meta.url).pathname;
/** Every network's app variables, as the registry names them (TikTok's are a client key and secret). */
const CLIENT_VARS = Object.values(NETWORKS).flatMap(({ connector }) =>
  connector?.clientEnv ? [connector.clientEnv.id, connector.clientEnv.secret] : [],
);

interface Report {
  code: number;
  ok: boolean;
  checks: Check[];
  failed: string[];
  stderr: string;
}

async function doctor(env: Record<string, string | undefined>): Promise<Report> {
  const { stdout, stderr, code } = await promisify(execFile)(HERALD, ['doctor', '--json'], {
    env: env as NodeJS.ProcessEnv,
  }).then(
    (r) => ({ ...r, code: 0 }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
  const report = JSON.parse(stdout) as { ok: boolean; checks: Check[] };
  return { code, ...report, failed: report.checks.filter((c) => c.status === 'fail').map((c) => c.name), stderr };
}

const check = (report: Report, name: string) => report.checks.find((c) => c.name === name)!;

/** The environment of a clean shell for `env`'s instance: no stray Herald variables from the test runner. */
function cleanEnv(vars: Record<string, string | undefined>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ['DATABASE_URL', 'HERALD_SECRET', 'NETWORKS', 'STORAGE', 'LOG_FORMAT', 'WORKER', ...CLIENT_VARS])
    delete env[name];
  return { ...env, ...vars };
}

describe('doctor rules', () => {
  it('wants Node.js 20.19 or later', () => {
    expect(nodeCheck('20.19.0').status).toBe('ok');
    expect(nodeCheck('22.1.0').status).toBe('ok');
    expect(nodeCheck('20.18.3')).toMatchObject({ status: 'fail', fix: expect.stringContaining('20.19') });
    expect(nodeCheck('18.20.0').status).toBe('fail');
  });

  it('fails under 1 GiB free and warns under 10 GiB', () => {
    expect(freeSpaceCheck(500 * 1024 ** 2, '/data')).toMatchObject({
      status: 'fail',
      message: '0.5 GiB free at /data.',
      fix: expect.any(String),
    });
    expect(freeSpaceCheck(5 * 1024 ** 3, '/data').status).toBe('warn');
    expect(freeSpaceCheck(50 * 1024 ** 3, '/data').status).toBe('ok');
  });
});

describe.each(DATABASES)('herald doctor on %s', (kind) => {
  let herald: Awaited<ReturnType<typeof listeningHerald>>;
  let worker: RunningWorker | undefined;
  let healthy: Record<string, string | undefined>;

  beforeAll(async () => {
    herald = await listeningHerald(kind);
    const ws = await seedWorkspace(herald, { plan: 'agency' });
    await sandboxAccount(herald, ws.workspaceId, 'threads');
    worker = await startWorker(herald.services);
    healthy = cleanEnv({
      DATA_DIR: herald.config.dataDir,
      DATABASE_URL: herald.config.databaseUrl,
      PORT: String(herald.config.port),
      PUBLIC_URL: herald.base,
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await herald.close();
  });

  it('finds all well on a healthy instance with a running worker, and exits 0', async () => {
    const report = await doctor(healthy);
    expect(report.failed).toEqual([]);
    expect(report).toMatchObject({ code: 0, ok: true, stderr: '' });
    expect(report.checks.map((c) => c.name)).toEqual([
      'node',
      'ffmpeg',
      'ffprobe',
      'configuration',
      'secret',
      'database',
      'migrations',
      'account tokens',
      'storage',
      'free space',
      'public url',
      'public url reachable',
      'networks',
      'worker',
    ]);
    expect(check(report, 'worker')).toMatchObject({
      status: 'ok',
      jobsWaiting: 0,
      lastHeartbeatAgeSeconds: expect.any(Number),
    });
    expect(check(report, 'public url reachable').status).toBe('ok');
  });

  if (kind === 'postgres') {
    it('catches an unreachable PostgreSQL', async () => {
      const report = await doctor({ ...healthy, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/herald' });
      expect(report.failed).toEqual(['database']);
      expect(check(report, 'database').fix).toContain('DATABASE_URL');
    });

    it('catches a database that is not migrated, naming the migrations', async () => {
      const empty = await createPgDatabase();
      try {
        const report = await doctor({ ...healthy, DATABASE_URL: empty.url });
        expect(report.failed).toEqual(['migrations']);
        expect(check(report, 'migrations')).toMatchObject({
          message: expect.stringContaining('0001_foundation'),
          fix: expect.stringContaining('herald migrate'),
        });
      } finally {
        await empty.drop();
      }
    });
  }

  // The rest does not depend on the database.
  if (kind === 'sqlite')
    describe.concurrent('one misconfiguration at a time', () => {
      it('ffmpeg and ffprobe missing from PATH', async () => {
        const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-path-'));
        for (const tool of ['bash', 'readlink', 'dirname']) fs.symlinkSync(`/usr/bin/${tool}`, path.join(bin, tool));
        fs.symlinkSync(process.execPath, path.join(bin, 'node'));
        const report = await doctor({ ...healthy, PATH: bin });
        expect(report.failed).toEqual(['ffmpeg', 'ffprobe']);
        expect(check(report, 'ffmpeg').fix).toContain('apt-get install ffmpeg');
      });

      it('a HERALD_SECRET copied from an example', async () => {
        const report = await doctor({ ...healthy, HERALD_SECRET: 'change-me-change-me-change-me-change-me' });
        expect(report.failed).toEqual(['secret']);
        expect(check(report, 'secret').fix).toContain('openssl rand');
      });

      it('a HERALD_SECRET too short', async () => {
        expect((await doctor({ ...healthy, HERALD_SECRET: 'Xq9#kL2$' })).failed).toEqual(['secret']);
      });

      it('a HERALD_SECRET other than the one the account tokens were sealed with', async () => {
        const report = await doctor({ ...healthy, HERALD_SECRET: 'Q7v2LmZp9rT4xKcW8nB3yHd6fJs1gAeR5uVoNiMk0tE' });
        expect(report.failed).toEqual(['account tokens']);
        expect(check(report, 'account tokens').fix).toContain('backup');
      });

      it('an invalid variable', async () => {
        const report = await doctor({ ...healthy, LOG_FORMAT: 'fancy' });
        expect(report.failed).toEqual(['configuration']);
        expect(check(report, 'configuration').message).toContain('LOG_FORMAT');
      });

      it('no database in DATA_DIR', async () => {
        const report = await doctor({ ...healthy, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'herald-empty-')) });
        expect(report.failed).toEqual(['database']);
        expect(check(report, 'database').fix).toContain('herald serve');
      });

      it('a DATA_DIR where nothing can be written', async () => {
        const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-file-')), 'not-a-directory');
        fs.writeFileSync(file, '');
        const report = await doctor({ ...healthy, DATA_DIR: file });
        expect(report.failed).toContain('storage');
        expect(check(report, 'storage').fix).toContain('DATA_DIR');
      });

      it('live networks with an http PUBLIC_URL', async () => {
        const live = Object.fromEntries(CLIENT_VARS.map((name) => [name, `value-of-${name}`]));
        const report = await doctor({ ...healthy, ...live, NETWORKS: 'live' });
        expect(report.failed).toEqual(['public url']);
        expect(check(report, 'public url').fix).toContain('https');
      });

      it('a live network without its client secret, and one without either variable', async () => {
        const live = Object.fromEntries(CLIENT_VARS.map((name) => [name, `value-of-${name}`]));
        delete live.YOUTUBE_CLIENT_SECRET;
        delete live.THREADS_CLIENT_ID;
        delete live.THREADS_CLIENT_SECRET;
        const report = await doctor({
          ...healthy,
          ...live,
          NETWORKS: 'live',
          PUBLIC_URL: 'https://herald.example.com',
        });
        expect(report.failed.sort()).toEqual(['network threads', 'network youtube']);
        expect(check(report, 'network youtube').message).toBe(
          'YOUTUBE_CLIENT_SECRET is not set: youtube accounts cannot be connected or publish.',
        );
        expect(check(report, 'network threads').fix).toContain(
          'https://herald.example.com/auth/connect/threads/callback',
        );
        // A Meta app with the Threads use case has two ids: Threads takes the Threads app's (issue 42 item 7).
        expect(check(report, 'network threads').fix).toContain('Threads App ID');
        expect(check(report, 'network instagram').status).toBe('ok');
      });
    });

  if (kind === 'sqlite')
    describe('S3 storage', () => {
      let s3: S3rver;
      let s3Env: Record<string, string>;

      beforeAll(async () => {
        s3 = new S3rver({
          address: '127.0.0.1',
          port: 0,
          silent: true,
          directory: fs.mkdtempSync(path.join(os.tmpdir(), 'herald-s3-')),
          configureBuckets: [{ name: 'herald', configs: [] }],
        });
        const { port } = await s3.run();
        s3Env = {
          STORAGE: 's3',
          S3_BUCKET: 'herald',
          S3_ENDPOINT: `http://127.0.0.1:${port}`,
          S3_FORCE_PATH_STYLE: 'true',
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
          S3_PREFIX: 'media',
        };
      });
      afterAll(() => s3.close());

      it('passes a round trip of a small object, and catches a bucket that does not exist', async () => {
        const [good, bad] = await Promise.all([
          doctor({ ...healthy, ...s3Env }),
          doctor({ ...healthy, ...s3Env, S3_BUCKET: 'no-such-bucket' }),
        ]);
        expect(check(good, 'storage')).toMatchObject({
          status: 'ok',
          message: expect.stringContaining('written, read back and deleted'),
        });
        expect(bad.failed).toEqual(['storage']);
        expect(check(bad, 'storage')).toMatchObject({
          message: expect.stringContaining('NoSuchBucket'),
          fix: expect.stringContaining('S3_BUCKET'),
        });
      });
    });
  // Last: it stops the worker the other checks rely on.
  it('catches publish jobs waiting with no worker to take them, with the figures', async () => {
    await worker!.stop();
    worker = undefined;
    const tenMinutesAgo = new Date(Date.now() - 600_000).toISOString();
    if (kind === 'sqlite') {
      await herald.services
        .db('jobs')
        .insert({ key: 'pst_waitingForAWorker', task: 'publish', run_at: tenMinutesAgo, version: 0 });
    } else {
      await herald.services.db.raw(
        `select graphile_worker.add_job('publish', '{"postId":"pst_waitingForAWorker"}'::json, run_at := ` +
          `?::timestamptz)`,
        [tenMinutesAgo],
      );
    }
    const report = await doctor(healthy);
    expect(report).toMatchObject({ code: 1, ok: false, failed: ['worker'] });
    expect(check(report, 'worker')).toMatchObject({
      jobsWaiting: 1,
      oldestJobAgeSeconds: expect.any(Number),
      lastHeartbeat: null,
      fix: expect.stringContaining(kind === 'sqlite' ? 'herald serve' : 'herald worker'),
    });
    expect(check(report, 'worker').oldestJobAgeSeconds).toBeGreaterThanOrEqual(600);
    expect(JSON.parse(report.stderr)).toMatchObject({
      code: 'doctor_found_problems',
      message: '1 check failed: worker.',
      hint: expect.any(String),
    });
  });
});
