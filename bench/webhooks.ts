// bench/webhooks: webhook delivery against publishing, in the same run. Per database, Herald publishes to the
// sandbox simulators (their own process, SANDBOX_URL) and sends each post's `post.live` to a receiver in this
// process that verifies every signature with standardwebhooks, as an integrator's would. Two scenarios over
// 500 sandbox Pages, 1,000 posts each: every post due at one instant (deliveries a second against publishes a
// second: the ratio says whether delivery keeps up with publishing), and posts due over one minute, each
// request's posts at their own second (the lag from each post going live, its live_at, to its delivery arriving:
// target p99 under 2 s). Then fairness: a healthy workspace's test deliveries, one every 250 ms, alone and
// then beside a tarpit workspace whose 20 webhooks point at a receiver that reads every request and never answers
// (Herald cuts each at 10 s) while its events keep coming: the healthy one's lag from request to arrival, p99 target
// under 2 s, beside the same run's baseline. PostgreSQL: `herald serve` with WORKER=off and one `herald worker`;
// SQLite: the worker inside `herald serve`. BENCH_POSTS, BENCH_ACCOUNTS (at least 51: two workspaces) and
// BENCH_DATABASES change the sizes.
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { recordEvents } from '../db/events.ts';
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

const TARPIT_HOOKS = 20;
const HEALTHY_TESTS = 40;

/** A receiver that reads each request and never answers; counts how many it holds at once. */
async function tarpitReceiver() {
  const state = { open: 0, most: 0, total: 0 };
  const server = http.createServer((req, res) => {
    state.total += 1;
    state.most = Math.max(state.most, ++state.open);
    req.resume();
    res.on('close', () => (state.open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The healthy workspace's test deliveries, one every 250 ms: each one's lag from request to arrival, sorted. */
async function healthyLags(base: string, ws: Seeded['workspaces'][number], hookId: string, rx: WebhookReceiver) {
  const sent = new Map<string, number>();
  for (let i = 0; i < HEALTHY_TESTS; i++) {
    const at = Date.now();
    const res = await fetch(`${base}/v1/webhooks/${hookId}/test`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ws.key}` },
    });
    if (res.status !== 202) throw new Error(`test answered ${res.status}: ${await res.text()}`);
    sent.set(((await res.json()) as { eventId: string }).eventId, at);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const deadline = Date.now() + 60_000;
  const arrived = () => rx.got.filter((r) => sent.has(r.id));
  while (new Set(arrived().map((r) => r.id)).size < sent.size && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 200));
  const first = new Map<string, number>();
  for (const r of arrived()) if (!first.has(r.id)) first.set(r.id, r.at);
  return { lags: [...first].map(([id, at]) => at - sent.get(id)!).sort((a, b) => a - b), lost: sent.size - first.size };
}

/** The healthy workspace's lag alone, then beside the tarpit workspace; prints both. */
async function fairness(kind: string, db: Knex, base: string, seeded: Seeded, rx: WebhookReceiver, hookId: string) {
  const [healthy, slow] = seeded.workspaces as [Seeded['workspaces'][number], Seeded['workspaces'][number]];
  const alone = await healthyLags(base, healthy, hookId, rx);
  const tarpit = await tarpitReceiver();
  for (let i = 0; i < TARPIT_HOOKS; i++) {
    const res = await fetch(`${base}/v1/webhooks`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${slow.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: `${tarpit.url}/${i}`, events: ['media.failed'] }),
    });
    if (res.status !== 201) throw new Error(`tarpit webhook create answered ${res.status}: ${await res.text()}`);
  }
  // Its events, written as the media processor would: 20 at once (400 deliveries), then 4 a second.
  let n = 0;
  const events = (count: number) =>
    recordEvents(
      db,
      Array.from({ length: count }, () => ({
        workspaceId: slow.id,
        type: 'media.failed' as const,
        objectId: `med_tarpit${n++}`,
      })),
      new Date().toISOString(),
    );
  await events(20);
  const more = setInterval(() => void events(1), 250);
  let beside: Awaited<ReturnType<typeof healthyLags>>;
  try {
    // Let the tarpit fill its share first.
    while (tarpit.state.open < 4) await new Promise((resolve) => setTimeout(resolve, 100));
    beside = await healthyLags(base, healthy, hookId, rx);
  } finally {
    clearInterval(more);
    await tarpit.close();
  }
  const p99 = percentile(beside.lags, 99);
  const line = (r: typeof alone) =>
    (r.lags.length
      ? `p50 ${percentile(r.lags, 50)} ms, p99 ${percentile(r.lags, 99)} ms, max ${r.lags.at(-1)} ms`
      : 'none arrived') + (r.lost ? `, ${r.lost} not arrived within a minute` : '');
  console.log(
    `${kind}: a healthy workspace's ${HEALTHY_TESTS} test deliveries, alone: ${line(alone)}; beside a tarpit ` +
      `workspace (${TARPIT_HOOKS} webhooks that never answer, ${n * TARPIT_HOOKS} deliveries, up to ` +
      `${tarpit.state.most} requests held open at once): ${line(beside)} ` +
      `${p99 < LAG_TARGET_MS && !beside.lost ? 'ok' : 'MISSED (target p99 < 2 s)'}`,
  );
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
    const hookIds: string[] = [];
    for (const ws of seeded.workspaces) {
      const url = `${rx.url}/${ws.id}`;
      const res = await fetch(`${base}/v1/webhooks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ws.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url, events: ['post.live', 'post.failed'] }),
      });
      if (res.status !== 201) throw new Error(`webhook create answered ${res.status}: ${await res.text()}`);
      const made = (await res.json()) as { id: string; secret: string };
      hookIds.push(made.id);
      rx.state.secretsByPath.set(new URL(url).pathname, [made.secret]);
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
    await fairness(kind, db, base, seeded, rx, hookIds[0]!);
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
