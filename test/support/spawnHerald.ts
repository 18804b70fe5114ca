// A real `bin/herald serve` (or `herald sandbox serve`) process on a real port, for tests that must prove
// the process survives (the fuzzer) or that several instances agree (key revocation). The database is prepared
// and seeded in the test process first, through the real identity code, then handed to the server by its environment.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '../../db/migrate.ts';
import { loadConfig, type Config } from '../../runtime/config.ts';
import { createServices, type Services } from '../../runtime/services.ts';
import { freePort } from './freePort.ts';
import { createPgDatabase, type DbKind } from './harness.ts';

const HERALD = new URL('../../bin/herald', import.meta.url).pathname;

/** A migrated database (a SQLite file in a temp DATA_DIR, or a fresh PostgreSQL database) and services on it. */
export interface PreparedDatabase {
  kind: DbKind;
  dataDir: string;
  databaseUrl: string | undefined;
  services: Services;
  /** Closes the test process's services, drops the database and removes DATA_DIR. */
  close(): Promise<void>;
}

export async function prepareDatabase(kind: DbKind): Promise<PreparedDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-spawn-'));
  const pg = kind === 'postgres' ? await createPgDatabase() : undefined;
  const config: Config = { ...loadConfig({}), dataDir, databaseUrl: pg?.url, logLevel: 'silent', mediaSweepMs: 0 };
  const services = createServices(config);
  await migrate(services.db);
  return {
    kind,
    dataDir,
    databaseUrl: pg?.url,
    services,
    async close() {
      await services.close();
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export { freePort };

export interface SpawnedHerald {
  base: string;
  port: number;
  process: ChildProcess;
  /** Everything the process wrote (its JSON log lines, at LOG_LEVEL error unless set). */
  output(): string;
  alive(): boolean;
  /** SIGTERM (SIGKILL if it has not exited 20 seconds later), then waits for the exit. */
  stop(): Promise<void>;
}

/** Starts `bin/herald serve` on `db` and waits until it answers /readyz. */
type DatabaseOf = Pick<PreparedDatabase, 'dataDir' | 'databaseUrl'>;

export async function spawnHerald(
  db: DatabaseOf,
  env: Record<string, string> = {},
  port?: number,
): Promise<SpawnedHerald> {
  port ??= await freePort();
  return spawnCommand(['serve'], db, { port, portVariable: 'PORT', readyPath: '/readyz', env });
}

/**
 * Starts `bin/herald sandbox serve` on `db` and waits until it answers /healthz; its `base` is what
 * SANDBOX_URL names (…/sandbox). `env` should carry Herald's PUBLIC_URL, the origin its consent pages trust.
 */
export async function spawnSandbox(
  db: DatabaseOf,
  env: Record<string, string> = {},
  port?: number,
): Promise<SpawnedHerald> {
  port ??= await freePort();
  const spawned = await spawnCommand(['sandbox', 'serve'], db, {
    port,
    portVariable: 'SANDBOX_PORT',
    readyPath: '/healthz',
    env,
  });
  return { ...spawned, base: `${spawned.base}/sandbox` };
}

interface SpawnOptions {
  port: number;
  /** The variable that names the port: PORT for serve, SANDBOX_PORT for sandbox serve. */
  portVariable: string;
  readyPath: string;
  env: Record<string, string>;
}

async function spawnCommand(args: string[], db: DatabaseOf, opts: SpawnOptions): Promise<SpawnedHerald> {
  const { port } = opts;
  const base = `http://127.0.0.1:${port}`;
  const name = `herald ${args.join(' ')}`;
  const child = spawn(HERALD, args, {
    env: {
      ...process.env,
      PUBLIC_URL: base,
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.databaseUrl ?? '',
      LOG_LEVEL: 'error',
      RATE_LIMIT_MAX: '100000000',
      MEDIA_SWEEP_SECONDS: '0',
      ...opts.env,
      [opts.portVariable]: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Wait for the process to answer (it compiles and migrates first); give up if it exits.
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${output}`);
    const ready = await fetch(`${base}${opts.readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (i > 600) throw new Error(`${name} did not become ready: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    base,
    port,
    process: child,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      // A drain that outlasts its own limit (10 s) is not this test's subject.
      const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(kill);
    },
  };
}
