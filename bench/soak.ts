// bench/soak: the leak check. BENCH_SOAK_MINUTES (10) of mixed load on PostgreSQL (BENCH_DATABASE=sqlite for
// SQLite): API reads under autocannon (posts, whoami, accounts), posts created through the API and published
// at once through `herald sandbox serve`, while the RSS of the server, the worker and the simulator process is
// sampled every 10 s. Prints the samples and each process's slope over the first and the last half: after
// warm-up the RSS should stop growing (target: last half under 1 MB/min). Not in `make bench`: it takes
// ten minutes; run it with `npx tsx bench/soak.ts`.
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { createInstance, rssMb, startProcess, stopProcess } from './support.ts';
import { openDb, postCounts, seedAccounts } from '../test/support/publishingLoad.ts';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const KIND = process.env.BENCH_DATABASE === 'sqlite' ? 'sqlite' : 'postgres';
const SAMPLE_MS = 10_000;
/** Posts created (and published) per second, ten targets a request, over 500 Pages (Facebook's daily cap). */
const POSTS_PER_SECOND = 10;
/** API reads per second, spread over the three endpoints. */
const READS_PER_SECOND = 200;

/** Least-squares slope of RSS over time, in MB per minute. */
function slope(points: { minute: number; mb: number }[]): number {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.minute, 0) / n;
  const my = points.reduce((a, p) => a + p.mb, 0) / n;
  const num = points.reduce((a, p) => a + (p.minute - mx) * (p.mb - my), 0);
  const den = points.reduce((a, p) => a + (p.minute - mx) ** 2, 0);
  return den ? num / den : 0;
}

const instance = await createInstance(KIND, {}, { sandbox: true });
const { env, base } = instance;
const seeded = await seedAccounts(env, 500);
const ws = seeded.workspaces[0]!;
const processes: { name: string; child: ChildProcess }[] = [];
const db = openDb(env);
try {
  const sandbox = await startProcess(['sandbox', 'serve'], env, 'Sandbox networks listening');
  processes.push({ name: 'sandbox', child: sandbox });
  const serverEnv = KIND === 'postgres' ? { ...env, WORKER: 'off' } : env;
  const server = await startProcess(['serve'], serverEnv, 'Herald is listening');
  processes.push({ name: KIND === 'postgres' ? 'server' : 'server+worker', child: server });
  if (KIND === 'postgres') {
    processes.push({ name: 'worker', child: await startProcess(['worker'], env, 'publishing worker started') });
  }

  const startedAt = performance.now();
  const endAt = startedAt + MINUTES * 60_000;
  const samples: { minute: number; rss: number[] }[] = [];
  const sample = () =>
    samples.push({ minute: (performance.now() - startedAt) / 60_000, rss: processes.map((p) => rssMb(p.child)) });
  sample();
  const sampler = setInterval(sample, SAMPLE_MS);

  const headers = { authorization: `Bearer ${ws.key}` };
  const reads = autocannon({
    url: base,
    connections: 4,
    duration: MINUTES * 60,
    overallRate: READS_PER_SECOND,
    headers,
    requests: [{ path: '/v1/posts?limit=50' }, { path: '/v1/whoami' }, { path: '/v1/accounts' }],
  });
  let created = 0;
  let failures = 0;
  const creating = (async () => {
    for (let i = 0; performance.now() < endAt; i++) {
      const tick = performance.now();
      const owner = seeded.workspaces[i % seeded.workspaces.length]!;
      const targets = owner.accountIds.slice((i * 10) % 50, ((i * 10) % 50) + 10);
      const body = {
        targets: { accountIds: targets },
        mediaIds: [],
        text: `Soak post ${i}`,
        when: 'now',
        confirm: true,
      };
      const res = await fetch(`${base}/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = await res.text();
      if (res.status === 201) created += targets.length;
      else if (failures++ === 0) console.log(`first refusal: ${res.status} ${answer.slice(0, 300)}`);
      const pause = (10 / POSTS_PER_SECOND) * 1000 - (performance.now() - tick);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, pause)));
    }
  })();
  const [readResult] = await Promise.all([reads, creating]);
  clearInterval(sampler);
  sample();
  const counts = await postCounts(db);

  console.log(
    `${KIND}: ${MINUTES} min of mixed load: ${readResult.requests.total} reads ` +
      `(${readResult.non2xx} non-2xx, ` +
      `${readResult.errors} errors), ${created} posts created (${failures} refused), live ${counts.live ?? 0}, ` +
      `failed ${counts.failed ?? 0}, queued ${counts.queued ?? 0}`,
  );
  console.log(`RSS in MB every ${SAMPLE_MS / 1000} s (${processes.map((p) => p.name).join(', ')}):`);
  for (const s of samples) {
    console.log(`  ${s.minute.toFixed(1).padStart(5)} min  ${s.rss.map((mb) => String(mb).padStart(5)).join(' ')}`);
  }
  const half = MINUTES / 2;
  processes.forEach((p, i) => {
    const points = (from: number, to: number) =>
      samples.filter((s) => s.minute >= from && s.minute <= to).map((s) => ({ minute: s.minute, mb: s.rss[i]! }));
    const late = slope(points(half, MINUTES));
    console.log(
      `${p.name}: ${samples[0]!.rss[i]} → ${samples.at(-1)!.rss[i]} MB; ` +
        `slope first half ${slope(points(0, half)).toFixed(2)} MB/min, last half ${late.toFixed(2)} MB/min ` +
        (late < 1 ? 'ok' : 'STILL GROWING (target: last half under 1 MB/min)'),
    );
  });
} finally {
  await db.destroy();
  for (const p of processes.reverse()) await stopProcess(p.child);
  await instance.remove();
}
