// The contract-derived fuzzer against a real `bin/herald serve` process over a real socket, on SQLite and
// PostgreSQL: a few thousand fixed-seed requests (every operation, every route outside /v1, bad bytes on
// the wire). No answer may be a 5xx, every 4xx carries {code, message, hint}, and the process is alive and
// has logged no fault at the end; shapes that could freeze the server get their own rows, and a /healthz poller
// fails the run if any request blocks the event loop over 100 ms. See test/support/fuzz.ts to add routes.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createSession, findWorkspace, setPasswordHash } from '../db/identity.ts';
import { workspaceData } from '../db/workspaceData.ts';
import type { Platform } from '../networks/rules.ts';
import { sandboxToken } from '../networks/sandbox/state.ts';
import { hashPassword } from '../signin/passwords.ts';
import { DATABASES, seedWorkspace, type TestEnv } from './support/harness.ts';
import {
  AMPLIFIED_DRAFT,
  fuzzRequests,
  hostileRequests,
  ROUTES,
  twinSignUps,
  type FuzzContext,
  type FuzzRequest,
} from './support/fuzz.ts';
import { seedMedia, setPostState } from './support/posts.ts';
import { authOperations } from './support/servedRoutes.ts';
import { prepareDatabase, spawnHerald, type PreparedDatabase, type SpawnedHerald } from './support/spawnHerald.ts';

/** The pools ROUTES rows fill an auth.yaml path parameter from, where the names differ. */
const ROW_PARAMS: Record<string, string> = { accountId: 'spareAccount' };

const SEED = 20261123;
const PER_SHAPE = 64;
const PASSWORD = 'correct horse battery';

interface Answer {
  status: number;
  body: string;
}

function send(base: URL, agent: http.Agent, req: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const out = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.path,
        agent,
        headers: { ...req.headers, ...(req.body ? { 'Content-Length': String(req.body.length) } : {}) },
        timeout: 20_000,
      },
      (res) => {
        // An event stream never ends by itself: its status and headers are the answer.
        if (res.headers['content-type']?.startsWith('text/event-stream')) {
          resolve({ status: res.statusCode!, body: '' });
          return void out.destroy();
        }
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    out.on('timeout', () => out.destroy(new Error('no answer within 20 seconds')));
    out.on('error', reject);
    out.end(req.body);
  });
}

/** Bytes no client library would send; each answer is read until the server closes the connection. */
const WIRE: string[] = [
  'GARBAGE\r\n\r\n',
  'GET /v1/whoami HTTP/1.1\r\nHost: x\r\nX-Big: ' + 'a'.repeat(70_000) + '\r\n\r\n',
  'GET /v1/whoami HTTP/1.0\r\n\r\n',
  'GET /v1/../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'GET http://evil.example/v1/whoami HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'POST /v1/groups HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n{"a":1}',
  'POST /v1/groups HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
  'POST /v1/groups HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
  'POST /v1/groups HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
  'GET /v1/whoami HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n',
  'GET /v1/whoami HTTP/1.1\r\nHost: x\r\nCookie: herald_session=\u00ff\u00fe\r\nConnection: close\r\n\r\n',
  'GET /v1/whoami\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /v1/whoami HTTP/9.9\r\nHost: x\r\n\r\n',
  'GET /v1/whoami HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/whoami HTTP/1.1\r\nHost: x\r\n\r\nBROKEN\r\n\r\n',
];

function wire(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.setTimeout(5000, () => socket.destroy());
    socket.write(Buffer.from(bytes, 'latin1'));
  });
}

/** The longest a /healthz poll may wait: longer, and a request held the server's one event loop. */
const LOOP_BLOCK_MS = 100;

/** A fuzz request's time on the wire, to name the requests beside a slow poll. */
interface Sent {
  label: string;
  start: number;
  end?: number;
}

/**
 * CPU milliseconds used so far by the server's main thread, the one that runs its event loop (Linux: utime and
 * stime of /proc/<pid>/task/<pid>/stat, in ticks of 10 ms); undefined elsewhere.
 */
