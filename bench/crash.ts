// bench/crash: 1,000 posts while 20% of network calls fail temporarily and a worker is killed with
// SIGKILL every few seconds and restarted. Prints duplicates (must be 0), lost posts (must be 0) and
// the longest time any post stayed stuck.
import { crashRun } from '../test/support/crashRun.ts';

const kinds = (process.env.BENCH_DATABASES ?? 'postgres,sqlite').split(',') as ('sqlite' | 'postgres')[];
for (const kind of kinds) {
  const r = await crashRun(kind, Number(process.env.BENCH_POSTS ?? 1000));
  console.log(
    `${kind}: ${r.posts} posts, ${r.kills} SIGKILLs, 20% temporary faults -> live ${r.live}, failed ` +
      `${r.failed}, still queued ${r.queued}`,
  );
  console.log(
    `  duplicates ${r.duplicates} (must be 0), lost ${r.posts - r.live} (must be 0), longest stuck ` +
      `${(r.longestStuckMs / 1000).toFixed(1)} s` +
      `  ${r.duplicates === 0 && r.live === r.posts ? 'ok' : 'MISSED'}`,
  );
}
