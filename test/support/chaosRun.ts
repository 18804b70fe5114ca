// The chaos run behind bench/chaos and test/chaos.test.ts, on PostgreSQL: two `herald serve` (WORKER=off)
// behind one address (PUBLIC_URL, where the networks fetch media), two `herald worker` and `herald sandbox serve` as
// processes, over a PostgreSQL cluster of the run's own (test/support/throwawayPostgres.ts: never the shared one).
// Posts with media on all four networks (Facebook, Instagram, Threads, YouTube: a vertical video to all in one
// round, an image to the first three and the video to YouTube in the next), 20% due at one instant and the rest
// spread after it, while on a fixed seed:
// - a random Herald process gets SIGKILL every 2 s and is restarted;
// - Herald's database connections are terminated (pg_terminate_backend) every 5 s;
// - PostgreSQL is restarted once, in the middle of the posts' times;
// - the networks fail 20% of publishing calls temporarily (queued failures), and 2% of the simulators' write calls
//   lose their answer after the simulator committed (SANDBOX_ANSWER_LOST_PERCENT);
// - API clients create, reschedule and cancel posts through both servers, retrying with Idempotency-Key;
// - each workspace's webhook goes to a receiver that answers 500 to 30% of deliveries.
// Reports duplicates (counted by the simulators), lost posts, the longest time past due after the last fault, the
// clients' answers by status, and webhook deliveries lost.
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { queueFailure } from '../../networks/sandbox/state.ts';
import { createLogger } from '../../runtime/logger.ts';
import { graphileQueue } from '../../worker/queues.ts';
import { failoverProxy } from './failoverProxy.ts';
import { createInstance, freePort, startProcess, stopProcess } from './processes.ts';
import { postCounts, seedAccounts, type Seeded } from './publishingLoad.ts';
import { seeded, type Random } from './seeded.ts';
import { startThrowawayPostgres } from './throwawayPostgres.ts';

const KILL_EVERY_MS = 2000;
const TERMINATE_EVERY_MS = 5000;
/** A request that takes longer than this counts as hanging. */
const HANGING_MS = 10_000;
const PLATFORMS = ['facebook', 'instagram', 'threads', 'youtube'] as const;
/** What each workspace's webhook is sent. */
const WEBHOOK_EVENTS = ['post.live', 'post.failed', 'post.retried_by_worker', 'post.cancelled'];
const RECEIVER_FAILS = 0.3;

export interface ChaosOptions {
  posts: number;
  seed?: number;
  /** Seconds over which 80% of the posts are spread after the instant the other 20% are due. */
  spreadSeconds?: number;
  /**
   * How the posts get their times: `api` (whole minutes at least 2 minutes ahead, as the API takes them, so the run
   * waits for them) or `moved` (made that way, then moved in the database to fall due within seconds: a short run).
   */
  schedule?: 'api' | 'moved';
  /** Seconds the faults go on after the last post is due. */
  tailSeconds?: number;
  clients?: number;
  /** How long a backlog left when the faults stop may take to drain before what is left counts lost (15 minutes). */
  drainSeconds?: number;
  /** Restart PostgreSQL once in the middle (default true). */
  pgRestart?: boolean;
  /** A folder for each Herald process's log (serve1.log, worker2.log, ...) and, at the end, posts.json: every post
   *  with its timeline, and the run's times (first due, last due, last fault) in epoch milliseconds. */
  logDir?: string;
  log?: (line: string) => void;
}

