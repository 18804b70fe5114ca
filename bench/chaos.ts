// bench/chaos: posts with media on Facebook, Instagram, Threads and YouTube published on PostgreSQL while
// Herald's processes are killed, its database connections cut, PostgreSQL restarted, the networks fail or lose their
// answers, API clients write through both servers and the webhook receiver refuses 30% of deliveries
// (test/support/chaosRun.ts). The run starts a PostgreSQL cluster of its own (initdb into a temporary folder with
// /usr/lib/postgresql/<version>/bin, as the `postgres` OS user when run as root, on a free port) and restarts that
// one mid-run with pg_ctl: the shared cluster on 127.0.0.1:5432 is never touched.
// BENCH_POSTS (default 10,000), BENCH_SPREAD_MINUTES (2), BENCH_SEED (28), BENCH_VERBOSE=1 for the run's log,
// BENCH_LOG_DIR=<folder> for each process's log and every post's timeline (posts.json) to study afterwards.
import { chaosRun } from '../test/support/chaosRun.ts';

const r = await chaosRun({
  posts: Number(process.env.BENCH_POSTS ?? 10_000),
  spreadSeconds: Number(process.env.BENCH_SPREAD_MINUTES ?? 2) * 60,
  seed: Number(process.env.BENCH_SEED ?? 28),
  log: process.env.BENCH_VERBOSE ? (line) => console.log(`  ${line}`) : undefined,
  logDir: process.env.BENCH_LOG_DIR || undefined,
});
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `postgres: ${r.posts} posts (${JSON.stringify(r.byNetwork)}), ${r.kills} SIGKILLs (${r.selfExits} processes died ` +
    `by themselves), ${r.terminations} connections terminated, ${r.pgRestarts} PostgreSQL restarts, 20% temporary ` +
    `network faults, ${r.answersLost} answers lost after the network committed -> ${JSON.stringify(r.byStatus)}`,
);
if (r.failedWords.length) console.log(`  failed with: ${r.failedWords.join(' | ')}`);
console.log(
  `  duplicates ${r.duplicates} (must be 0), lost ${r.lost} (must be 0), longest past due after the last fault ` +
    `${seconds(r.longestPastDueAfterLastFaultMs)} (target 30 s): while faulted ` +
    `${r.liveWhileFaultedPerSecond.toFixed(0)} posts/s went live, ${r.leftAtLastFault} were left at the last fault`,
);
console.log(
  `  clients' answers ${JSON.stringify(r.answers)}; 5xx without Retry-After ${r.fiveHundredsWithoutRetryAfter} ` +
    `(must be 0); longest request ${seconds(r.longestRequestMs)}, over 10 s ${r.hanging} (must be 0)`,
);
console.log(
  `  webhooks: ${r.webhooks.events} events, ${r.webhooks.delivered} delivered, ${r.webhooks.refused} deliveries ` +
    `refused by the receiver, lost ${r.webhooks.lost} (must be 0)`,
);
const ok =
  r.duplicates === 0 &&
  r.lost === 0 &&
  r.longestPastDueAfterLastFaultMs <= 30_000 &&
  r.fiveHundredsWithoutRetryAfter === 0 &&
  r.hanging === 0 &&
  r.webhooks.lost === 0;
console.log(`  ${ok ? 'ok' : 'MISSED'}`);
process.exit(ok ? 0 : 1);
