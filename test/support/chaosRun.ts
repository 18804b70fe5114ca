// The chaos run behind bench/chaos (issue 28): on PostgreSQL, two `herald serve` (WORKER=off), two `herald worker`
// and `herald sandbox serve` as processes; posts due at one instant and spread over the next minutes, while on a
// fixed seed a random Herald process is killed with SIGKILL every 2 s and restarted, Herald's database connections
// are terminated every 5 s, (with CHAOS_PG_RESTART=1) PostgreSQL restarts once in the middle, the network fails 20%
// of calls temporarily, and API clients create, reschedule and cancel posts through both servers, retrying with
// Idempotency-Key. Reports duplicates (counted by the simulator), lost posts, the longest time past due after the
// last fault and the clients' answers by status.
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import knexFactory from 'knex';
import { queueFailure } from '../../networks/sandbox/state.ts';
import { createInstance, freePort, startProcess, stopProcess } from './processes.ts';
import { dueMinute, postCounts, publishedItems, seedAccounts, type Seeded } from './publishingLoad.ts';

const KILL_EVERY_MS = 2000;
const TERMINATE_EVERY_MS = 5000;
/** A request that takes longer than this counts as hanging. */
const HANGING_MS = 10_000;

export interface ChaosOptions {
  posts: number;
  seed?: number;
  /** Minutes over which 80% of the posts are spread (20% are due at the first minute's instant). */
  spreadMinutes?: number;
  clients?: number;
  pgRestart?: boolean;
  log?: (line: string) => void;
}

export interface ChaosResult {
  posts: number;
  byStatus: Record<string, number>;
  duplicates: number;
  /**
   * Posts not live, failed (in the network's words) or a draft at the end, plus acknowledged creations missing from
   * the database.
   */
  lost: number;
  failedWords: string[];
  kills: number;
  /** Herald processes that died without being killed. */
  selfExits: number;
  terminations: number;
  pgRestarts: number;
  longestPastDueAfterLastFaultMs: number;
  /** The clients' answers by status (`refused` when the server was down), and the 5xx without Retry-After. */
  answers: Record<string, number>;
  fiveHundredsWithoutRetryAfter: number;
  longestRequestMs: number;
  hanging: number;
}

