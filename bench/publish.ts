// bench/publish: many posts due in the same minute across 500 sandbox accounts (10,000 posts on
// PostgreSQL with one `herald worker` process, BENCH_WORKERS to change it; 2,000 on SQLite with the
// in-process worker). Prints the lag from publishAt to the simulator receiving the publish call (p50,
// p99, max) and publishes per second. Target: p99 lag under 2 s on PostgreSQL. On a 2-core machine
// one worker does better than two: the server (and its simulators), PostgreSQL and the workers share
// the cores, and a second worker adds its own polling and batches.
import fs from 'node:fs';
import { createPgDatabase, freePort, startProcess, stopProcess, tempDataDir } from './support.ts';
import { createPosts, dueMinute, openDb, percentile, postCounts, publishedItems, seedAccounts } from './publishing.ts';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 500);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);

async function benchDatabase(kind: 'sqlite' | 'postgres', posts: number): Promise<void> {
  const dataDir = tempDataDir();
  const pg = kind === 'postgres' ? await createPgDatabase() : undefined;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, RATE_LIMIT_MAX: '100000000',
    DATABASE_URL: pg?.url ?? '', LOG_LEVEL: 'warn', WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY ?? '1000' };
  const seeded = await seedAccounts(env, ACCOUNTS);
  const server = await startProcess(['serve'], { ...env, LOG_LEVEL: 'info' }, 'Herald is listening');
  const workers = kind === 'postgres'
    ? await Promise.all(Array.from({ length: WORKERS }, () => startProcess(['worker'], { ...env, LOG_LEVEL: 'info' }, 'publishing worker started'))) : [];
  const db = openDb(env);
  try {
    const { when, dueMs } = dueMinute(150);
    await createPosts(base, seeded, posts, when);
    process.stdout.write(`${kind}: ${posts} posts due at ${new Date(dueMs).toISOString()} across ${ACCOUNTS} accounts; waiting`);
    const deadline = dueMs + 10 * 60_000;
    let counts = await postCounts(db);
    while ((counts.queued ?? 0) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      counts = await postCounts(db);
    }
    const items = await publishedItems(db);
    const lags = items.map((i) => i.publishedMs - dueMs).sort((a, b) => a - b);
    const span = (items.length ? Math.max(...items.map((i) => i.publishedMs)) - Math.min(...items.map((i) => i.publishedMs)) : 0) / 1000;
    const p99 = percentile(lags, 99);
    console.log(`\n${kind}: live ${counts.live ?? 0}, failed ${counts.failed ?? 0}, still queued ${counts.queued ?? 0}; simulator received ${items.length}`);
    console.log(`  lag from publishAt: p50 ${percentile(lags, 50)} ms, p99 ${p99} ms, max ${lags.at(-1)} ms; ` +
      `${(items.length / Math.max(span, 0.001)).toFixed(0)} publishes/s` + (kind === 'postgres' ? `  ${p99 < 2000 ? 'ok' : 'MISSED (target p99 < 2 s)'}` : ''));
  } finally {
    await db.destroy();
    for (const w of workers) await stopProcess(w);
    await stopProcess(server);
    await pg?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const kinds = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
for (const kind of kinds) await benchDatabase(kind, Number(process.env.BENCH_POSTS ?? (kind === 'postgres' ? 10_000 : 2_000)));
