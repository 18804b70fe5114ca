// Bluesky's reference PDS (@atproto/pds, with a PLC directory) for the tests that publish to a real Bluesky
// server. The PDS needs Node 22 while Herald runs on 20: it is installed by npm under Node 22 (`npx -p node@22`)
// into a cache folder of its own, outside the repository, from the lockfile in test/support/blueskyPds/, with
// better-sqlite3 compiled against Node 22's headers (taken from the npm package of that Node build, as no other
// internet than the npm registry may be reachable). The folder is named by the lockfile's hash, so the install
// happens once per machine and lockfile; each test file then starts one PDS, in a process of its own.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Node build the PDS runs on; its headers compile the native modules. */
const NODE_VERSION = '22.23.3';
const SOURCE = path.join(import.meta.dirname, 'blueskyPds');
const INSTALL_TIMEOUT_MS = 15 * 60_000;

/** The cache root: HERALD_PDS_CACHE, or herald/bluesky-pds in the user's cache folder. */
function cacheRoot(): string {
  if (process.env.HERALD_PDS_CACHE) return process.env.HERALD_PDS_CACHE;
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'herald', 'bluesky-pds');
}

/** `npx -y -p node@22… -- <args>`: a command run by Node 22, its own npm included. */
function underNode22(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return run('npx', ['-y', '-p', `node@${NODE_VERSION}`, '--', ...args], {
    ...options,
    maxBuffer: 64 * 1024 * 1024,
    timeout: INSTALL_TIMEOUT_MS,
  });
}

/** Node's C headers for this build (node-gyp's nodedir), unpacked in `dir` from the registry's node-<os>-<arch>. */
async function nodeHeaders(dir: string): Promise<string> {
  const pkg = `node-${process.platform}-${process.arch}@${NODE_VERSION}`;
  const { stdout } = await run('npm', ['pack', pkg, '--silent'], { cwd: dir, timeout: INSTALL_TIMEOUT_MS });
  await run('tar', ['-xzf', stdout.trim(), 'package/include'], { cwd: dir });
  fs.rmSync(path.join(dir, stdout.trim()));
  return path.join(dir, 'package');
}

export interface PdsInstall {
  /** The install folder (node_modules of the PDS and the PLC server). */
  dir: string;
  /** The Node 22 binary that runs them. */
  node: string;
  /** Milliseconds this call spent installing: 0 when the cache held it. */
  installMs: number;
}

/** The PDS installed for Node 22 in the cache, installing it first when the lockfile changed or it is absent. */
export async function installPds(): Promise<PdsInstall> {
  const started = performance.now();
  const lock = fs.readFileSync(path.join(SOURCE, 'package-lock.json'));
  const key = createHash('sha256').update(lock).update(NODE_VERSION).digest('hex').slice(0, 16);
  const root = cacheRoot();
  const dir = path.join(root, key);
  fs.mkdirSync(root, { recursive: true });
  if (!fs.existsSync(path.join(dir, '.installed'))) await installOnce(dir);
  const installMs = Math.round(performance.now() - started);
  const { stdout } = await underNode22(['node', '-p', 'process.execPath']);
  return { dir, node: stdout.trim(), installMs };
}

/** Whether the process that holds the lock folder (its pid in `pid`) still runs. */
function lockHeld(lockDir: string): boolean {
  let pid = 0;
  try {
    pid = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
  } catch {
    // Not written yet (the lock was just taken), or the lock is gone: the age below decides.
  }
  if (!pid) return Date.now() - (fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? 0) < 60_000;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Installs into `dir` unless another process is doing it (two test files starting at once on a fresh machine):
 * the first takes the lock folder, the others wait for its `.installed`, or take over a lock left by a process
 * that died.
 */
async function installOnce(dir: string): Promise<void> {
  const lockDir = `${dir}.installing`;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (fs.existsSync(path.join(dir, '.installed'))) return;
    if (!lockHeld(lockDir)) fs.rmSync(lockDir, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const work = path.join(lockDir, 'install');
  try {
    if (fs.existsSync(path.join(dir, '.installed'))) return;
    fs.mkdirSync(work);
    const headers = await nodeHeaders(work);
    for (const file of ['package.json', 'package-lock.json'])
      fs.copyFileSync(path.join(SOURCE, file), path.join(work, file));
    await underNode22(['npm', 'ci', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: work,
      // better-sqlite3 has no prebuilt binary to fetch without GitHub: node-gyp compiles it for Node 22.
      env: { ...process.env, npm_config_nodedir: headers, npm_config_build_from_source: 'true', JOBS: 'max' },
    });
    fs.rmSync(headers, { recursive: true, force: true });
    fs.writeFileSync(path.join(work, '.installed'), new Date().toISOString());
    fs.renameSync(work, dir);
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

export interface RunningPds {
  /** The PDS's address (http://localhost:<port>), as its accounts' DID documents name it. */
  url: string;
  plcUrl: string;
  adminPassword: string;
  /** Milliseconds to load the PDS's modules, then to start the PLC directory and the PDS. */
  importMs: number;
  startMs: number;
  close(): Promise<void>;
}

/** Starts a PLC directory and a PDS on loopback; `blobUploadLimit` lowers the PDS's limit on uploads (bytes). */
export async function startPds(install: PdsInstall, options: { blobUploadLimit?: number } = {}): Promise<RunningPds> {
  // Modules resolve from the script's folder: the script goes next to the install's node_modules.
  const script = path.join(install.dir, 'serve.mjs');
  fs.copyFileSync(path.join(SOURCE, 'serve.mjs'), script);
  const child: ChildProcess = spawn(install.node, [script], {
    cwd: install.dir,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      LOG_ENABLED: 'false',
      ...(options.blobUploadLimit ? { PDS_BLOB_UPLOAD_LIMIT: String(options.blobUploadLimit) } : {}),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const ready = await new Promise<Omit<RunningPds, 'close'>>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d;
    });
    const onData = (d: Buffer) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line || !out.includes('\n')) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      const started = JSON.parse(line);
      resolve({ ...started, url: started.pds, plcUrl: started.plc });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the PDS exited with ${code}: ${err || out}`)));
  });
  return {
    ...ready,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      await exited;
    },
  };
}
