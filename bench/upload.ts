// bench/upload: PUT a 1 GiB file to a real `herald serve` (SQLite, disk storage), beside `dd`
// writing the same bytes to the same disk in the same run; both get their bytes from another
// process (a socket, a pipe) and flush them to disk before they count as written.
// Targets: at least 70% of dd's MB/s (median over rounds), and the server's peak RSS growth under 100 MB.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { freePort, herald, startProcess, stopProcess, tempDataDir } from './support.ts';

const SIZE = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
const BLOCK = randomBytes(1024 * 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Writes SIZE bytes (the same 1 MiB block over and over) into `sink`, honouring back-pressure. */
async function feed(sink: NodeJS.WritableStream): Promise<void> {
  for (let sent = 0; sent < SIZE; sent += BLOCK.length) {
    const chunk = sent + BLOCK.length <= SIZE ? BLOCK : BLOCK.subarray(0, SIZE - sent);
    if (!sink.write(chunk)) await new Promise((resolve) => sink.once('drain', resolve));
  }
  sink.end();
}

/** Writes back whatever the previous step left dirty, so it does not slow the next measurement. */
function settle(): void {
  execFileSync('sync');
}

/** dd from a pipe into a file on the data disk, flushed before it exits (conv=fsync). Seconds taken. */
async function ddSeconds(file: string): Promise<number> {
  settle();
  const started = process.hrtime.bigint();
  const dd = spawn('dd', [`of=${file}`, 'bs=1M', 'iflag=fullblock', 'conv=fsync', 'status=none'], {
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => dd.once('exit', resolve));
  await feed(dd.stdin);
  if ((await exited) !== 0) throw new Error('dd failed');
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  fs.rmSync(file);
  return seconds;
}

async function api(port: number, key: string, method: string, route: string, body?: unknown): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${port}/v1${route}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

/** Reserves and PUTs SIZE bytes; seconds from the first byte sent to the 200. */
async function uploadSeconds(port: number, key: string): Promise<number> {
  const { uploadUrl } = await api(port, key, 'POST', '/media/uploads', {
    filename: 'bench.mp4',
    mime: 'video/mp4',
    size: SIZE,
  });
  settle();
  const started = process.hrtime.bigint();
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      new URL(new URL(uploadUrl).pathname, `http://127.0.0.1:${port}`),
      { method: 'PUT', headers: { 'Content-Type': 'video/mp4', 'Content-Length': SIZE } },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    void feed(req);
  });
  if (status !== 200) throw new Error(`PUT answered ${status}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Waits until processing has failed the random bytes and deleted them. */
async function waitForEmptyStorage(dataDir: string): Promise<void> {
  const root = path.join(dataDir, 'media');
  const files = () =>
    (fs.readdirSync(root, { recursive: true }) as string[]).filter(
      (f) => !f.startsWith('.') && fs.statSync(path.join(root, f)).isFile(),
    );
  for (let i = 0; i < 600 && files().length; i++) await new Promise((resolve) => setTimeout(resolve, 100));
}

function memoryKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN);
}

const mbps = (seconds: number) => SIZE / 1e6 / seconds;

const dataDir = tempDataDir();
const port = await freePort();
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(port),
  RATE_LIMIT_MAX: '100000000',
  DATABASE_URL: '',
  STORAGE: 'disk',
  MEDIA_SWEEP_SECONDS: '0',
  LOG_LEVEL: 'warn',
};
const { workspaceId } = herald(env, 'workspace', 'create', '--name', 'Bench', '--plan', 'agency');
const { key } = herald(env, 'key', 'create', '--workspace', workspaceId!, '--name', 'bench', '--scopes', 'read,write');
const server = await startProcess(['serve'], { ...env, LOG_LEVEL: 'info' }, 'Herald is listening');
const pid = server.pid!;
try {
  const ddFile = path.join(dataDir, 'dd.bin');
  const dd: number[] = [];
  const put: number[] = [];
  // Peak RSS is reset (clear_refs 5) after start-up, so VmHWM then tells the growth during uploads.
  const rssBefore = memoryKb(pid, 'VmRSS');
  let peakReset = true;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    peakReset = false;
  }
  // A virtual disk writes much faster into blocks written before than into fresh ones. So a first dd
  // (not counted) claims the space, and then each measured write follows the deletion of the
  // previous one's file: dd's own, or the upload's (random bytes fail processing, which deletes them).
  await ddSeconds(ddFile);
  for (let round = 0; round < ROUNDS; round++) {
    put.push(await uploadSeconds(port, key!));
    await waitForEmptyStorage(dataDir);
    dd.push(await ddSeconds(ddFile));
  }
  const peak = memoryKb(pid, 'VmHWM');
  const growthMb = (peak - rssBefore) / 1024;
  // Each round's PUT is compared with the dd right after it, on the disk as it is at that moment.
  const ratios = put.map((p, i) => mbps(p) / mbps(dd[i]!));
  const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
  console.log(`\nupload: ${(SIZE / 1024 ** 3).toFixed(2)} GiB per write, ${ROUNDS} rounds, same disk (${dataDir})`);
  console.log('round   PUT /uploads (socket -> file)   dd (pipe -> file, fsync)   PUT/dd');
  put.forEach((p, i) =>
    console.log(
      `${String(i + 1).padStart(5)}   ${mbps(p).toFixed(0).padStart(19)} MB/s   ` +
        `${mbps(dd[i]!).toFixed(0).padStart(19)} MB/s   ${(ratios[i]! * 100).toFixed(0).padStart(5)}%`,
    ),
  );
  console.log(`median PUT/dd ${(median * 100).toFixed(0)}%  ${median >= 0.7 ? 'ok' : 'MISSED (target >=70%)'}`);
  const verdict = growthMb < 100 ? 'ok' : 'MISSED (target <100 MB)';
  console.log(
    `server RSS ${(rssBefore / 1024).toFixed(0)} MB before, peak ${(peak / 1024).toFixed(0)} MB during: ` +
      `growth ${growthMb.toFixed(0)} MB  ${verdict}${peakReset ? '' : ' (peak not reset: includes start-up)'}`,
  );
} finally {
  await stopProcess(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
