// A PostgreSQL cluster of the chaos run's own, made with initdb in a temporary folder and started on a free port,
// so the run can restart it mid-run without touching the shared cluster on 5432 that other tests use. initdb and
// the server refuse to run as root: as root they run as the `postgres` OS user (runuser). fsync is off (nothing
// here outlives the run); a restart is `pg_ctl restart -m fast`, as an operator restarts PostgreSQL.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './freePort.ts';

const run = promisify(execFile);

export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  adminUrl: string;
  /** Stops the server (ending every connection) and starts it again; resolves once it takes connections. */
  restart(): Promise<void>;
  /** Stops the server and deletes its folder. */
  remove(): Promise<void>;
}

/** The newest PostgreSQL server binaries installed (Debian's /usr/lib/postgresql/<version>/bin). */
function serverBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin/initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) throw new Error(`No PostgreSQL server binaries under ${root}/<version>/bin.`);
  return path.join(root, versions[0]!, 'bin');
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = serverBinaries();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-chaos-pg-'));
  const data = path.join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    fs.chownSync(root, Number(stdout.trim()), Number(gid.trim()));
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);
  await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${root}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=400',
  ].join(' ');
  const log = path.join(root, 'server.log');
  await pg('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', 'start']);
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async restart() {
      await pg('pg_ctl', ['-D', data, '-l', log, '-m', 'fast', '-w', 'restart']);
    },
    async remove() {
      await pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
