// Shared by the benchmarks: start a server process, wait for it, load it with autocannon, stop it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { randomBase62 } from '../domain/ids.ts';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const HERALD = path.join(ROOT, 'bin/herald');
const TSX_LOADER = `file://${ROOT}/node_modules/tsx/dist/loader.mjs`;

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-'));
}

export async function createPgDatabase(adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres') {
  const name = `herald_bench_${randomBase62(8).toLowerCase()}`;
  const admin = knexFactory({ client: 'pg', connection: adminUrl });
  await admin.raw(`create database ${name}`);
  return {
    url: adminUrl.replace(/\/[^/]*$/, `/${name}`),
    drop: async () => {
      await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
    },
  };
}

/** Starts a TypeScript entry (or bin/herald) and resolves once its output contains `ready`. */
export async function startProcess(args: string[], env: NodeJS.ProcessEnv, ready: string, useHerald = true): Promise<ChildProcess> {
  const child = useHerald
    ? spawn(HERALD, args, { env, stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, ['--import', TSX_LOADER, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
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
  });
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export interface Load {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(url: string, opts: { connections: number; seconds: number; headers?: Record<string, string>; method?: 'GET' | 'POST'; body?: string }): Promise<Load> {
  const result = await autocannon({ url, connections: opts.connections, duration: opts.seconds, headers: opts.headers, method: opts.method ?? 'GET', body: opts.body });
  return { reqPerSec: result.requests.average, p50: result.latency.p50, p99: result.latency.p99,
    errors: result.errors + result.timeouts, non2xx: result.non2xx };
}