export interface ChaosResult {
  posts: number;
  byStatus: Record<string, number>;
  /** Posts of the run by network. */
  byNetwork: Record<string, number>;
  duplicates: number;
  /**
   * Posts neither live, failed in the network's words nor a draft (a client's cancel) at the end, plus acknowledged
   * creations missing from the database.
   */
  lost: number;
  failedWords: string[];
  kills: number;
  /** Herald processes that died without being killed. */
  selfExits: number;
  terminations: number;
  pgRestarts: number;
  /** Publishing calls whose answer the simulators cut after committing. */
  answersLost: number;
  longestPastDueAfterLastFaultMs: number;
  /**
   * What that figure is made of: posts gone live a second from the first due time to the last fault, and posts
   * still to go live at the last fault (the backlog the figure drains, by the machine's speed).
   */
  liveWhileFaultedPerSecond: number;
  leftAtLastFault: number;
  /** The clients' answers by status (`refused` when the server was down), and the 5xx without Retry-After. */
  answers: Record<string, number>;
  fiveHundredsWithoutRetryAfter: number;
  longestRequestMs: number;
  hanging: number;
  /** Events the webhooks were subscribed to, those the receiver took (2xx), and those it never took. */
  webhooks: { events: number; delivered: number; lost: number; refused: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Managed {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  ready: string;
  child?: ChildProcess;
}

/** The run's two files: an image for Facebook, Instagram and Threads, a vertical video (a reel, a Short) for all. */
async function makeMedia(dir: string): Promise<{ image: string; video: string }> {
  const image = path.join(dir, 'chaos.jpg');
  await sharp({ create: { width: 1080, height: 1080, channels: 3, background: { r: 200, g: 60, b: 30 } } })
    .jpeg({ quality: 60 })
    .toFile(image);
  const video = path.join(dir, 'chaos.mp4');
  // 4 s of 540x960 at 24 fps with sound: inside every network's limits for a reel, a Short and a video post.
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x1e6fd9:size=540x960:rate=24:duration=4'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=4'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '32k', '-shortest'],
    video,
  ]);
  return { image, video };
}

/** Uploads a file through the API (reserve, PUT, wait until ready); answers its media id. */
async function uploadMedia(base: string, key: string, file: string, mime: string): Promise<string> {
  const bytes = fs.readFileSync(file);
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const reserved = await fetch(`${base}/v1/media/uploads`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ filename: path.basename(file), mime, size: bytes.length }),
  });
  if (reserved.status !== 201)
    throw new Error(`upload reservation answered ${reserved.status}: ${await reserved.text()}`);
  const { mediaId, uploadUrl } = (await reserved.json()) as { mediaId: string; uploadUrl: string };
  const put = await fetch(uploadUrl, { method: 'PUT', headers: { 'Content-Type': mime }, body: bytes });
  if (put.status !== 200) throw new Error(`upload answered ${put.status}: ${await put.text()}`);
  for (const giveUp = Date.now() + 120_000; Date.now() < giveUp; await sleep(250)) {
    const media = (await (await fetch(`${base}/v1/media/${mediaId}`, { headers })).json()) as { status: string };
    if (media.status === 'ready') return mediaId;
    if (media.status === 'failed') throw new Error(`${file} failed processing: ${JSON.stringify(media)}`);
  }
  throw new Error(`${file} was not processed within 2 minutes`);
}