function loopThreadCpuMs(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * Polls /healthz on a connection of its own, one poll after another, while the fuzz runs. The server answers
 * every request on its one event loop, so a poll that waits more than LOOP_BLOCK_MS while the loop's thread
 * works as long waited behind requests holding that loop. On a machine busy with other processes a poll can
 * wait that long while the thread waits for a core: the thread's own CPU time tells the two apart. Each slow
 * poll is reported with the requests in flight meanwhile.
 */
function pollHealth(base: URL, pid: number, sent: Sent[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const slow: string[] = [];
  let polls = 0;
  let longest = 0;
  let stopped = false;
  const polling = (async () => {
    while (!stopped) {
      const [start, cpuBefore] = [performance.now(), loopThreadCpuMs(pid)];
      const answer = await send(base, agent, { label: 'poll', method: 'GET', path: '/healthz', headers: {} }).catch(
        (err: Error) => ({ status: 0, body: err.message }),
      );
      const [end, cpuAfter] = [performance.now(), loopThreadCpuMs(pid)];
      const busy = cpuBefore === undefined || cpuAfter === undefined ? end - start : cpuAfter - cpuBefore;
      polls += 1;
      longest = Math.max(longest, Math.min(end - start, busy));
      if (answer.status !== 200 || (end - start > LOOP_BLOCK_MS && busy >= LOOP_BLOCK_MS)) {
        const beside = sent.filter((s) => s.start < end && (s.end ?? end) > start).map((s) => s.label);
        slow.push(
          `${answer.status} after ${Math.round(end - start)} ms (${busy} ms on the loop's thread), beside: ` +
            beside.join(' | ').slice(0, 600),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return async () => {
    stopped = true;
    await polling;
    agent.destroy();
    return { polls, slow, longest };
  };
}

/** What is wrong with one answer, or undefined. */
function problem(req: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return `${answer.status}: ${answer.body.slice(0, 300)}`;
  if (answer.status < 400 || req.method === 'HEAD') return undefined;
  try {
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    if (typeof body.code === 'string' && typeof body.message === 'string' && typeof body.hint === 'string')
      return undefined;
  } catch {
    // falls through
  }
  return `${answer.status} without {code, message, hint}: ${answer.body.slice(0, 300)}`;
}

describe('the fuzz table', () => {
  it('has a row for every operation of auth.yaml, the session-only contract', () => {
    const rows = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    expect(
      authOperations().filter((op) => !rows.has(op.replace(/:(\w+)/g, (_, name) => `{${ROW_PARAMS[name] ?? name}}`))),
    ).toEqual([]);
  });
});

describe.each(DATABASES)('fuzzing a real server on %s', (kind) => {
  let db: PreparedDatabase;
  let server: SpawnedHerald;
  let ctx: FuzzContext;

  beforeAll(async () => {
    db = await prepareDatabase(kind);
    const env = { services: db.services } as TestEnv;
    const email = `fuzz-${kind}@example.com`;
    const own = await seedWorkspace(env, { email });
    const other = await seedWorkspace(env);
    const free = await seedWorkspace(env, { plan: 'free' });
    await setPasswordHash(db.services.db, own.userId, await hashPassword(PASSWORD));
    const session = async (s: typeof own) => {
      const created = await createSession(db.services.db, s.userId, s.workspaceId);
      return { cookie: `herald_session=${created.token}`, csrf: db.services.keyring.sign(created.id, 'csrf') };
    };
    const dataOf = async (s: typeof own) =>
      workspaceData(db.services.db, (await findWorkspace(db.services.db, s.workspaceId))!, db.services.clock);
    const connect = async (s: typeof own, platform: Platform, externalId: string) => {
      const account = await (await dataOf(s)).accounts.add({
        platform,
        displayName: `${platform} account`,
        status: 'ok',
        externalId,
        tokenSealed: db.services.keyring.encrypt(sandboxToken('access', externalId)),
      });
      return account.id;
    };
    const ids = async (s: typeof own) => {
      const data = await dataOf(s);
      const accounts = [];
      for (const platform of ['threads', 'facebook', 'instagram', 'youtube', 'tiktok'] as const)
        accounts.push(await connect(s, platform, `sandbox-${platform}-${s.workspaceId}`));
      const media = [
        await seedMedia(env, s.workspaceId),
        await seedMedia(env, s.workspaceId, { kind: 'video', durationSeconds: 30, width: 1080, height: 1920 }),
      ];
      const group = await data.groups.create('Fuzz group', accounts.slice(0, 2));
      const folders = (await db.services.db('folders').where({ workspace_id: s.workspaceId }).select('id')).map(
        (f) => f.id as string,
      );
      const webhook = await data.webhooks.create({
        url: 'https://example.com/hook',
        events: ['post.live'],
        secretSealed: db.services.keyring.encrypt('whsec_fuzz', 'webhook-secrets'),
      });
      const delivery = await data.webhooks.deliveries.addTest(webhook.id);
      return {
        acc: accounts,
        med: media,
        grp: [group.id],
        fld: folders,
        pst: [] as string[],
        whk: [webhook.id],
        whd: [delivery.id],
      };
    };
    // The account the disconnect rows may take away, so the others keep theirs.
    const spareAccount = await connect(own, 'instagram', `sandbox-spare-instagram-${own.workspaceId}`);
    const fileUrl = await db.services.storage.publicUrl('fuzz/missing.jpg', {
      ttlSeconds: 3600,
      contentType: 'image/jpeg',
    });
    ctx = {
      ids: await ids(own),
      foreignIds: await ids(other),
      keys: { read: own.readKey, write: own.writeKey, free: free.readKey },
      session: await session(own),
      disposableSessions: await Promise.all(Array.from({ length: PER_SHAPE }, () => session(own))),
      params: {
        email: [email, 'nobody@example.com', 'not an email'],
        password: [PASSWORD, 'wrong password'],
        platform: ['instagram', 'youtube', 'facebook', 'threads', 'tiktok', 'bluesky', 'myspace'],
        page: ['accounts', 'x', ''],
        fileToken: [fileUrl.split('/media-files/')[1]!, 'x.y'],
        uploadToken: ['x.y'],
        grantId: ['grt_nothing'],
        newEmail: [`fuzz-new-${kind}@example.com`, 'not an email'],
        spareAccount: [spareAccount],
        keyId: ['key_nothing'],
        inviteId: ['inv_nothing'],
        userId: ['usr_nothing'],
        workspaceId: [own.workspaceId, 'wsp_nothing'],
        plan: ['creator', 'nothing'],
        doc: ['llms.txt', 'skill.md', 'changelog.md', 'reference', 'nothing'],
        instant: [new Date(Date.now() + 86_400_000).toISOString(), '+275760-09-13T00:00:00Z', '2026-02-30T10:00:00Z'],
        approvalKey: [
          (
            await createApiKey(db.services.db, {
              workspaceId: own.workspaceId,
              userId: own.userId,
              name: 'Approval key',
              scopes: ['read', 'write'],
            })
          ).key,
        ],
        failedPost: [],
      },
    };
    expect(ROUTES.length).toBeGreaterThan(0);
    server = await spawnHerald(db);

    // Things only the running server makes: posts (drafts and queued) and upload addresses.
    const api = async (method: string, path: string, body: unknown, key: string) => {
      const res = await fetch(`${server.base}/v1${path}`, {
        method,
        body: JSON.stringify(body),
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      return res.json();
    };
    for (const [workspace, key] of [
      [ctx.ids, own.writeKey],
      [ctx.foreignIds, other.writeKey],
    ] as const) {
      for (const when of [
        'draft',
        { publishAt: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 16), timezone: 'UTC' },
      ]) {
        const created = await api(
          'POST',
          '/posts',
          { targets: { accountIds: [workspace.acc![0]] }, mediaIds: [], text: 'Fuzz', when, confirm: true },
          key,
        );
        workspace.pst!.push(...(created.posts as { id: string }[]).map((p) => p.id));
      }
      const upload = await api('POST', '/media/uploads', { filename: 'f.jpg', mime: 'image/jpeg', size: 100 }, key);
      ctx.params.uploadToken!.push((upload.uploadUrl as string).split('/uploads/')[1]!);
    }
    // A post the network refused, for the approval rows: queued days ahead, failed as the worker fails it.
    const toFail = await api(
      'POST',
      '/posts',
      {
        targets: { accountIds: [ctx.ids.acc![0]] },
        mediaIds: [],
        text: 'Fuzz',
        when: { publishAt: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 16), timezone: 'UTC' },
        confirm: true,
      },
      own.writeKey,
    );
    const failedPost = toFail.posts[0].id as string;
    const error = { code: 'threads_rejected', message: 'Threads refused it.', hint: 'Change it.' };
    await setPostState(env, own.workspaceId, failedPost, { status: 'failed', error });
    ctx.params.failedPost!.push(failedPost);
    // The feed amplifier's post: the largest text, edited a tag at a time.
    const { text, edits } = AMPLIFIED_DRAFT;
    const target = { targets: { accountIds: [ctx.ids.acc![1]] }, mediaIds: [], text, when: 'draft', confirm: true };
    const [largest] = (await api('POST', '/posts', target, own.writeKey)).posts as { id: string }[];
    for (let i = 0; i < edits; i++) await api('PATCH', `/posts/${largest!.id}`, { tags: [`t${i}`] }, own.writeKey);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await db?.close();
  });

  it('answers thousands of bad requests with no 5xx, only {code, message, hint} errors, and stays up', async () => {
    const { wellFormed, malformed } = fuzzRequests(ctx, SEED, PER_SHAPE);
    expect(wellFormed.length + malformed.length).toBeGreaterThan(2500);
    const base = new URL(server.base);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    const sent: Sent[] = [];
    const stopPolling = pollHealth(base, server.process.pid!, sent);
    let requests: (FuzzRequest & { status?: number })[] = [];
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const req = requests[next++]!;
        const on: Sent = { label: req.label, start: performance.now() };
        sent.push(on);
        try {
          const answer = await send(base, agent, req);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const wrong =
            problem(req, answer) ??
            (req.status !== undefined && answer.status !== req.status
              ? `${answer.status}, not ${req.status}: ${answer.body.slice(0, 300)}`
              : undefined);
          if (wrong) problems.push(`${req.label} ${req.method} ${req.path.slice(0, 200)}: ${wrong}`);
        } catch (err) {
          problems.push(`${req.label} ${req.method} ${req.path.slice(0, 200)}: ${(err as Error).message}`);
        }
        on.end = performance.now();
      }
    };
    // The shapes that froze or faulted the server first (the sign-up row needs the address's sign-in limit).
    requests = hostileRequests(ctx);
    await worker();
    [requests, next] = [twinSignUps(kind), 0];
    await Promise.all(requests.map(worker));
    [requests, next] = [wellFormed, 0];
    await worker();
    [requests, next] = [malformed, 0];
    await Promise.all(Array.from({ length: 8 }, worker));
    agent.destroy();

    for (const bytes of WIRE) {
      const answer = await wire(server.port, bytes);
      for (const status of answer.matchAll(/^HTTP\/1\.[01] (\d{3})/gm)) {
        if (Number(status[1]) >= 500)
          problems.push(`wire ${JSON.stringify(bytes.slice(0, 80))}: ${answer.slice(0, 300)}`);
      }
    }

    const { polls, slow, longest } = await stopPolling();

    // Soft: a 5xx found does not hide a blocked loop, nor the other way round.
    expect
      .soft(problems.slice(0, 30), `${problems.length} problems; statuses ${JSON.stringify([...statuses])}`)
      .toEqual([]);
    expect(polls).toBeGreaterThan(10);
    expect(
      slow.slice(0, 10),
      `${slow.length} of ${polls} /healthz polls waited over ${LOOP_BLOCK_MS} ms on a busy loop ` +
        `(the longest such wait: ${Math.round(longest)} ms)`,
    ).toEqual([]);
    expect(server.alive()).toBe(true);
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    expect(server.output()).not.toMatch(/unhandled promise rejection|unexpected fault/);
  }, 180_000);
});
