// The crash run behind bench/crash and test/crash.test.ts: posts published while 20% of network calls fail
// temporarily and a worker is killed with SIGKILL every few seconds and restarted (PostgreSQL: two
// `herald worker` processes; SQLite: the `herald serve` process, which holds the worker). Reports
// duplicates (must be 0), lost posts (must be 0) and the longest time any post stayed stuck between its
// publish time and going live.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SQLITE_FILE } from '../../db/connect.ts';
import { queueFailure } from '../../networks/sandbox/state.ts';
import { createInstance, startProcess, stopProcess } from './processes.ts';
import { createPosts, openDb, postCounts, publishedItems, seedAccounts } from './publishingLoad.ts';

const KILL_EVERY_MS = Number(process.env.BENCH_KILL_EVERY_MS ?? 3000);

export interface CrashResult {
  posts: number;
  live: number;
  failed: number;
  queued: number;
  duplicates: number;
  kills: number;
  longestStuckMs: number;
}

export async function crashRun(
  kind: 'sqlite' | 'postgres',
  posts: number,
  log: (line: string) => void = () => undefined,
): Promise<CrashResult> {
  const instance = await createInstance(kind, { WORKER_RETRY_DELAYS_SECONDS: '1,2,3' });
  const { env, base } = instance;
  const accounts = Math.min(100, posts);
  const seeded = await seedAccounts(env, accounts);
  const db = openDb(env);
  // One temporary failure queued for every fifth post of each account: 20% of first attempts fail.
  const perAccount = Math.ceil(posts / accounts);
  for (const account of seeded.externalIds) {
    await queueFailure(db, {
      network: 'facebook',
      account,
      scenario: 'unavailable',
      times: Math.max(1, Math.round(perAccount / 5)),
    });
  }
  const start = (args: string[]) =>
    startProcess(args, env, args[0] === 'serve' ? 'Herald is listening' : 'publishing worker started');
  let server = await start(['serve']);
  const workers: ChildProcess[] = kind === 'postgres' ? await Promise.all([start(['worker']), start(['worker'])]) : [];
  let kills = 0;
  let stopping = false;
  // Once publishing is under way (the first post is live), kill the oldest worker (or, on SQLite, the
  // server that holds it) and start a new one, again and again.
  const killer = (async () => {
    while (!stopping && !(await postCounts(db)).live) await new Promise((resolve) => setTimeout(resolve, 50));
    while (!stopping) {
      const victim = kind === 'postgres' ? workers.shift()! : server;
      const exited = new Promise((resolve) => victim.once('exit', resolve));
      victim.kill('SIGKILL');
      await exited;
      kills += 1;
      if (kind === 'postgres') workers.push(await start(['worker']));
      else server = await start(['serve']);
      await new Promise((resolve) => setTimeout(resolve, KILL_EVERY_MS));
    }
  })();
  try {
    await createPosts(base, seeded, posts, 'now').catch(async (err) => {
      // A create can meet the server mid-restart on SQLite; the posts it did create still count.
      log(`create interrupted: ${(err as Error).message}`);
    });
    const created = Number((await db('posts').count({ n: '*' }).first())?.n);
    const deadline = Date.now() + 5 * 60_000;
    let counts = await postCounts(db);
    while ((counts.queued ?? 0) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      counts = await postCounts(db);
      log(`live ${counts.live ?? 0}, failed ${counts.failed ?? 0}, queued ${counts.queued ?? 0}, kills ${kills}`);
    }
    stopping = true;
    await killer;
    const items = await publishedItems(db);
    const perPost = new Map<string, number>();
    for (const item of items)
      perPost.set(`${item.account}|${item.message}`, (perPost.get(`${item.account}|${item.message}`) ?? 0) + 1);
    const stuck = await db('posts').where({ status: 'live' }).select('publish_at', 'live_at');
    return {
      posts: created,
      live: counts.live ?? 0,
      failed: counts.failed ?? 0,
      queued: counts.queued ?? 0,
      kills,
      duplicates: [...perPost.values()].reduce((sum, n) => sum + (n - 1), 0),
      longestStuckMs: Math.max(0, ...stuck.map((p) => Date.parse(p.live_at) - Date.parse(p.publish_at))),
    };
  } finally {
    stopping = true;
    await db.destroy();
    for (const w of workers) await stopProcess(w);
    await stopProcess(server);
    await instance.remove();
  }
}

export interface KilledBurstResult {
  acknowledged: number;
  /** Acknowledged creates (201) whose post is not in the database after the kill. */
  missing: number;
  integrity: string;
}

/**
 * SQLite: `herald serve` is killed with SIGKILL while clients create posts as fast as it takes them. Afterwards
 * the database must pass `PRAGMA integrity_check` and hold every post whose creation was answered 201.
 */
export async function killedWriteBurst(clients = 8, killAfter = 60): Promise<KilledBurstResult> {
  const instance = await createInstance('sqlite');
  try {
    const seeded = await seedAccounts(instance.env, 5);
    const [ws] = seeded.workspaces;
    const server = await startProcess(['serve'], instance.env, 'Herald is listening');
    const acknowledged: string[] = [];
    let killed = false;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    const client = async (c: number) => {
      for (let n = 0; !killed; n++) {
        const res = await fetch(`${instance.base}/v1/posts`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${ws!.key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            targets: { accountIds: ws!.accountIds },
            mediaIds: [],
            text: `Burst ${c}-${n}`,
            when: 'draft',
            confirm: true,
          }),
        }).catch(() => undefined);
        if (res?.status === 201) {
          acknowledged.push(...((await res.json()) as { posts: { id: string }[] }).posts.map((p) => p.id));
          if (acknowledged.length >= killAfter && !killed) {
            killed = true;
            server.kill('SIGKILL');
          }
        }
      }
    };
    await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
    await exited;
    const file = new Database(path.join(instance.env.DATA_DIR!, SQLITE_FILE));
    try {
      const integrity = String(file.pragma('integrity_check', { simple: true }));
      const present = new Set(file.prepare('select id from posts').pluck().all() as string[]);
      return {
        acknowledged: acknowledged.length,
        missing: acknowledged.filter((id) => !present.has(id)).length,
        integrity,
      };
    } finally {
      file.close();
    }
  } finally {
    await instance.remove();
  }
}