/** mulberry32: a small seeded generator, so one seed gives one fault schedule. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Managed {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  ready: string;
  child?: ChildProcess;
}

export async function chaosRun(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => undefined);
  const random = seeded(options.seed ?? 28);
  const spread = options.spreadMinutes ?? 2;
  const instance = await createInstance('postgres', { WORKER_RETRY_DELAYS_SECONDS: '1,2,3' }, { sandbox: true });
  const { env } = instance;
  const accounts = Math.max(1, Math.min(500, Math.round(options.posts / 20)));
  const seededAccounts = await seedAccounts(env, accounts);
  // The run's own connections carry a name, so terminating Herald's spares them.
  const db = knexFactory({
    client: 'pg',
    connection: { connectionString: env.DATABASE_URL, application_name: 'chaos-observer' },
    pool: { min: 0, max: 4 },
  });
  const perAccount = Math.ceil(options.posts / accounts);
  for (const account of seededAccounts.externalIds)
    await queueFailure(db, {
      network: 'facebook',
      account,
      scenario: 'unavailable',
      times: Math.max(1, Math.round(perAccount / 5)),
    });

  const secondPort = await freePort();
  const bases = [instance.base, `http://127.0.0.1:${secondPort}`];
  const serveEnv = (base: string): NodeJS.ProcessEnv => ({
    ...env,
    WORKER: 'off',
    PORT: new URL(base).port,
    PUBLIC_URL: base,
  });
  const sandbox = await startProcess(['sandbox', 'serve'], env, 'Sandbox networks listening');
  const herald: Managed[] = [
    ...bases.map((base, i) => ({
      name: `serve ${i + 1}`,
      args: ['serve'],
      env: serveEnv(base),
      ready: 'Herald is listening',
    })),
    ...[1, 2].map((i) => ({ name: `worker ${i}`, args: ['worker'], env, ready: 'publishing worker started' })),
  ];
  let stopping = false;
  let selfExits = 0;
  const start = async (p: Managed) => {
    // A start can meet the database restarting: try again until it comes up.
    for (;;) {
      try {
        const child = await startProcess(p.args, p.env, p.ready);
        p.child = child;
        // A process that dies without being killed (of a cut database connection, say) is a finding: counted and
        // restarted.
        child.once('exit', (code) => {
          if (p.child !== child || stopping) return;
          selfExits += 1;
          log(`${p.name} exited by itself with ${code}`);
          p.child = undefined;
          if (!stopping) void start(p);
        });
        return;
      } catch (err) {
        log(`${p.name} did not start: ${(err as Error).message.slice(0, 200)}`);
        await sleep(500);
      }
    }
  };
  await Promise.all(herald.map(start));

  // Posts: 20% due at the first minute's instant, the rest spread over `spread` minutes.
  // Herald takes scheduled times at least 2 minutes ahead.
  const first = dueMinute(150);
  const minute = (i: number) => {
    const at = new Date(first.dueMs + i * 60_000);
    const local = at.toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' }).slice(0, 16).replace(' ', 'T');
    return { publishAt: local, timezone: 'Europe/Berlin' };
  };
  const lastDueMs = first.dueMs + (spread - 1) * 60_000;

  const answers: Record<string, number> = {};
  let fiveHundredsWithoutRetryAfter = 0;
  let longestRequestMs = 0;
  let hanging = 0;
  const acknowledged = new Set<string>();
  /** One intended change, sent until it is answered, through either server, with one Idempotency-Key. */
  async function send(method: string, path: string, key: string, body: unknown): Promise<Response | undefined> {
    const idempotencyKey = randomUUID();
    for (const giveUp = Date.now() + 120_000; Date.now() < giveUp; ) {
      const base = bases[Math.floor(random() * bases.length)]!;
      const began = Date.now();
      let res: Response | undefined;
      try {
        res = await fetch(`${base}/v1${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${key}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': idempotencyKey,
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(60_000),
        });
        await res.clone().arrayBuffer();
      } catch {
        res = undefined;
      }
      const took = Date.now() - began;
      longestRequestMs = Math.max(longestRequestMs, took);
      if (took > HANGING_MS) hanging += 1;
      const status = res ? String(res.status) : 'refused';
      answers[status] = (answers[status] ?? 0) + 1;
      if (res && res.status >= 500 && !res.headers.get('retry-after')) fiveHundredsWithoutRetryAfter += 1;
      // A rate limit (the workspace's hourly post creations) is an answer: waiting out its Retry-After is no test.
      if (res && res.status < 500 && res.status !== 409) return res;
      if (res?.status === 409) {
        const code = ((await res.clone().json()) as { code?: string }).code;
        if (code !== 'idempotency_key_in_use') return res;
      }
      await sleep(res?.headers.get('retry-after') ? Number(res.headers.get('retry-after')) * 1000 : 300);
    }
    return undefined;
  }
  let textSeq = 0;
  async function create(ws: Seeded['workspaces'][number], accountIds: string[], when: unknown, prefix: string) {
    const res = await send('POST', '/posts', ws.key, {
      targets: { accountIds },
      mediaIds: [],
      text: `${prefix} ${++textSeq}: autumn sale, 30% off until Sunday.`,
      when,
      confirm: true,
    });
    if (res?.status !== 201) {
      log(`create answered ${res?.status}: ${res ? await res.text() : 'never'}`);
      return [];
    }
    const ids = ((await res.json()) as { posts: { id: string }[] }).posts.map((p) => p.id);
    for (const id of ids) acknowledged.add(id);
    return ids;
  }

  // The bench's posts, created before the faults begin: 20% due at the first instant, the rest spread over the
  // minutes, 50 targets a request.
  const instant = Math.round(options.posts / 5);
  const work: Promise<unknown>[] = [];
  let made = 0;
  for (let r = 0; made < options.posts; r++) {
    const ws = seededAccounts.workspaces[r % seededAccounts.workspaces.length]!;
    const targets = ws.accountIds.slice(0, Math.min(ws.accountIds.length, options.posts - made));
    const when =
      made < instant ? minute(0) : minute(Math.floor(((made - instant) / (options.posts - instant)) * spread));
    made += targets.length;
    work.push(create(ws, targets, when, 'Bench post'));
    if (work.length >= 8) await Promise.all(work.splice(0));
  }
  await Promise.all(work);
  /** Waits for `work`, two minutes at most, and says which part had not ended. */
  const settled = async (what: string, work: Promise<unknown>[]) => {
    const done = work.map(() => false);
    const all = Promise.all(work.map((w, i) => w.finally(() => (done[i] = true))));
    await Promise.race([all, sleep(120_000)]);
    if (done.includes(false)) log(`${what} had not ended after 2 minutes: ${done.map(String).join(', ')}`);
  };
  let lastFaultMs = Date.now();
  let kills = 0;
  let terminations = 0;
  let pgRestarts = 0;
  const admin = knexFactory({ client: 'pg', connection: env.DATABASE_URL!, pool: { min: 0, max: 1 } });
  const killer = (async () => {
    while (!stopping) {
      await sleep(KILL_EVERY_MS);
      const running = herald.filter((p) => p.child);
      const victim = running[Math.floor(random() * running.length)];
      if (!victim || stopping) continue;
      const child = victim.child!;
      victim.child = undefined;
      await stopProcess(child, 'SIGKILL');
      kills += 1;
      lastFaultMs = Date.now();
      void start(victim);
    }
  })();
  const terminator = (async () => {
    while (!stopping) {
      await sleep(TERMINATE_EVERY_MS);
      if (stopping) break;
      const { rows } = await admin
        .raw(
          `select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database()
           and pid <> pg_backend_pid() and application_name <> 'chaos-observer'`,
        )
        .catch(() => ({ rows: [] }));
      terminations += rows.length;
      lastFaultMs = Date.now();
    }
  })();
  const restarter = (async () => {
    if (!options.pgRestart) return;
    await sleep(Math.max(0, first.dueMs + (spread * 60_000) / 2 - Date.now()));
    if (stopping) return;
    log('restarting PostgreSQL');
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', '15', 'main', 'restart']);
    pgRestarts += 1;
    lastFaultMs = Date.now();
  })();

  // API clients: create, reschedule and cancel their own posts due within the run, through both servers.
  const clientWork = Array.from({ length: options.clients ?? 4 }, async (_, c) => {
    const mine: string[] = [];
    while (!stopping && Date.now() < lastDueMs) {
      const ws = seededAccounts.workspaces[Math.floor(random() * seededAccounts.workspaces.length)]!;
      const roll = random();
      // A minute of the run still 2 minutes ahead, or `now` once there is none.
      const open = Array.from({ length: spread }, (_, i) => i).filter(
        (i) => first.dueMs + i * 60_000 > Date.now() + 130_000,
      );
      const later = open.length ? minute(open[Math.floor(random() * open.length)]!) : 'now';
      if (roll < 0.5 || !mine.length) {
        const account = ws.accountIds[Math.floor(random() * ws.accountIds.length)]!;
        mine.push(...(await create(ws, [account], later, `Client ${c}`)).map((id) => `${ws.key} ${id}`));
      } else {
        const [key, id] = mine.splice(Math.floor(random() * mine.length), 1)[0]!.split(' ') as [string, string];
        if (roll < 0.8 && later !== 'now') {
          await send('PATCH', `/posts/${id}`, key, { when: later, confirm: true });
          mine.push(`${key} ${id}`);
        } else await send('POST', `/posts/${id}/cancel`, key, { confirm: true });
      }
      await sleep(100);
    }
  });

  try {
    log(`created ${acknowledged.size} posts; first due ${new Date(first.dueMs).toISOString()}`);
    // Faults go on until every post has come due, and half a minute longer.
    while (Date.now() < lastDueMs + 30_000) {
      await sleep(2000);
      const counts = await postCounts(db);
      log(`${JSON.stringify(counts)}, kills ${kills}, terminated ${terminations}`);
    }
    stopping = true;
    log(`faults stopped; clients' answers so far ${JSON.stringify(answers)}, longest request ${longestRequestMs} ms`);
    await settled('the fault makers', [killer, terminator, restarter]);
    await settled('the clients', clientWork);
    await settled(
      'the restarts',
      herald.map(async (p) => {
        while (!p.child) await sleep(200);
      }),
    );
    log('all processes up');
    const deadline = Date.now() + 3 * 60_000;
    let counts = await postCounts(db);
    while ((counts.queued ?? 0) > 0 && Date.now() < deadline) {
      await sleep(1000);
      counts = await postCounts(db);
      log(`after the faults: ${JSON.stringify(counts)}`);
    }
    const perPost = new Map<string, number>();
    for (const item of await publishedItems(db))
      perPost.set(`${item.account}|${item.message}`, (perPost.get(`${item.account}|${item.message}`) ?? 0) + 1);
    const rows: {
      id: string;
      status: string;
      publish_at: string | null;
      live_at: string | null;
      error_code: string | null;
      error_message: string | null;
    }[] = await db('posts').select('id', 'status', 'publish_at', 'live_at', 'error_code', 'error_message');
    const present = new Set(rows.map((r) => r.id));
    const pastDue = rows
      .filter((r) => r.status === 'live' && r.publish_at && r.live_at)
      .map((r) => Date.parse(r.live_at!) - Math.max(Date.parse(r.publish_at!), lastFaultMs));
    return {
      posts: rows.length,
      byStatus: counts,
      duplicates: [...perPost.values()].reduce((sum, n) => sum + (n - 1), 0),
      lost:
        rows.filter((r) => !['live', 'failed', 'draft'].includes(r.status)).length +
        // Failed in Herald's words, not the network's: the attempt was cut and never looked up again.
        rows.filter((r) => r.status === 'failed' && r.error_code?.endsWith('_outcome_unknown')).length +
        [...acknowledged].filter((id) => !present.has(id)).length,
      failedWords: [...new Set(rows.filter((r) => r.status === 'failed').map((r) => String(r.error_message)))],
      kills,
      selfExits,
      terminations,
      pgRestarts,
      longestPastDueAfterLastFaultMs: Math.max(0, ...pastDue),
      answers,
      fiveHundredsWithoutRetryAfter,
      longestRequestMs,
      hanging,
    };
  } finally {
    stopping = true;
    await Promise.allSettled([killer, terminator, restarter, ...clientWork]);
    await db.destroy();
    await admin.destroy();
    log('stopping');
    for (const p of herald) if (p.child) await stopProcess(p.child);
    await stopProcess(sandbox);
    await instance.remove();
  }
}
