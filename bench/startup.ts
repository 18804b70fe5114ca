// bench/startup: wall time of `bin/herald --help`, `herald migrate` on a migrated database and `herald serve` until
// it answers /v1/openapi.json, from the compiled dist/ and from the TypeScript sources (tsx), beside `node -e 0` in
// the same run. Targets: --help <= 0.3 s, serve ready <= 1.5 s (compiled). Run after `make build`.
// Then the CPU `herald worker` and `herald serve` (WORKER=off) use until ready on PostgreSQL, as a ratio to `node -e
// 0`'s: what each restart costs a machine whose processes crash (bench/chaos restarts one every 2 s).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuMs, createInstance, freePort, HERALD, ROOT, startProcess, stopProcess, tempDataDir } from './support.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TSX = [
  '--disable-warning=ExperimentalWarning',
  '--import',
  `file://${ROOT}/node_modules/tsx/dist/loader.mjs`,
  path.join(ROOT, 'cli/herald.ts'),
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timed(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

async function serveReady(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const port = await freePort();
  const start = performance.now();
  const child = spawn(command, [...args, 'serve'], { env: { ...env, PORT: String(port) }, stdio: 'ignore' });
  try {
    for (;;) {
      const answered = await fetch(`http://127.0.0.1:${port}/v1/openapi.json`).then(
        (r) => r.ok,
        () => false,
      );
      if (answered) return performance.now() - start;
      if (child.exitCode !== null) throw new Error(`herald serve exited with ${child.exitCode}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

if (!fs.existsSync(path.join(ROOT, 'dist/herald.js'))) throw new Error('dist/ is missing: run make build first.');
const dataDir = tempDataDir();
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
const variants: [string, string, string[]][] = [
  ['compiled (bin/herald)', HERALD, []],
  ['sources (tsx)', process.execPath, TSX],
];
const rows: [string, number][] = [];
try {
  execFileSync(HERALD, ['migrate'], { env });
  rows.push([
    'node -e 0 (baseline)',
    median(Array.from({ length: RUNS }, () => timed(() => execFileSync(process.execPath, ['-e', '0'])))),
  ]);
  for (const [name, command, args] of variants) {
    const run =
      (...more: string[]) =>
      () =>
        execFileSync(command, [...args, ...more], { env, stdio: 'ignore' });
    rows.push([`${name} --help`, median(Array.from({ length: RUNS }, () => timed(run('--help'))))]);
    rows.push([`${name} migrate (migrated)`, median(Array.from({ length: RUNS }, () => timed(run('migrate'))))]);
    const ready: number[] = [];
    for (let i = 0; i < RUNS; i++) ready.push(await serveReady(command, args, env));
    rows.push([`${name} serve ready`, median(ready)]);
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(`startup on SQLite, median of ${RUNS} runs (load average ${os.loadavg()[0]!.toFixed(1)})`);
for (const [name, ms] of rows) console.log(`${name.padEnd(40)} ${(ms / 1000).toFixed(3).padStart(7)} s`);
console.log('targets: compiled --help <= 0.3 s, compiled serve ready <= 1.5 s');

/** CPU used until the ready line, median of RUNS starts. */
async function cpuToReady(args: string[], env: NodeJS.ProcessEnv, ready: string): Promise<number> {
  const used: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const child = await startProcess(args, env, ready);
    used.push(cpuMs(child.pid!));
    await stopProcess(child, 'SIGKILL');
  }
  return median(used);
}

const idle = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
await new Promise((resolve) => setTimeout(resolve, 500));
const nodeCpu = cpuMs(idle.pid!);
idle.kill();
const pg = await createInstance('postgres');
try {
  execFileSync(HERALD, ['migrate'], { env: pg.env });
  const worker = await cpuToReady(['worker'], pg.env, 'publishing worker started');
  const serve = await cpuToReady(['serve'], { ...pg.env, WORKER: 'off' }, 'Herald is listening');
  console.log(`CPU until ready on PostgreSQL (compiled), median of ${RUNS}; node alone ${nodeCpu} ms`);
  for (const [name, ms] of [
    ['herald worker', worker],
    ['herald serve (WORKER=off)', serve],
  ] as const)
    console.log(`${name.padEnd(40)} ${String(ms).padStart(5)} ms = ${(ms / nodeCpu).toFixed(1)} x node alone`);
} finally {
  await pg.remove();
}
