// bench/publish: Herald's publish rate against the sandbox's own ceiling, measured in the same run. The
// simulators run in their own process (`herald sandbox serve`, SANDBOX_URL), so the bench measures Herald,
// not Herald plus the simulator on the same event loop. Per database: first the ceiling (the Facebook feed
// endpoint alone under autocannon at WORKER_CONCURRENCY connections, as many as the worker keeps in flight),
// then two scenarios over 500 sandbox Pages: every post due at one instant (Herald's rate over the ceiling,
// target ≥ 70%) and posts due spread over one minute, each request's posts at their own second (lag from each
// post's own time, target p99 ≤ 1 s). On these 2 cores it also measures the ceiling beside one busy process, as
// the simulator runs beside Herald's in the burst, and prints Herald's rate against that too (no target: a
// like-with-like reference). PostgreSQL: 10,000 posts, `herald serve` with WORKER=off and one
// `herald worker`; SQLite: 2,000 posts, the worker inside `herald serve`. Prints each process's CPU time per
// request of the ceiling and per post of the instant burst (PostgreSQL's server processes summed), and its RSS
// before and after. BENCH_CPU_PROF=<dir> writes the worker's and the simulator's CPU profiles (--cpu-prof)
// there; BENCH_SPREAD=0 leaves out the spread scenario.
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import type { Knex } from 'knex';
import { cpuMeter, cpuPer, createInstance, rssMb, startProcess, stopProcess } from './support.ts';
import {
  createPosts,
  dueMinute,
  openDb,
  percentile,
  postCounts,
  publishedItems,
  seedAccounts,
  spreadOverMinute,
  type Seeded,
} from '../test/support/publishingLoad.ts';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 500);
const CONCURRENCY = Number(process.env.WORKER_CONCURRENCY ?? 200);
const CEILING_SECONDS = Number(process.env.BENCH_CEILING_SECONDS ?? 10);
const CPU_PROF = process.env.BENCH_CPU_PROF;
/** BENCH_SPREAD=0 runs the instant scenario alone (profiling). */
const SPREAD = process.env.BENCH_SPREAD !== '0';

