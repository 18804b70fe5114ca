// bench/chaos (issue 28): posts published on PostgreSQL while Herald's processes are killed, its database connections
// cut and the network fails, with API clients writing through both servers (test/support/chaosRun.ts).
// BENCH_POSTS (default 10,000), BENCH_SPREAD_MINUTES (2), BENCH_SEED (28); CHAOS_PG_RESTART=1 also restarts the
// shared PostgreSQL cluster once in the middle (pg_ctlcluster as root): never while others use it.
import { chaosRun } from '../test/support/chaosRun.ts';

const r = await chaosRun({
  posts: Number(process.env.BENCH_POSTS ?? 10_000),
  spreadMinutes: Number(process.env.BENCH_SPREAD_MINUTES ?? 2),
  seed: Number(process.env.BENCH_SEED ?? 28),
  pgRestart: process.env.CHAOS_PG_RESTART === '1',
  log: process.env.BENCH_VERBOSE ? (line) => console.log(`  ${line}`) : undefined,
});
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `postgres: ${r.posts} posts, ${r.kills} SIGKILLs (${r.selfExits} processes died by themselves), ` +
    `${r.terminations} connections terminated, ${r.pgRestarts} PostgreSQL restarts, 20% temporary network faults ` +
    `-> ${JSON.stringify(r.byStatus)}`,
);
if (r.failedWords.length) console.log(`  failed with: ${r.failedWords.join(' | ')}`);
console.log(
  `  duplicates ${r.duplicates} (must be 0), lost ${r.lost} (must be 0), longest past due after the last fault ` +
    `${seconds(r.longestPastDueAfterLastFaultMs)} (target 30 s)`,
);
console.log(
  `  clients' answers ${JSON.stringify(r.answers)}; 5xx without Retry-After ${r.fiveHundredsWithoutRetryAfter} ` +
    `(must be 0); longest request ${seconds(r.longestRequestMs)}, over 10 s ${r.hanging} (must be 0)`,
);
const ok =
  r.duplicates === 0 &&
  r.lost === 0 &&
  r.longestPastDueAfterLastFaultMs <= 30_000 &&
  r.fiveHundredsWithoutRetryAfter === 0 &&
  r.hanging === 0;
console.log(`  ${ok ? 'ok' : 'MISSED'}`);
process.exit(ok ? 0 : 1);
