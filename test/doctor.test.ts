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
import { appChecks } from '../cli/doctorLive.ts';
import { loadConfig } from '../runtime/config.ts';
import { startWorker, type RunningWorker } from '../worker/worker.ts';
import { createPgDatabase, DATABASES, seedWorkspace, type Seeded } from './support/harness.ts';
import { listeningHerald, sandboxAccount } from './support/network.ts';
import { createSession, findWorkspace } from '../db/identity.ts';
import { workspaceData } from '../db/workspaceData.ts';
import { randomBase62 } from '../domain/ids.ts';
import { NETWORKS } from '../networks/index.ts';
import { sandboxToken } from '../networks/sandbox/state.ts';

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

async function doctor(env: Record<string, string | undefined>, args: string[] = []): Promise<Report> {
  const { stdout, stderr, code } = await promisify(execFile)(HERALD, ['doctor', '--json', ...args], {
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

describe('doctor --live: the apps at the networks', () => {
  const configured = Object.fromEntries(CLIENT_VARS.map((name) => [name, `value-of-${name}`]));
  const liveConfig = (publicUrl: string) =>
    loadConfig({ NETWORKS: 'live', PUBLIC_URL: publicUrl, DATA_DIR: os.tmpdir() });
  const named = (checks: Check[], name: string) => checks.find((c) => c.name === name);

  it("names each app network's variables, its callback address exactly and the scopes from its connect module", () => {
    const checks = appChecks(liveConfig('https://herald.example.com'), { ...configured, FACEBOOK_CONFIG_ID: '42' });
    expect(checks.filter((c) => c.status !== 'ok')).toEqual([]);
    expect(checks.map((c) => c.name)).toEqual([
      'network youtube',
      'network instagram',
      'network facebook',
      'network threads',
      'network tiktok',
    ]);
    expect(named(checks, 'network threads')).toMatchObject({
      callback: 'https://herald.example.com/auth/connect/threads/callback',
      scopes: NETWORKS.threads.connect!.scopes,
    });
    expect(named(checks, 'network facebook')!.message).toContain('FACEBOOK_CONFIG_ID is set (Login for Business)');
    expect(named(checks, 'network instagram')!.message).toContain('INSTAGRAM_CONFIG_ID is not set (classic login)');
  });

  it('fails a missing variable, naming it and the callback to register', () => {
    const { TIKTOK_CLIENT_SECRET: _, ...env } = configured;
    const checks = appChecks(liveConfig('https://herald.example.com'), env);
    expect(checks.filter((c) => c.status === 'fail').map((c) => c.name)).toEqual(['network tiktok']);
    expect(named(checks, 'network tiktok')).toMatchObject({
      message: 'TIKTOK_CLIENT_SECRET is not set: TikTok accounts cannot be connected or publish.',
      fix: expect.stringContaining('https://herald.example.com/auth/connect/tiktok/callback'),
    });
  });

  it('fails a plain http PUBLIC_URL with live networks, and not in the sandbox', () => {
    const checks = appChecks(liveConfig('http://herald.example.com'), configured);
    expect(checks.filter((c) => c.status === 'fail').map((c) => c.name)).toEqual(['callback addresses']);
    expect(named(checks, 'callback addresses')!.message).toContain('TikTok and Meta refuse http redirect addresses');
    const sandbox = loadConfig({ PUBLIC_URL: 'http://localhost:8080', DATA_DIR: os.tmpdir() });
    expect(appChecks(sandbox, {}).filter((c) => c.status !== 'ok')).toEqual([]);
  });
});

describe.each(DATABASES)('herald doctor on %s', (kind) => {
  let herald: Awaited<ReturnType<typeof listeningHerald>>;
  let worker: RunningWorker | undefined;
  let healthy: Record<string, string | undefined>;
  let ws: Seeded;

  beforeAll(async () => {
    herald = await listeningHerald(kind);
    ws = await seedWorkspace(herald, { plan: 'agency' });
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
        // A Meta app with the Threads use case has two ids: Threads takes the Threads app's.
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
  // Each account's token proves itself with one harmless read at its network's simulator.
  describe('--live', () => {
    const live = (...args: string[]) => doctor({ ...healthy, HERALD_TIKTOK_AUDITED: 'false' }, ['--live', ...args]);
    const accountNamed = (report: Report, id: string) => check(report, `account ${id}`);
    /** `herald account add-sandbox`, as an operator runs it: the new account's id. */
    const addSandbox = async (platform: string, name: string) => {
      const args = ['account', 'add-sandbox', '--workspace', ws.workspaceId, '--platform', platform, '--name', name];
      const { stdout } = await promisify(execFile)(HERALD, args, { env: healthy as NodeJS.ProcessEnv });
      return (JSON.parse(stdout) as { accountId: string }).accountId;
    };

    it('reads every connected account, says what matters for each, and exits 0', async () => {
      const ids = Object.fromEntries(
        await Promise.all(
          (['youtube', 'instagram', 'facebook'] as const).map(async (p) => [
            p,
            (await sandboxAccount(herald, ws.workspaceId, p)).id,
          ]),
        ),
      ) as Record<string, string>;
      // Until TikTok audits the app it takes posts from private accounts only.
      ids.tiktok = await addSandbox('tiktok', 'Acme private studio');
      const threads = await threadsConnected(herald, ws.workspaceId);
      const report = await live();
      expect(report.failed).toEqual([]);
      expect(report.code).toBe(0);
      expect(check(report, 'network tiktok')).toMatchObject({
        status: 'ok',
        callback: `${herald.base}/auth/connect/tiktok/callback`,
        scopes: NETWORKS.tiktok.connect!.scopes,
      });
      expect(check(report, 'network facebook')).toMatchObject({ configIdVariable: 'FACEBOOK_CONFIG_ID' });
      expect(report.checks.some((c) => c.name === 'network bluesky')).toBe(false);
      expect(accountNamed(report, ids.tiktok!)).toMatchObject({
        status: 'ok',
        postsPrivate: true,
        message: expect.stringMatching(/privacy options .*SELF_ONLY.*posts will be private \(SELF_ONLY\)/),
      });
      expect(accountNamed(report, ids.youtube!)).toMatchObject({ status: 'ok', counters: expect.any(Object) });
      for (const p of ['instagram', 'facebook']) expect(accountNamed(report, ids[p]!).status).toBe('ok');
      const renewFrom = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
      expect(accountNamed(report, threads).message).toMatch(
        new RegExp(`expires on \\d{4}-\\d\\d-\\d\\d \\(in 59 days\\); the token upkeep renews it from ${renewFrom}`),
      );
    });

    it('fails a public TikTok account while the app is unaudited: TikTok would refuse its posts', async () => {
      const id = await addSandbox('tiktok', 'Acme public studio');
      const report = await live('--account', id);
      expect(report.failed).toEqual([`account ${id}`]);
      expect(accountNamed(report, id)).toMatchObject({
        message: expect.stringContaining('The account is public, so TikTok refuses its posts.'),
        fix: expect.stringContaining('Private account'),
      });
      const audited = await doctor({ ...healthy, HERALD_TIKTOK_AUDITED: 'true' }, ['--live', '--account', id]);
      expect(audited.failed).toEqual([]);
      expect(accountNamed(audited, id)).toMatchObject({ postsPrivate: false });
    });

    it('fails a token the network refuses, for the account named', async () => {
      const expired = await sandboxAccount(herald, ws.workspaceId, 'youtube', 'expired');
      const report = await live('--account', expired.id);
      expect(report.code).toBe(1);
      expect(report.failed).toEqual([`account ${expired.id}`]);
      expect(accountNamed(report, expired.id)).toMatchObject({
        code: 'youtube_token_rejected',
        fix: expect.stringContaining('Reconnect the YouTube account'),
      });
      expect(JSON.parse(report.stderr).code).toBe('doctor_found_problems');
    });

    it('fails an account whose grant lacks a scope Herald asks for', async () => {
      const id = await tiktokGrantedWithout(herald, ws, 'video.publish');
      const report = await live('--account', id);
      expect(report.failed).toEqual([`account ${id}`]);
      expect(accountNamed(report, id)).toMatchObject({
        code: 'tiktok_permission_missing',
        message: expect.stringContaining('scope_not_authorized'),
        fix: expect.stringContaining('grant every permission'),
      });
    });

    it('refuses an account that is not connected here, and --account without --live', async () => {
      const run = (args: string[]) =>
        promisify(execFile)(HERALD, ['doctor', ...args], { env: healthy as NodeJS.ProcessEnv }).catch(
          (e: { code: number; stderr: string }) => e,
        );
      const missing = (await run(['--live', '--account', 'acc_nosuch'])) as { code: number; stderr: string };
      expect(missing.code).toBe(1);
      expect(JSON.parse(missing.stderr)).toMatchObject({
        code: 'not_found',
        hint: expect.stringContaining('--account'),
      });
      const alone = (await run(['--account', 'acc_nosuch'])) as { code: number; stderr: string };
      expect(JSON.parse(alone.stderr)).toMatchObject({
        code: 'invalid_request',
        message: '--account goes with --live.',
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

type Listening = Awaited<ReturnType<typeof listeningHerald>>;

/** A Threads account connected with the long-lived token the simulator issued now (60 days). */
async function threadsConnected(herald: Listening, workspaceId: string): Promise<string> {
  const short = sandboxToken('access', `sandbox-threads-${randomBase62(10)}`);
  const res = await fetch(
    `${herald.base}/sandbox/threads/access_token?grant_type=th_exchange_token&access_token=${short}`,
  );
  const token = (await res.json()) as { access_token: string; expires_in: number };
  const externalId = token.access_token.split('.')[1]!;
  const expiresAt = new Date(Date.now() + token.expires_in * 1000).toISOString();
  const workspace = (await findWorkspace(herald.services.db, workspaceId))!;
  await workspaceData(herald.services.db, workspace, herald.services.clock).accounts.connect('threads', [
    {
      externalId,
      displayName: 'Acme threads',
      tokenSealed: herald.services.keyring.encrypt(JSON.stringify({ accessToken: token.access_token, expiresAt })),
      tokenExpiresAt: expiresAt,
    },
  ]);
  return (await herald.services.db('accounts').where({ platform: 'threads', external_id: externalId }).first('id')).id;
}

/**
 * A TikTok account connected through Herald's consent flow by a person who unticked `scope` on TikTok's page (the
 * sandbox consent page's form sends the scopes granted). Answers its id.
 */
async function tiktokGrantedWithout(herald: Listening, ws: Seeded, scope: string): Promise<string> {
  const cookie = `herald_session=${(await createSession(herald.services.db, ws.userId, ws.workspaceId)).token}`;
  const redirect = async (res: Response) => new URL(res.headers.get('location')!, res.url || herald.base);
  const start = await fetch(`${herald.base}/auth/connect/tiktok`, { headers: { cookie }, redirect: 'manual' });
  const authorize = await redirect(start);
  const html = await (await fetch(authorize)).text();
  const hidden = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))),
    ]),
  );
  const granted = NETWORKS.tiktok.connect!.scopes.filter((s) => s !== scope).join(',');
  const name = `Narrow ${randomBase62(6)}`;
  const back = await fetch(`${authorize.origin}${authorize.pathname}`, {
    method: 'POST',
    body: new URLSearchParams({ ...hidden, scope: granted, display_name: name, decision: 'allow' }),
    redirect: 'manual',
  });
  expect(back.status).toBe(302);
  const done = await fetch(back.headers.get('location')!, { headers: { cookie }, redirect: 'manual' });
  expect(done.status, done.headers.get('location') ?? '').toBe(302);
  return (await herald.services.db('accounts').where({ platform: 'tiktok', display_name: name }).first('id')).id;
}