/** The simulator alone: Facebook feed posts to the seeded Pages, each request its own message. */
async function ceiling(sandboxUrl: string, seeded: Seeded): Promise<{ rate: number; requests: number }> {
  let n = 0;
  const result = await autocannon({
    url: sandboxUrl,
    connections: CONCURRENCY,
    duration: CEILING_SECONDS,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const page = seeded.externalIds[n++ % seeded.externalIds.length];
          return {
            ...req,
            path: `/sandbox/facebook/v25.0/${page}/feed`,
            headers: {
              authorization: 'Bearer sandbox-page-token',
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: `message=${encodeURIComponent(`Ceiling post ${n}`)}`,
          };
        },
      },
    ],
  });
  if (result.non2xx || result.errors) {
    throw new Error(`the simulator answered ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return { rate: result.requests.average, requests: result.requests.total };
}

/**
 * Runs `measure` while another process keeps a core busy (building and parsing JSON, as a Node service does):
 * on 2 cores, Herald's burst puts its own processes beside the simulator, and the ceiling alone does not.
 */
async function besideBusyProcess<T>(measure: () => Promise<T>): Promise<T> {
  const churn = `const kept = []; for (;;) {
    kept.push(JSON.parse(JSON.stringify({ id: Math.random(), items: Array.from({ length: 50 }, (_, i) => ({ i })) })));
    if (kept.length > 2000) kept.length = 0;
  }`;
  const busy = spawn(process.execPath, ['-e', churn], { stdio: 'ignore' });
  try {
    return await measure();
  } finally {
    busy.kill();
    await new Promise((resolve) => busy.once('exit', resolve));
  }
}

/**
 * Each measure starts from an empty table of simulator items: the ceiling's tens of thousands of rows, left
 * behind (or deleted but not yet vacuumed on PostgreSQL), would slow the simulator during Herald's run alone.
 */
const emptySimulator = (db: Knex) => db('sandbox_items').truncate();

interface Outcome {
  count: number;
  rate: number;
  lags: number[];
  /** CPU each process used from just before the posts were due until the last was out, in ms. */
  cpu: Record<string, number>;
}

/** The processes whose CPU a run counts, and whether PostgreSQL's count too. */
interface Metered {
  processes: { name: string; pid: number }[];
  postgres: boolean;
}

async function runScenario(
  db: Knex,
  env: NodeJS.ProcessEnv,
  base: string,
  seeded: Seeded,
  posts: number,
  spread: boolean,
  metered: Metered,
): Promise<Outcome> {
  await emptySimulator(db);
  const { when, dueMs } = dueMinute(spread ? 180 : 150);
  await createPosts(base, seeded, posts, when);
  const dueByText = spread ? await spreadOverMinute(db, env, dueMs) : undefined;
  const deadline = dueMs + 60_000 + 10 * 60_000;
  // Reservations and reads happen up to 30 s ahead; the meter counts from the due time's approach.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueMs - 500 - Date.now())));
  const meter = cpuMeter(metered.processes, metered.postgres);
  let counts = await postCounts(db);
  while ((counts.queued ?? 0) > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    counts = await postCounts(db);
  }
  const cpu = meter.end();
  // Only this scenario's posts: calls of the ceiling still in flight when it ended may land after the delete.
  const items = (await publishedItems(db)).filter((i) => i.message.startsWith('Bench post'));
  if ((counts.failed ?? 0) || (counts.queued ?? 0)) {
    console.log(`  failed ${counts.failed ?? 0}, still queued ${counts.queued ?? 0}`);
  }
  const lags = items.map((i) => i.publishedMs - (dueByText?.get(i.message) ?? dueMs)).sort((a, b) => a - b);
  const times = items.map((i) => i.publishedMs);
  const span = times.length > 1 ? (Math.max(...times) - Math.min(...times)) / 1000 : 0;
  return { count: items.length, rate: items.length / Math.max(span, 0.001), lags, cpu };
}

const lagLine = (lags: number[]) =>
  `lag p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms, max ${lags.at(-1)} ms`;

async function benchDatabase(kind: 'sqlite' | 'postgres', posts: number): Promise<void> {
  const instance = await createInstance(
    kind,
    { WORKER_CONCURRENCY: String(CONCURRENCY), MEDIA_SWEEP_SECONDS: '0' },
    { sandbox: true },
  );
  const { env, base } = instance;
  const sandboxUrl = instance.sandboxUrl!;
  const runner = CPU_PROF ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] } : 'herald';
  const seeded = await seedAccounts(env, ACCOUNTS);
  const processes: { name: string; child: ChildProcess }[] = [];
  const db = openDb(env);
  try {
    const sandbox = await startProcess(['sandbox', 'serve'], env, 'Sandbox networks listening', runner);
    processes.push({ name: 'sandbox', child: sandbox });
    processes.push({
      name: kind === 'postgres' ? 'server' : 'server+worker',
      child:
        kind === 'postgres'
          ? await startProcess(['serve'], { ...env, WORKER: 'off' }, 'Herald is listening')
          : await startProcess(['serve'], env, 'Herald is listening', runner),
    });
    if (kind === 'postgres') {
      const worker = await startProcess(['worker'], env, 'publishing worker started', runner);
      processes.push({ name: 'worker', child: worker });
    }
    const rss = () => processes.map((p) => `${p.name} ${rssMb(p.child)} MB`).join(', ');
    const before = rss();
    const metered = {
      processes: processes.map((p) => ({ name: p.name, pid: p.child.pid! })),
      postgres: kind === 'postgres',
    };

    await emptySimulator(db);
    const meter = cpuMeter(metered.processes, metered.postgres);
    const limit = await ceiling(sandboxUrl, seeded);
    console.log(
      `${kind}: simulator ceiling ${limit.rate.toFixed(0)} publishes/s ` +
        `(autocannon, ${CONCURRENCY} connections, ${CEILING_SECONDS} s); CPU a request: ` +
        cpuPer(meter.end(), limit.requests),
    );
    await emptySimulator(db);
    const shared = await besideBusyProcess(() => ceiling(sandboxUrl, seeded));
    console.log(
      `${kind}: simulator ceiling beside one busy process (a core's worth, as Herald's processes use in the burst): ` +
        `${shared.rate.toFixed(0)} publishes/s, ${((100 * shared.rate) / limit.rate).toFixed(0)}% of the ceiling alone`,
    );

    const instant = await runScenario(db, env, base, seeded, posts, false, metered);
    const ratio = instant.rate / limit.rate;
    console.log(
      `${kind}: ${posts} posts due at one instant over ${ACCOUNTS} accounts: simulator received ` +
        `${instant.count}; ${instant.rate.toFixed(0)} publishes/s = ${(100 * ratio).toFixed(0)}% of the ceiling ` +
        `${ratio >= 0.7 ? 'ok' : 'MISSED (target ≥ 70%)'} (${((100 * instant.rate) / shared.rate).toFixed(0)}% of ` +
        `the ceiling beside a busy process); ${lagLine(instant.lags)}; CPU a post: ` +
        cpuPer(instant.cpu, instant.count),
    );

    if (SPREAD) {
      const spread = await runScenario(db, env, base, seeded, posts, true, metered);
      const p99 = percentile(spread.lags, 99);
      console.log(
        `${kind}: ${posts} posts due over one minute (each request's posts their own second): ` +
          `simulator received ${spread.count}; ${lagLine(spread.lags)} from each post's own time ` +
          (p99 <= 1000 ? 'ok' : 'MISSED (target p99 ≤ 1 s)'),
      );
    }
    console.log(`${kind}: RSS before ${before}; after ${rss()}`);
  } finally {
    await db.destroy();
    for (const p of processes.reverse()) await stopProcess(p.child);
    await instance.remove();
  }
}

const kinds = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
for (const kind of kinds)
  await benchDatabase(kind, Number(process.env.BENCH_POSTS ?? (kind === 'postgres' ? 10_000 : 2_000)));
