// bench/api: GET /v1/whoami and GET /v1/accounts with a valid key at 50 connections, beside a bare
// express route measured in the same run, on SQLite and on PostgreSQL, and the server's resident memory before
// and after the load. Target: at least 50% of the bare route's req/s, with no errors.
// BENCH_CPU_PROF=1 also profiles the server (node --cpu-prof) and prints the five frames with the most self time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuProfileFlags, topFrames } from './cpuProfile.ts';
import {
  createPgDatabase,
  freePort,
  herald,
  load,
  ROOT,
  rssMb,
  startProcess,
  stopProcess,
  tempDataDir,
  type Load,
} from './support.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

function row(name: string, r: Load, bare: Load): string {
  const ratio = r.reqPerSec / bare.reqPerSec;
  return (
    `${name.padEnd(26)} ${r.reqPerSec.toFixed(0).padStart(8)} req/s  p50 ${String(r.p50).padStart(3)} ms  ` +
    `p99 ${String(r.p99).padStart(3)} ms` +
    `  ratio ${(ratio * 100).toFixed(0).padStart(3)}%  errors ${r.errors + r.non2xx}` +
    `  ${ratio >= 0.5 && r.errors + r.non2xx === 0 ? 'ok' : 'MISSED (target >=50%, no errors)'}`
  );
}

async function benchDatabase(kind: 'sqlite' | 'postgres'): Promise<void> {
  const dataDir = tempDataDir();
  const pg = kind === 'postgres' ? await createPgDatabase() : undefined;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    RATE_LIMIT_MAX: '100000000',
    DATABASE_URL: pg?.url ?? '',
  };
  const { workspaceId } = herald(env, 'workspace', 'create', '--name', 'Bench', '--plan', 'agency');
  for (const platform of ['instagram', 'facebook', 'threads', 'youtube', 'instagram']) {
    herald(
      env,
      'account',
      'add-sandbox',
      '--workspace',
      workspaceId!,
      '--platform',
      platform,
      '--name',
      `Bench ${platform}`,
    );
  }
  const { key } = herald(env, 'key', 'create', '--workspace', workspaceId!, '--name', 'bench', '--scopes', 'read');
  const barePort = await freePort();
  const bareServer = await startProcess(
    [`${ROOT}/bench/bareServer.ts`],
    { ...process.env, PORT: String(barePort) },
    'bare listening',
    'tsx',
  );
  const profileDir = process.env.BENCH_CPU_PROF ? fs.mkdtempSync(path.join(os.tmpdir(), 'herald-prof-')) : undefined;
  const server = await startProcess(
    ['serve'],
    env,
    'Herald is listening',
    profileDir ? { nodeFlags: cpuProfileFlags(profileDir) } : 'herald',
  );
  const headers = { Authorization: `Bearer ${key}` };
  const rssBefore = rssMb(server);
  try {
    // Warm up both (each route: the compiler, the pools and a new server's first jobs settle), then measure each
    // one alone on the machine.
    await load(`http://127.0.0.1:${barePort}/bare`, { connections: CONNECTIONS, seconds: 2 });
    for (const route of ['whoami', 'accounts']) {
      await load(`http://127.0.0.1:${port}/v1/${route}`, { connections: CONNECTIONS, seconds: 3, headers });
    }
    const bare = await load(`http://127.0.0.1:${barePort}/bare`, { connections: CONNECTIONS, seconds: SECONDS });
    const whoami = await load(`http://127.0.0.1:${port}/v1/whoami`, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      headers,
    });
    const accounts = await load(`http://127.0.0.1:${port}/v1/accounts`, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      headers,
    });
    const rssAfter = rssMb(server);
    console.log(`\n${kind}: ${CONNECTIONS} connections, ${SECONDS} s each`);
    console.log(
      `${'bare express route'.padEnd(26)} ${bare.reqPerSec.toFixed(0).padStart(8)} req/s  p50 ` +
        `${String(bare.p50).padStart(3)} ms  p99 ${String(bare.p99).padStart(3)} ms  (baseline)`,
    );
    console.log(row('GET /v1/whoami', whoami, bare));
    console.log(row('GET /v1/accounts', accounts, bare));
    console.log(`server RSS: ${rssBefore} MB before the load, ${rssAfter} MB after it`);
  } finally {
    await stopProcess(server);
    if (profileDir) {
      console.log(`server CPU profile, top five frames by self time (${profileDir}):`);
      for (const frame of topFrames(profileDir)) console.log(frame);
    }
    await stopProcess(bareServer);
    await pg?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const kinds = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
for (const kind of kinds) await benchDatabase(kind);
