// `make image-test`: the built image (`make image`) run as a container would run it, where containers cannot be
// started: its root file system mounted with buildah, `herald serve` started in it by chroot under the image's
// own user, environment, working folder and entry point, against this machine's PostgreSQL. Then the quick
// start through the image's own `herald` commands and its REST API: a workspace, a key, a sandbox account, a
// photo and a video processed (sharp, ffprobe and ffmpeg inside the image), and a post live.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeImage, makeVideo, tempDir } from '../support/mediaFiles.ts';
import { postedNow } from '../support/network.ts';
import { until } from '../support/waiting.ts';
import { createPgDatabase, freePort } from '../support/processes.ts';

const IMAGE = process.env.IMAGE ?? 'localhost/herald:latest';
const MAX_MB = 400;

interface ImageConfig {
  User: string;
  Env: string[];
  Entrypoint: string[];
  Cmd: string[];
  WorkingDir: string;
  Volumes?: Record<string, object>;
  Healthcheck?: { Test: string[] };
}

const buildah = (...args: string[]) => execFileSync('buildah', args, { encoding: 'utf8' }).trim();

describe(`the image ${IMAGE}`, () => {
  const inspected = JSON.parse(buildah('inspect', '--type', 'image', IMAGE));
  const config: ImageConfig = inspected.Docker.config;
  let container = '';
  let root = '';
  let server: ChildProcess | undefined;
  let database: Awaited<ReturnType<typeof createPgDatabase>>;
  let base = '';
  const mounts: string[] = [];
  let env: string[] = [];

  /** A command in the image, as `exec` runs it: its user, environment and working folder. */
  function inImage(argv: string[], extra: string[] = []): string[] {
    const [user] = config.User.split(':');
    const entry = fs
      .readFileSync(path.join(root, 'etc/passwd'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith(`${user}:`))!
      .split(':');
    return [
      `--userspec=${entry[2]}:${entry[3]}`,
      root,
      '/usr/bin/env',
      '-i',
      '-C',
      config.WorkingDir,
      ...env,
      ...extra,
      ...argv,
    ];
  }
  const herald = (...args: string[]) =>
    JSON.parse(execFileSync('chroot', inImage([...config.Entrypoint, ...args]), { encoding: 'utf8' }));

  beforeAll(async () => {
    container = buildah('from', '--quiet', IMAGE);
    root = buildah('mount', container);
    for (const [what, type] of [
      ['proc', 'proc'],
      ['dev', 'bind'],
    ] as const) {
      const target = path.join(root, what);
      execFileSync('mount', type === 'proc' ? ['-t', 'proc', 'proc', target] : ['--bind', `/${what}`, target]);
      mounts.push(target);
    }
    database = await createPgDatabase();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The image's environment, then what an operator's `-e` adds: the port, the address and the database.
    env = [...config.Env, `PORT=${port}`, `PUBLIC_URL=${base}`, `DATABASE_URL=${database.url}`, 'LOG_FORMAT=json'];
    server = spawn('chroot', inImage([...config.Entrypoint, ...config.Cmd]), { stdio: ['ignore', 'pipe', 'inherit'] });
    server.stdout!.resume();
    const healthy = await until(
      () =>
        fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      (ok) => ok,
      60_000,
    );
    expect(healthy, 'herald serve answers /healthz within a minute').toBe(true);
  }, 90_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    for (const target of mounts.reverse()) execFileSync('umount', [target]);
    if (container) buildah('rm', container);
    await database?.drop();
  });

  it(`downloads as under ${MAX_MB} MB, runs as a user but root, keeps its data in a volume, checks its health`, () => {
    // What a registry transfers: the image's layers compressed, as `buildah push` writes them.
    const archive = path.join(tempDir(), 'image.oci.tar');
    buildah('push', '--quiet', IMAGE, `oci-archive:${archive}`);
    const compressedMb = fs.statSync(archive).size / 1e6;
    fs.rmSync(path.dirname(archive), { recursive: true, force: true });
    const unpacked = JSON.parse(buildah('images', '--json', IMAGE))[0].size;
    console.log(`${IMAGE}: ${compressedMb.toFixed(0)} MB compressed, ${unpacked} unpacked`);
    expect(compressedMb).toBeLessThan(MAX_MB);
    expect(config.User).not.toMatch(/^(root|0)?(:|$)/);
    expect(Object.keys(config.Volumes ?? {})).toEqual(['/data']);
    expect(config.Healthcheck?.Test.join(' ')).toContain('/healthz');
    // The health check itself, run in the image as the container runtime would.
    execFileSync('chroot', inImage(config.Healthcheck!.Test.slice(1)));
  }, 300_000);

  it('runs the quick start: workspace, key, sandbox account, files processed, a post live', async () => {
    const { workspaceId } = herald('workspace', 'create', '--name', 'Image Shop', '--plan', 'creator', '--tz', 'UTC');
    const { key } = herald('key', 'create', '--workspace', workspaceId, '--name', 'image', '--scopes', 'read,write');
    const { accountId } = herald(
      'account',
      'add-sandbox',
      '--workspace',
      workspaceId,
      '--platform',
      'threads',
      '--name',
      'Image Shop',
    );
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };

    const dir = tempDir();
    const files = [
      { file: await makeImage(dir, 'jpeg', 1080, 1080), mime: 'image/jpeg' },
      { file: makeVideo(dir, { seconds: 3, width: 640, height: 360, fps: 30 }), mime: 'video/mp4' },
    ];
    for (const { file, mime } of files) {
      const bytes = fs.readFileSync(file);
      const reserved = await fetch(`${base}/v1/media/uploads`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ filename: path.basename(file), mime, size: bytes.length }),
      }).then((r) => r.json());
      const put = await fetch(reserved.uploadUrl, { method: 'PUT', headers: { 'Content-Type': mime }, body: bytes });
      expect(put.status).toBe(200);
      const media = await until(
        () => fetch(`${base}/v1/media/${reserved.mediaId}`, { headers }).then((r) => r.json()),
        (m) => m.status !== 'processing',
        60_000,
      );
      expect({ file: path.basename(file), status: media.status, failReason: media.failReason ?? null }).toEqual({
        file: path.basename(file),
        status: 'ready',
        failReason: null,
      });
    }
    fs.rmSync(dir, { recursive: true, force: true });

    const post = await postedNow(base, key, accountId, 'Hello from the image', 60_000);
    expect(post.status).toBe('live');
  }, 180_000);

  it('passes herald doctor: Node, ffmpeg and ffprobe, the database and the data folder', () => {
    const run = spawnSync('chroot', inImage([...config.Entrypoint, 'doctor', '--json']), { encoding: 'utf8' });
    const report = JSON.parse(run.stdout);
    const failed = report.checks.filter((c: { status: string }) => c.status === 'fail');
    expect(failed).toEqual([]);
    expect(run.status).toBe(0);
  });
});

