// Herald as child processes, for the benchmarks and the crash run: a temp DATA_DIR, a PostgreSQL database,
// a process started and awaited until it logs that it is ready, and stopped. No test module (vitest) here.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { randomBase62 } from '../../domain/ids.ts';

import { freePort } from './freePort.ts';
import { pgTemplateClause } from './templateDatabases.ts';

export { freePort };

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const HERALD = path.join(ROOT, 'bin/herald');
const TSX_LOADER = `file://${ROOT}/node_modules/tsx/dist/loader.mjs`;

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-'));
}

/** The cluster's admin address: TEST_PG_URL (tests) or BENCH_PG_URL (benchmarks), else the local one. */
export const PG_ADMIN_URL =
  process.env.TEST_PG_URL ?? process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A fresh PostgreSQL database on the cluster of `adminUrl` (PG_ADMIN_URL by default), empty or (`migrated`) a copy
 * of the test run's migrated template; returns its URL and a function that drops it.
 */
export async function createPgDatabase(
  opts: { migrated?: boolean; adminUrl?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = opts.adminUrl ?? PG_ADMIN_URL;
  const name = `herald_test_${randomBase62(12).toLowerCase()}`;
  const admin = knexFactory({ client: 'pg', connection: adminUrl });
  await admin.raw(`create database ${name}${opts.migrated ? pgTemplateClause() : ''}`);
  await admin.destroy();
  return {
    url: adminUrl.replace(/\/[^/]*$/, `/${name}`),
    drop: async () => {
      const a = knexFactory({ client: 'pg', connection: adminUrl });
      await a.raw(`drop database if exists ${name} with (force)`);
      await a.destroy();
    },
  };
}

/**
 * Starts bin/herald, a TypeScript entry through tsx, or the compiled dist/herald.js under Node flags that
 * NODE_OPTIONS may not carry (such as --cpu-prof), and resolves once its output contains `ready`. With
 * `timeoutMs`, a process not ready by then is killed (SIGKILL) and the start rejects.
 */
export async function startProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: string,
  runner: 'herald' | 'tsx' | { nodeFlags: string[] } = 'herald',
  timeoutMs?: number,
): Promise<ChildProcess> {
  const [command, argv] =
    runner === 'herald'
      ? [HERALD, args]
      : runner === 'tsx'
        ? [process.execPath, ['--import', TSX_LOADER, ...args]]
        : [process.execPath, [...runner.nodeFlags, path.join(ROOT, 'dist/herald.js'), ...args]];
  const child = spawn(command, argv, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const onData = (d: Buffer) => {
      seen += d;
      if (seen.includes(ready)) {
        child.stdout!.off('data', onData);
        child.stdout!.resume(); // keep draining the log so the server never blocks on a full pipe
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${seen}`)));
    if (timeoutMs)
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${args.join(' ')} was not ready after ${timeoutMs / 1000} s: ${seen.slice(-500)}`));
      }, timeoutMs);
  }).finally(() => clearTimeout(timer));
  return child;
}

export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}

/** A running process's resident set size in MB (Linux /proc). */
export function rssMb(child: ChildProcess): number {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024);
}

/** A fresh instance to run as processes: its own DATA_DIR, port and (on PostgreSQL) database, no rate limit. */
export interface Instance {
  env: NodeJS.ProcessEnv;
  /** Herald's address (PUBLIC_URL). */
  base: string;
  /** With `sandbox`: where `herald sandbox serve` answers (SANDBOX_URL, on SANDBOX_PORT). */
  sandboxUrl?: string;
  /** Drops the database and deletes the data folder. */
  remove(): Promise<void>;
}

export async function createInstance(
  kind: 'sqlite' | 'postgres',
  extra: NodeJS.ProcessEnv = {},
  options: { sandbox?: boolean; pgAdminUrl?: string } = {},
): Promise<Instance> {
  const dataDir = tempDataDir();
  const pg = kind === 'postgres' ? await createPgDatabase({ adminUrl: options.pgAdminUrl }) : undefined;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const sandboxPort = options.sandbox ? await freePort() : undefined;
  const sandboxUrl = sandboxPort ? `http://127.0.0.1:${sandboxPort}/sandbox` : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: base,
    RATE_LIMIT_MAX: '100000000',
    DATABASE_URL: pg?.url ?? '',
    LOG_LEVEL: 'info',
    ...(sandboxPort ? { SANDBOX_PORT: String(sandboxPort), SANDBOX_URL: sandboxUrl } : {}),
    ...extra,
  };
  return {
    env,
    base,
    sandboxUrl,
    remove: async () => {
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
