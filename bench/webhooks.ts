// bench/webhooks: webhook delivery against publishing, in the same run. Per database, Herald publishes to the
// sandbox simulators (their own process, SANDBOX_URL) and sends each post's `post.live` to a receiver in this
// process that verifies every signature with standardwebhooks, as an integrator's would. Two scenarios over
// 500 sandbox Pages, 1,000 posts each: every post due at one instant (deliveries a second against publishes a
// second: the ratio says whether delivery keeps up with publishing), and posts due over one minute, each
// request's posts at their own second (the lag from each post going live, its live_at, to its delivery arriving:
// target p99 under 2 s). PostgreSQL: `herald serve` with WORKER=off and one `herald worker`; SQLite: the worker
// inside `herald serve`. BENCH_POSTS, BENCH_ACCOUNTS and BENCH_DATABASES change the sizes.
import type { ChildProcess } from 'node:child_process';
import type { Knex } from 'knex';
import { createInstance, startProcess, stopProcess } from './support.ts';
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
import { webhookReceiver, type WebhookReceiver } from '../test/support/webhookReceiver.ts';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 500);
const POSTS = Number(process.env.BENCH_POSTS ?? 1000);
const LAG_TARGET_MS = 2000;

/** Events a second over the span from the first to the last. */
const perSecond = (times: number[]) => times.length / Math.max((Math.max(...times) - Math.min(...times)) / 1000, 0.001);

interface Outcome {
  published: number;
  publishRate: number;
  delivered: number;
  deliveryRate: number;
  /** From each post's live_at to its post.live arriving, sorted, in ms. */
  lags: number[];
}

async function runScenario(
  db: Knex,
  env: NodeJS.ProcessEnv,
  base: string,
  seeded: Seeded,
  rx: WebhookReceiver,
  spread: boolean,
): Promise<Outcome> {
  await db('sandbox_items').truncate();
  rx.got.length = 0;
  const { when, dueMs } = dueMinute(spread ? 180 : 150);
  await createPosts(base, seeded, POSTS, when);
  if (spread) await spreadOverMinute(db, env, dueMs);
  const ids: string[] = (await db('posts').where({ status: 'queued' }).select('id')).map((r) => r.id);
  const deadline = dueMs + 60_000 + 5 * 60_000;
  const delivered = () => new Set(rx.got.filter((r) => r.body.type === 'post.live').map((r) => r.id)).size;
  while (((await postCounts(db)).queued ?? 0) > 0 || delivered() < ids.length) {
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const liveAt = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db('posts')
      .whereIn('id', ids.slice(i, i + 500))
      .whereNotNull('live_at')
      .select('id', 'live_at');
    for (const r of rows) liveAt.set(r.id, Date.parse(r.live_at));
  }
  // The first arrival of each post's post.live (a repeat would arrive with the same webhook-id).
  const arrived = new Map<string, number>();
  for (const r of rx.got) {
    const postId = r.body.data.objectId as string;
    if (r.body.type === 'post.live' && liveAt.has(postId) && !arrived.has(postId)) arrived.set(postId, r.at);
  }
  const items = (await publishedItems(db)).filter((i) => i.message.startsWith('Bench post'));
  return {
    published: items.length,
    publishRate: perSecond(items.map((i) => i.publishedMs)),
    delivered: arrived.size,
    deliveryRate: perSecond([...arrived.values()]),
    lags: [...arrived].map(([postId, at]) => at - liveAt.get(postId)!).sort((a, b) => a - b),
  };
}

const lagLine = (lags: number[]) =>
  `lag from live to delivery p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms, max ${lags.at(-1)} ms`;

async function benchDatabase(kind: 'sqlite' | 'postgres'): Promise<void> {
  const instance = await createInstance(
    kind,
    { MEDIA_SWEEP_SECONDS: '0', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    { sandbox: true },
  );
  const { env, base } = instance;
  const seeded = await seedAccounts(env, ACCOUNTS);
  const processes: ChildProcess[] = [];
  const db = openDb(env);
  const rx = await webhookReceiver();
  try {
    processes.push(await startProcess(['sandbox', 'serve'], env, 'Sandbox networks listening'));
    processes.push(
      await startProcess(['serve'], kind === 'postgres' ? { ...env, WORKER: 'off' } : env, 'Herald is listening'),
    );
    if (kind === 'postgres') processes.push(await startProcess(['worker'], env, 'publishing worker started'));
    // One webhook a workspace, each to its own path of the one receiver, which verifies it with its secret.
    for (const ws of seeded.workspaces) {
      const url = `${rx.url}/${ws.id}`;
      const res = await fetch(`${base}/v1/webhooks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ws.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url, events: ['post.live', 'post.failed'] }),
      });
      if (res.status !== 201) throw new Error(`webhook create answered ${res.status}: ${await res.text()}`);
      rx.state.secretsByPath.set(new URL(url).pathname, [((await res.json()) as { secret: string }).secret]);
    }

    const instant = await runScenario(db, env, base, seeded, rx, false);
    const ratio = instant.deliveryRate / instant.publishRate;
    console.log(
      `${kind}: ${POSTS} posts due at one instant over ${ACCOUNTS} accounts: published ${instant.published} at ` +
        `${instant.publishRate.toFixed(0)}/s; delivered ${instant.delivered} post.live at ` +
        `${instant.deliveryRate.toFixed(0)}/s = ${(100 * ratio).toFixed(0)}% of the publish rate; ` +
        lagLine(instant.lags),
    );
    const spread = await runScenario(db, env, base, seeded, rx, true);
    const p99 = percentile(spread.lags, 99);
    console.log(
      `${kind}: ${POSTS} posts due over one minute: published ${spread.published}, delivered ${spread.delivered}; ` +
        `${lagLine(spread.lags)} ${p99 < LAG_TARGET_MS ? 'ok' : 'MISSED (target p99 < 2 s)'}`,
    );
    if (rx.failures.length) console.log(`  ${rx.failures.length} signatures did not verify: ${rx.failures[0]}`);
  } finally {
    await db.destroy();
    for (const p of processes.reverse()) await stopProcess(p);
    await rx.close();
    await instance.remove();
  }
}

for (const kind of (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[])
  await benchDatabase(kind);