/** A webhook receiver that checks each delivery's signature (a secret per path) and refuses RECEIVER_FAILS of them. */
async function flakyReceiver(random: Random) {
  const secrets = new Map<string, string>();
  const delivered = new Set<string>();
  const state = { refused: 0, badSignatures: 0 };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString('utf8')));
    req.on('end', () => {
      try {
        new Webhook(secrets.get(req.url!) ?? '').verify(raw, req.headers as Record<string, string>);
      } catch {
        state.badSignatures += 1;
        res.writeHead(401).end();
        return;
      }
      if (random.next() < RECEIVER_FAILS) {
        state.refused += 1;
        res.writeHead(500).end('not now');
        return;
      }
      delivered.add(String(req.headers['webhook-id']));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    secrets,
    delivered,
    state,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the simulators published, one row per network post: (network, account, text) names a Herald post. */
async function publishedPosts(db: Knex): Promise<string[]> {
  const rows: { network: string; account: string; data: string }[] = await db('sandbox_items')
    .whereNotNull('published_ms')
    .select('network', 'account', 'data');
  return rows.map((r) => {
    const data = JSON.parse(r.data);
    const text = data.message ?? data.text ?? data.page?.text ?? data.snippet?.description ?? '';
    return `${r.network}|${r.account}|${String(text).trim()}`;
  });
}

export async function chaosRun(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => undefined);
  const random = seeded(options.seed ?? 28);
  const schedule = options.schedule ?? 'api';
  const spreadSeconds = options.spreadSeconds ?? 120;
  const tailMs = (options.tailSeconds ?? 30) * 1000;
  const cleanups: (() => Promise<unknown>)[] = [];
  const cleanUp = async () => {
    for (const step of cleanups.reverse()) await step().catch((err) => log(`clean-up: ${(err as Error).message}`));
  };
  try {
    return await runChaos();
  } finally {
    await cleanUp();
  }

  async function runChaos(): Promise<ChaosResult> {
    const pg = await startThrowawayPostgres();
    cleanups.push(() => pg.remove());
    const servePorts = [await freePort(), await freePort()];
    const bases = servePorts.map((port) => `http://127.0.0.1:${port}`);
    const front = await failoverProxy(bases);
    cleanups.push(() => front.close());
    const instance = await createInstance(
      'postgres',
      {
        PUBLIC_URL: front.url,
        WORKER_RETRY_DELAYS_SECONDS: '1,2,3',
        SANDBOX_ANSWER_LOST_PERCENT: '2',
        SANDBOX_PROCESSING_MS: '1000',
        WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
        // Twelve retries a few seconds apart: a delivery the receiver refuses again and again is still taken
        // within the run (Herald's own waits are 5 s to 10 h, then it disables the webhook).
        WEBHOOK_RETRY_DELAYS_SECONDS: '1,1,2,2,3,3,5,5,5,5,5,5',
      },
      { sandbox: true, pgAdminUrl: pg.adminUrl },
    );
    cleanups.push(() => instance.remove());
    const { env } = instance;
    const accounts = Math.max(PLATFORMS.length, Math.min(500, Math.round(options.posts / 20)));
    const seededAccounts = await seedAccounts(env, accounts, [...PLATFORMS]);
    // The run's own connections carry a name, so terminating Herald's spares them.
    const db = knexFactory({
      client: 'pg',
      connection: { connectionString: env.DATABASE_URL, application_name: 'chaos-observer' },
      pool: { min: 0, max: 4 },
    });
    cleanups.push(() => db.destroy());
    const perAccount = Math.ceil(options.posts / accounts);
    // 20% of each account's first publishing calls answer the network's temporary error.
    for (const ws of seededAccounts.workspaces)
      for (const account of ws.accounts)
        await queueFailure(db, {
          network: account.platform,
          account: account.externalId,
          scenario: 'unavailable',
          times: Math.max(1, Math.round(perAccount / 5)),
        });

    const serveEnv = (port: number): NodeJS.ProcessEnv => ({ ...env, WORKER: 'off', PORT: String(port) });
    // The simulators are the networks, not Herald: their connections are named (PGAPPNAME), and spared.
    const sandbox = await startProcess(
      ['sandbox', 'serve'],
      { ...env, PGAPPNAME: 'chaos-sandbox' },
      'Sandbox networks listening',
    );
    cleanups.push(() => stopProcess(sandbox));
    const herald: Managed[] = [
      ...servePorts.map((port, i) => ({
        name: `serve ${i + 1}`,
        args: ['serve'],
        env: serveEnv(port),
        ready: 'Herald is listening',
      })),
      ...[1, 2].map((i) => ({ name: `worker ${i}`, args: ['worker'], env, ready: 'publishing worker started' })),
    ];
    let stopping = false;
    let selfExits = 0;
    const errorLines: string[] = [];
    const start = async (p: Managed) => {
      // A start can meet the database restarting: try again until it comes up.
      for (;;) {
        try {
          // A start that hangs is killed and tried again, never left running untracked.
          const child = await startProcess(p.args, p.env, p.ready, 'herald', 30_000);
          p.child = child;
          // Herald's own error lines, to explain a 500 a client was answered.
          let partial = '';
          if (options.logDir) {
            const file = fs.createWriteStream(path.join(options.logDir, `${p.name.replace(' ', '')}.log`), {
              flags: 'a',
            });
            child.stdout!.on('data', (d: Buffer) => file.write(d));
            child.once('exit', () => file.end());
          }
          child.stdout!.on('data', (d: Buffer) => {
            const lines = (partial + d).split('\n');
            partial = lines.pop()!;
            for (const line of lines) if (line.includes('"level":50') && errorLines.length < 500) errorLines.push(line);
          });
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
          log(`${p.name} did not start: ${(err as Error).message.slice(0, 300)}`);
          await sleep(500);
        }
      }
    };
    cleanups.push(async () => {
      stopping = true;
      for (const p of herald) if (p.child) await stopProcess(p.child);
    });
    await Promise.all(herald.map(start));

    // Each workspace's files, and its webhook to the receiver.
    const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-chaos-media-'));
    cleanups.push(async () => fs.rmSync(mediaDir, { recursive: true, force: true }));
    const files = await makeMedia(mediaDir);
    const receiver = await flakyReceiver(seeded((options.seed ?? 28) + 1));
    cleanups.push(() => receiver.close());
    const media = new Map<string, { image: string; video: string }>();
    for (const [i, ws] of seededAccounts.workspaces.entries()) {
      media.set(ws.key, {
        image: await uploadMedia(front.url, ws.key, files.image, 'image/jpeg'),
        video: await uploadMedia(front.url, ws.key, files.video, 'video/mp4'),
      });
      const hook = await fetch(`${front.url}/v1/webhooks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ws.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: `${receiver.base}/hook/${i}`, events: WEBHOOK_EVENTS }),
      });
      if (hook.status !== 201) throw new Error(`webhook creation answered ${hook.status}: ${await hook.text()}`);
      receiver.secrets.set(`/hook/${i}`, ((await hook.json()) as { secret: string }).secret);
    }
    log(`${accounts} accounts on ${PLATFORMS.join(', ')}; files and webhooks ready`);

    const answers: Record<string, number> = {};
    let fiveHundredsWithoutRetryAfter = 0;
    let longestRequestMs = 0;
    let hanging = 0;
    const acknowledged = new Set<string>();
    /** One intended change, sent until it is answered, through either server, with one Idempotency-Key. */
    async function send(method: string, path: string, key: string, body: unknown): Promise<Response | undefined> {
      const idempotencyKey = randomUUID();
      // Sent until answered while the faults go on; once they stop, the client gives up (its change may have
      // been made: a post it never heard of still counts, in the database).
      for (const giveUp = Date.now() + 120_000; Date.now() < giveUp && !stopping; ) {
        const base = bases[random.int(bases.length)]!;
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
        if (res && res.status >= 500 && !res.headers.get('retry-after')) {
          fiveHundredsWithoutRetryAfter += 1;
          const answer = await res.clone().text();
          log(`${method} ${path} answered ${res.status} without Retry-After: ${answer.slice(0, 300)}`);
          const requestId = /"requestId":"([^"]+)"/.exec(answer)?.[1];
          // The server logs the fault as it answers: its line is read once it has arrived.
          setTimeout(() => {
            for (const line of errorLines.filter((l) => requestId && l.includes(requestId)))
              log(`  the server's log: ${line.slice(0, 1500)}`);
          }, 2000);
        }
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
    type Workspace = Seeded['workspaces'][number];
    /** A post to `accounts` with the file each network takes (YouTube: the video, with a title). */
    async function create(ws: Workspace, accountIds: string[], file: 'image' | 'video', when: unknown, prefix: string) {
      const text = `${prefix} ${++textSeq}: autumn sale, 30% off until Sunday.`;
      const res = await send('POST', '/posts', ws.key, {
        targets: { accountIds },
        mediaIds: [media.get(ws.key)![file]],
        title: `${prefix} ${textSeq}`,
        text,
        when,
        confirm: true,
      });
      if (res?.status !== 201) {
        if (res?.status !== 429)
          log(`create answered ${res?.status}: ${res ? (await res.text()).slice(0, 600) : 'never'}`);
        return [];
      }
      const ids = ((await res.json()) as { posts: { id: string }[] }).posts.map((p) => p.id);
      for (const id of ids) acknowledged.add(id);
      return ids;
    }

    // The bench's posts, made before the faults begin: one round a workspace's accounts all get the video, the next
    // Facebook, Instagram and Threads the image and YouTube the video. Each round's posts are due together.
    const first = firstDue(schedule === 'api' ? 150_000 : 0);
    const instant = Math.round(options.posts / 5);
    // Through the API, times are whole minutes: the spread falls on the minutes after the first.
    const step = schedule === 'api' ? 60 : 1;
    const dueOffsetMs = (made: number) =>
      made < instant
        ? 0
        : Math.floor(((made - instant) / Math.max(1, options.posts - instant)) * (spreadSeconds / step)) * step * 1000;
    const intended = new Map<string, number>();
    const work: Promise<unknown>[] = [];
    let made = 0;
    for (let round = 0; made < options.posts; round++) {
      for (const ws of seededAccounts.workspaces) {
        if (made >= options.posts) break;
        const targets = ws.accounts.slice(0, Math.min(ws.accounts.length, options.posts - made));
        const dueMs = first.ms + dueOffsetMs(made);
        made += targets.length;
        const groups =
          round % 2 === 0
            ? [{ file: 'video' as const, accounts: targets }]
            : [
                { file: 'image' as const, accounts: targets.filter((a) => a.platform !== 'youtube') },
                { file: 'video' as const, accounts: targets.filter((a) => a.platform === 'youtube') },
              ].filter((g) => g.accounts.length);
        for (const group of groups)
          work.push(
            create(
              ws,
              group.accounts.map((a) => a.id),
              group.file,
              schedule === 'api' ? whenAt(dueMs) : whenAt(first.ms + 180_000),
              'Bench post',
            ).then((ids) => {
              for (const id of ids) intended.set(id, dueMs);
            }),
          );
        if (work.length >= 8) await Promise.all(work.splice(0));
      }
    }
    await Promise.all(work);
    let firstDueMs = first.ms;
    if (schedule === 'moved') {
      // The posts' times, a few seconds from now: the same schedule without waiting minutes for it.
      firstDueMs = Date.now() + 5000;
      const jobs = graphileQueue(db, env.DATABASE_URL!, createLogger('warn', 'json'));
      const ids = [...intended.keys()];
      for (let i = 0; i < ids.length; i += 200)
        await db.transaction(async (trx) => {
          for (const id of ids.slice(i, i + 200)) {
            const at = new Date(firstDueMs + intended.get(id)! - first.ms).toISOString();
            await trx('posts').where({ id, status: 'queued' }).update({ publish_at: at, due_at: at });
            await jobs.schedule(trx, id, at);
          }
        });
    }
    const lastDueMs = firstDueMs + dueOffsetMs(options.posts - 1);
    log(`created ${acknowledged.size} posts; first due in ${((firstDueMs - Date.now()) / 1000).toFixed(0)} s`);

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
    cleanups.push(() => admin.destroy());
    const killer = (async () => {
      while (!stopping) {
        await sleep(KILL_EVERY_MS);
        const running = herald.filter((p) => p.child);
        const victim = running[random.int(running.length)];
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
             and pid <> pg_backend_pid() and application_name not in ('chaos-observer', 'chaos-sandbox')`,
          )
          .catch(() => ({ rows: [] }));
        terminations += rows.length;
        lastFaultMs = Date.now();
      }
    })();
    const restarter = (async () => {
      if (options.pgRestart === false) return;
      await sleep(Math.max(0, (firstDueMs + lastDueMs) / 2 - Date.now()));
      if (stopping) return;
      log('restarting PostgreSQL');
      const began = Date.now();
      await pg.restart();
      log(`PostgreSQL restarted in ${Date.now() - began} ms`);
      pgRestarts += 1;
      lastFaultMs = Date.now();
    })();

    // API clients: create, reschedule and cancel their own posts due within the run, through both servers.
    const minutes = Math.ceil(spreadSeconds / 60) + 1;
    const clientWork = Array.from({ length: options.clients ?? 4 }, async (_, c) => {
      const mine: string[] = [];
      while (!stopping && Date.now() < lastDueMs) {
        const ws = seededAccounts.workspaces[random.int(seededAccounts.workspaces.length)]!;
        const roll = random.next();
        // A minute of the run still 2 minutes ahead (the API's least), or `now` once there is none.
        const open = Array.from({ length: minutes }, (_, i) => first.ms + i * 60_000).filter(
          (at) => schedule === 'api' && at <= lastDueMs && at > Date.now() + 130_000,
        );
        const later = open.length ? whenAt(open[random.int(open.length)]!) : 'now';
        if (roll < 0.5 || !mine.length) {
          const account = ws.accounts[random.int(ws.accounts.length)]!;
          const file = account.platform === 'youtube' || random.next() < 0.5 ? 'video' : 'image';
          mine.push(...(await create(ws, [account.id], file, later, `Client ${c}`)).map((id) => `${ws.key} ${id}`));
        } else {
          const [key, id] = mine.splice(random.int(mine.length), 1)[0]!.split(' ') as [string, string];
          if (roll < 0.8) {
            await send('PATCH', `/posts/${id}`, key, { when: later, confirm: true });
            mine.push(`${key} ${id}`);
          } else await send('POST', `/posts/${id}/cancel`, key, { confirm: true });
        }
        await sleep(100);
      }
    });

    const counts = async () => postCounts(db).catch(() => ({}) as Record<string, number>);
    log(`faults begin`);
    // Faults go on until every post has come due, and `tailSeconds` longer.
    while (Date.now() < lastDueMs + tailMs) {
      await sleep(2000);
      log(`${JSON.stringify(await counts())}, kills ${kills}, terminated ${terminations}`);
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
    // A backlog left when the faults stop is drained, not counted lost, for `drainSeconds` at most.
    let deadline = Date.now() + (options.drainSeconds ?? 15 * 60) * 1000;
    // A count that fails (the observer's connection cut) is no count: it must not end the drain as if none were left.
    // A count with no queued posts has no `queued` at all.
    const counted = async () => postCounts(db).catch(() => undefined);
    let now = await counted();
    while ((now ? (now.queued ?? 0) : 1) > 0 && Date.now() < deadline) {
      await sleep(1000);
      now = await counted();
      log(`after the faults: ${JSON.stringify(now ?? 'not counted')}`);
    }
    const subscribed = async () =>
      new Set(
        (await db('events')
          .whereIn('type', WEBHOOK_EVENTS)
          .pluck('id')
          .catch(() => [] as string[])) as string[],
      );
    deadline = Date.now() + 2 * 60_000;
    for (;;) {
      const missing = [...(await subscribed())].filter((id) => !receiver.delivered.has(id)).length;
      if (!missing || Date.now() > deadline) break;
      log(`webhook events not yet delivered: ${missing}`);
      await sleep(1000);
    }

    const perPost = new Map<string, number>();
    for (const key of await publishedPosts(db)) perPost.set(key, (perPost.get(key) ?? 0) + 1);
    const rows: {
      id: string;
      status: string;
      platform: string;
      publish_at: string | null;
      live_at: string | null;
      error_code: string | null;
      error_message: string | null;
    }[] = await db('posts').select('id', 'status', 'platform', 'publish_at', 'live_at', 'error_code', 'error_message');
    const present = new Set(rows.map((r) => r.id));
    const pastDueOf = (r: (typeof rows)[number]) =>
      Date.parse(r.live_at!) - Math.max(Date.parse(r.publish_at!), lastFaultMs);
    const liveRows = rows.filter((r) => r.status === 'live' && r.publish_at && r.live_at);
    const liveByLastFault = liveRows.filter((r) => Date.parse(r.live_at!) <= lastFaultMs).length;
    const since = (at: string) => `${((Date.parse(at) - lastFaultMs) / 1000).toFixed(1)} s`;
    /** A post's timeline, times counted from the last fault. */
    const timeline = async (r: (typeof rows)[number]) => {
      const events: { kind: string; at: string; message: string | null }[] = await db('post_events')
        .where({ post_id: r.id })
        .orderBy('seq')
        .select('kind', 'at', 'message');
      return events.map((e) => `${e.kind} ${since(e.at)}${e.message ? ` (${e.message.slice(0, 80)})` : ''}`).join('; ');
    };
    // The slowest posts' timelines, to say what kept them.
    for (const r of [...liveRows].sort((a, b) => pastDueOf(b) - pastDueOf(a)).slice(0, 3))
      log(
        `${r.id} (${r.platform}) due ${since(r.publish_at!)} live ${since(r.live_at!)} after the last fault: ` +
          (await timeline(r)),
      );
    // Each post the networks hold twice: Herald's posts of that text on that account, with their timelines (two posts
    // made of one create would say a retried request was done twice; one post, that it was sent twice).
    for (const [key, n] of perPost) {
      if (n < 2) continue;
      const [network, account, text] = key.split('|') as [string, string, string];
      const twins = await db('posts')
        .join('accounts', 'accounts.id', 'posts.account_id')
        .where({ 'accounts.platform': network, 'accounts.external_id': account, 'posts.text': text })
        .select('posts.id');
      const found = rows.filter((r) => twins.some((t: { id: string }) => t.id === r.id));
      log(`published ${n} times: ${key}`);
      for (const r of found) log(`  ${r.id} ${r.status} due ${since(r.publish_at!)}: ${await timeline(r)}`);
    }
    const lostRows = rows.filter(
      (r) =>
        !['live', 'failed', 'draft'].includes(r.status) ||
        (r.status === 'failed' && r.error_code?.endsWith('_outcome_unknown')),
    );
    for (const r of lostRows) {
      log(`lost: ${r.id} (${r.platform}) ${r.status} ${r.error_code ?? ''}: ${await timeline(r)}`);
      // What holds it: its lease, and its jobs in the queue.
      const held = await db('posts')
        .leftJoin('workers', 'workers.id', 'posts.attempt_worker')
        .where('posts.id', r.id)
        .first(
          'posts.due_at',
          'posts.attempt_id',
          'posts.attempt_worker',
          'posts.attempt_started_at',
          'workers.heartbeat_at',
        );
      const jobs = await db
        .raw('select run_at, locked_at, locked_by, attempts, max_attempts from graphile_worker.jobs where key = ?', [
          r.id,
        ])
        .then((result: { rows: unknown[] }) => result.rows)
        .catch((err: Error) => err.message);
      log(`lost: ${r.id} held ${JSON.stringify(held)}; its jobs ${JSON.stringify(jobs)}`);
    }
    const missing = [...acknowledged].filter((id) => !present.has(id));
    if (missing.length) log(`lost: acknowledged but not in the database: ${missing.join(', ')}`);
    // Herald's own error lines by message, to explain what went wrong where something did.
    const byMessage = new Map<string, number>();
    for (const line of errorLines) {
      let key = line.slice(0, 200);
      try {
        const { msg, err } = JSON.parse(line) as { msg?: string; err?: { message?: string } };
        key = `${msg?.split('\n')[0]}${err?.message ? `: ${err.message.split('\n')[0]!.slice(0, 160)}` : ''}`;
      } catch {
        // a line cut by its process's death: counted as it is
      }
      byMessage.set(key, (byMessage.get(key) ?? 0) + 1);
    }
    for (const [message, n] of byMessage) log(`Herald's error lines: ${n} x ${message}`);
    if (options.logDir) {
      const events = await db('post_events').select('post_id', 'kind', 'at', 'message').orderBy(['post_id', 'seq']);
      fs.writeFileSync(
        path.join(options.logDir, 'posts.json'),
        JSON.stringify({ firstDueMs, lastDueMs, lastFaultMs, posts: rows, events }),
      );
    }
    const events = await subscribed();
    const answersLost = await fetch(`${instance.sandboxUrl}/faults`, { signal: AbortSignal.timeout(10_000) })
      .then(async (res) => ((await res.json()) as { answersLost: number }).answersLost)
      .catch(() => NaN);
    return {
      posts: rows.length,
      byStatus: now ?? {},
      byNetwork: Object.fromEntries(PLATFORMS.map((p) => [p, rows.filter((r) => r.platform === p).length])),
      duplicates: [...perPost.values()].reduce((sum, n) => sum + (n - 1), 0),
      // Failed in Herald's words (`*_outcome_unknown`) counts as lost: the attempt was cut and never looked up again.
      lost: lostRows.length + missing.length,
      failedWords: [...new Set(rows.filter((r) => r.status === 'failed').map((r) => String(r.error_message)))],
      kills,
      selfExits,
      terminations,
      pgRestarts,
      answersLost,
      longestPastDueAfterLastFaultMs: Math.max(0, ...liveRows.map(pastDueOf)),
      liveWhileFaultedPerSecond: liveByLastFault / Math.max(1, (lastFaultMs - firstDueMs) / 1000),
      leftAtLastFault: liveRows.length - liveByLastFault,
      answers,
      fiveHundredsWithoutRetryAfter,
      longestRequestMs,
      hanging,
      webhooks: {
        events: events.size,
        delivered: [...events].filter((id) => receiver.delivered.has(id)).length,
        lost: [...events].filter((id) => !receiver.delivered.has(id)).length,
        refused: receiver.state.refused,
      },
    };
  }
}

/** The next whole minute at least `leadMs` ahead. */
function firstDue(leadMs: number): { ms: number } {
  return { ms: Math.ceil((Date.now() + leadMs) / 60_000) * 60_000 };
}

/** A `when` at `ms` (whole minutes, as the API takes times), written in Berlin's time. */
function whenAt(ms: number): { publishAt: string; timezone: string } {
  const local = new Date(ms).toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' }).slice(0, 16).replace(' ', 'T');
  return { publishAt: local, timezone: 'Europe/Berlin' };
}