// Compose cannot start containers here either: podman-compose's dry run reads compose.yaml and prints the
// `podman run` of each service, which must run the image `make image` builds beside PostgreSQL.
describe('compose.yaml', () => {
  it('runs the image on port 8080 with its data volume, against the PostgreSQL service it waits for', () => {
    const project = 'heraldcomposecheck';
    const run = spawnSync('podman-compose', ['-p', project, '--dry-run', 'up', '-d'], { encoding: 'utf8' });
    try {
      const lines = run.stdout.split('\n').filter((line) => line.startsWith('podman run '));
      const herald = lines.find((line) => line.includes(`--name=${project}_herald_1`)) ?? '';
      const postgres = lines.find((line) => line.includes(`--name=${project}_postgres_1`)) ?? '';
      expect(herald, run.stdout + run.stderr).toMatch(/ localhost\/herald:latest$/);
      for (const part of [
        '-e DATABASE_URL=postgres://herald:herald@postgres:5432/herald',
        '-e NETWORKS=sandbox',
        `-v ${project}_herald-data:/data`,
        '-p 8080:8080',
      ])
        expect(herald).toContain(part);
      expect(postgres).toContain('-e POSTGRES_DB=herald');
      expect(postgres).toContain('--healthcheck-command');
    } finally {
      // The dry run still makes the volumes and the network it would use.
      spawnSync('podman', ['volume', 'rm', `${project}_herald-data`, `${project}_postgres-data`]);
      spawnSync('podman', ['network', 'rm', `${project}_default`]);
    }
  });
});
