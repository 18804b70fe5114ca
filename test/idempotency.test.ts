// Idempotent writes (`Idempotency-Key`) through HTTP on both databases: a replay answers the first answer and does
// nothing again, another request with the key is refused, a request while the first runs answers 409, across two
// servers on one PostgreSQL database too; keys belong to a workspace, expire after 24 hours by the injected clock,
// and a claim left by a dead process lapses. The first request is held in a real slow path: POST /media/from-url
// waits for a local file server that answers only when the test lets it.
import { once } from 'node:events';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import * as selfsigned from 'selfsigned';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_LEASE_MS, forgetExpiredKeys, idempotencyKeys, KEY_HOURS } from '../db/idempotencyKeys.ts';
import { isDatabaseUnavailable } from '../db/connect.ts';
import { toCount } from '../db/rows.ts';
import { rateLimited } from '../domain/errors.ts';
import { newId } from '../domain/ids.ts';
import { isoNow } from '../runtime/clock.ts';
import { createServices } from '../runtime/services.ts';
import { createApp } from '../server/app.ts';
import { runWithKey } from '../server/idempotency.ts';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { manualClock } from './support/manualClock.ts';
import { tcpRelay, type TcpRelay } from './support/tcpRelay.ts';
import { makeImage, tempDir } from './support/mediaFiles.ts';
import { mcpClient, startListening } from './support/mcp.ts';
import { until } from './support/waiting.ts';

const later = (days = 3) => ({
  publishAt: DateTime.utc().plus({ days }).toFormat("yyyy-MM-dd'T'HH:mm"),
  timezone: 'UTC',
});
// One time for every body: two bodies made a minute apart must still be the same request.
const WHEN = later();
const postBody = (accountId: string, extra: Record<string, unknown> = {}) => ({
  targets: { accountIds: [accountId] },
  mediaIds: [],
  text: 'Autumn sale: 30% off everything until Sunday.',
  when: WHEN,
  confirm: true,
  ...extra,
});
const keyed = (key: string) => ({ 'Idempotency-Key': key });
let serial = 0;
/** A fresh key for each intended change, as a client makes one. */
const newKey = () => `key-${Date.now()}-${++serial}`;

async function postCount(env: TestEnv, workspaceId: string): Promise<number> {
  return toCount((await env.services.db('posts').where({ workspace_id: workspaceId }).count({ n: '*' }).first())?.n);
}

/**
 * An https file server whose `/held.jpg` answers only once `release()` is called; `arrived(n)` resolves when n
 * requests for it came in (so the Herald requests that fetch it are running, their keys claimed).
 */
async function startHeldFileServer(photo: Buffer) {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    notAfterDate: new Date(Date.now() + 86_400_000),
  });
  let count = 0;
  let waiters: { n: number; resolve: () => void }[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = https.createServer({ key: pems.private, cert: pems.cert }, async (req, res) => {
    if (req.url === '/held.jpg') {
      count++;
      for (const w of waiters.filter((w) => w.n <= count)) w.resolve();
      waiters = waiters.filter((w) => w.n > count);
      await released;
    }
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length });
    res.end(photo);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `https://localhost:${(server.address() as AddressInfo).port}`,
    ca: pems.cert,
    arrived: (n = 1) => (count >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
    release: () => release(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(DATABASES)('Idempotency-Key on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let other: Seeded;
  let acc: string;
  let otherAcc: string;
  let files: Awaited<ReturnType<typeof startHeldFileServer>>;
  const dir = tempDir();

  beforeAll(async () => {
    files = await startHeldFileServer(fs.readFileSync(await makeImage(dir, 'jpeg', 1080, 1080)));
    env = await startHerald(kind, {
      mediaSweepMs: 0,
      fromUrl: { allowHosts: ['localhost'], extraCaPem: files.ca, timeoutMs: 60_000 },
    });
    ws = await seedWorkspace(env, { plan: 'agency' });
    other = await seedWorkspace(env, { plan: 'agency' });
    acc = await addAccount(env, ws.workspaceId, 'threads', 'Acme Threads');
    otherAcc = await addAccount(env, other.workspaceId, 'threads', 'Other Threads');
  });
  afterAll(async () => {
    files.release();
    await env.close();
    await files.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const create = (body: unknown, key: string, as = ws) =>
    call(env, 'post', '/v1/posts', { key: as.writeKey, body, headers: keyed(key) });

  it('replays the first answer, status and body, marked Idempotent-Replayed, and creates nothing again', async () => {
    const key = newKey();
    const before = await postCount(env, ws.workspaceId);
    const first = await create(postBody(acc), key);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await postCount(env, ws.workspaceId)).toBe(before + 1);
    for (let i = 0; i < 2; i++) {
      const again = await create(postBody(acc), key);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
    }
    expect(await postCount(env, ws.workspaceId)).toBe(before + 1);
  });

  it('takes the same fields in another order as the same request', async () => {
    const key = newKey();
    const body = postBody(acc);
    const first = await create(body, key);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await create(reordered, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('refuses the key with another body, path or operation: 422 idempotency_key_reused, nothing done', async () => {
    const key = newKey();
    expect((await create(postBody(acc), key)).status).toBe(201);
    const before = await postCount(env, ws.workspaceId);
    const folders = (await call(env, 'get', '/v1/folders', { key: ws.readKey })).body.folders.length;
    const attempts = [
      () => create(postBody(acc, { text: 'Another text' }), key),
      () => call(env, 'post', '/v1/folders', { key: ws.writeKey, body: { name: 'Reused' }, headers: keyed(key) }),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('idempotency_key_reused');
      expect(res.body.hint).toMatch(/new key/);
    }
    expect(await postCount(env, ws.workspaceId)).toBe(before);
    expect((await call(env, 'get', '/v1/folders', { key: ws.readKey })).body.folders.length).toBe(folders);
  });

  it('keeps a refusal of a request that ran: the same call replays it, a corrected call needs a new key', async () => {
    const key = newKey();
    const unconfirmed = postBody(acc, { confirm: false });
    const first = await create(unconfirmed, key);
    expect(first.status).toBe(409);
    expect(first.body.code).toBe('confirm_required');
    const again = await create(unconfirmed, key);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await create(postBody(acc), key)).body.code).toBe('idempotency_key_reused');
    expect((await create(postBody(acc), newKey())).status).toBe(201);
  });

  it('keeps a refusal made inside the write transaction, and the write it refused stays undone', async () => {
    const created = await create(postBody(acc), newKey());
    const url = `/v1/posts/${created.body.posts[0].id}/cancel`;
    const cancel = (key: string) =>
      call(env, 'post', url, { key: ws.writeKey, body: { confirm: true }, headers: keyed(key) });
    expect((await cancel(newKey())).body.status).toBe('draft');
    // A draft cannot be cancelled: the state table refuses inside the transaction that locked the post.
    const key = newKey();
    const refused = await cancel(key);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('invalid_state');
    const again = await cancel(key);
    expect(again.body).toEqual(refused.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const events = await call(env, 'get', `/v1/posts/${created.body.posts[0].id}/events`, { key: ws.readKey });
    expect(events.body.events.filter((e: { kind: string }) => e.kind === 'cancelled')).toHaveLength(1);
  });

  it("belongs to its workspace: another workspace's request with the same key runs on its own", async () => {
    const key = newKey();
    const mine = await create(postBody(acc), key);
    const before = await postCount(env, other.workspaceId);
    const theirs = await create(postBody(otherAcc), key, other);
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.posts[0].id).not.toBe(mine.body.posts[0].id);
    expect(await postCount(env, other.workspaceId)).toBe(before + 1);
  });

  it('refuses a key that is empty, longer than 255 characters or not printable: 400 naming the header', async () => {
    const before = await postCount(env, ws.workspaceId);
    for (const bad of ['', 'k'.repeat(256), 'tab\there', 'caf\u00e9']) {
      const res = await create(postBody(acc), bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.message).toMatch(/idempotency-key/i);
    }
    expect((await create(postBody(acc), 'caf\u00e9')).body.message).toBe(
      '`idempotency-key` must hold only printable ASCII characters (letters, digits, punctuation and spaces) (header).',
    );
    expect(await postCount(env, ws.workspaceId)).toBe(before);
    expect((await create(postBody(acc), 'k'.repeat(255))).status).toBe(201);
  });

  it('answers 409 idempotency_key_in_use with Retry-After while the first request runs, then replays it', async () => {
    const key = newKey();
    const body = { url: `${files.base}/held.jpg` };
    const send = (app = env.app) =>
      request(app).post('/v1/media/from-url').set('Authorization', `Bearer ${ws.writeKey}`).set(keyed(key)).send(body);
    const first = send().then((res) => res);
    await files.arrived();
    const second = await call(env, 'post', '/v1/media/from-url', { key: ws.writeKey, body, headers: keyed(key) });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('idempotency_key_in_use');
    expect(second.headers['retry-after']).toBe('1');
    files.release();
    const done = await first;
    expect(done.status).toBe(202);
    const replay = await call(env, 'post', '/v1/media/from-url', { key: ws.writeKey, body, headers: keyed(key) });
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual(done.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const media = (await call(env, 'get', '/v1/media?limit=100', { key: ws.readKey })).body.media as { id: string }[];
    expect(media.filter((m) => m.id === done.body.mediaId)).toHaveLength(1);
  });

  // PostgreSQL only: there, a COMMIT that fails ends the transaction. SQLite keeps a transaction open when a deferred
  // key refuses its COMMIT, and Herald defers none; the failure met in the chaos run is PostgreSQL's.
  it.runIf(kind === 'postgres')('answers the failure of a COMMIT, never the answer it would have stored', async () => {
    const { db, clock } = env.services;
    const keys = idempotencyKeys(db, ws.workspaceId, clock, env.services.keyring);
    const key = newKey();
    const groupId = newId('grp');
    // A deferred foreign key fails at COMMIT, as a connection cut during it does.
    const run = async (keyedDb: typeof db) => {
      await keyedDb.transaction(async (trx) => {
        await trx('groups').insert({ id: groupId, workspace_id: ws.workspaceId, name: 'G', created_at: isoNow(clock) });
        await trx.raw('create temporary table commit_parent (id integer primary key)');
        await trx.raw(
          'create temporary table commit_child (parent integer references commit_parent (id) deferrable initially ' +
            'deferred)',
        );
        await trx.raw('insert into commit_child values (1)');
      });
      return { status: 201, body: { id: groupId } };
    };
    const base = { keys, key, fingerprint: 'f', operationId: 'createGroup', db, render: () => ({ status: 500 }) };
    await expect(runWithKey({ ...base, run })).rejects.toThrow(/foreign key/i);
    expect(await db('groups').where({ id: groupId }).first()).toBeUndefined();
    // Nothing stored for a retry to replay; the claim holds the key until its lease lapses.
    expect((await keys.claim(key, 'f', 'createGroup')).kind).toBe('in_use');
  });

  it('rolls back the writes of a fault or a rate limit and gives the key back: the retry runs afresh', async () => {
    const { db, clock } = env.services;
    const keys = idempotencyKeys(db, ws.workspaceId, clock, env.services.keyring);
    for (const failure of [new Error('a fault'), rateLimited(30_000, 0, 'Too many.')]) {
      const key = newKey();
      const groupId = newId('grp');
      const run = async (keyedDb: typeof db) => {
        await keyedDb.transaction((trx) =>
          trx('groups').insert({ id: groupId, workspace_id: ws.workspaceId, name: 'G', created_at: isoNow(clock) }),
        );
        throw failure;
      };
      const render = () => ({ status: 500 });
      const base = { keys, key, fingerprint: 'f', operationId: 'createGroup', db, render };
      await expect(runWithKey({ ...base, run })).rejects.toBe(failure);
      expect(await db('groups').where({ id: groupId }).first()).toBeUndefined();
      expect((await keys.claim(key, 'f', 'createGroup')).kind).toBe('claimed');
    }
  });

  it('lets a claim left by a dead process lapse after its lease, and never stores a lapsed claim', async () => {
    const clock = manualClock(Date.now());
    const keys = idempotencyKeys(env.services.db, ws.workspaceId, clock, env.services.keyring);
    const key = newKey();
    const dead = await keys.claim(key, 'fingerprint', 'createPosts');
    expect(dead.kind).toBe('claimed');
    expect((await keys.claim(key, 'fingerprint', 'createPosts')).kind).toBe('in_use');
    clock.advance(CLAIM_LEASE_MS);
    const taken = await keys.claim(key, 'fingerprint', 'createPosts');
    expect(taken.kind).toBe('claimed');
    const answer = { status: 201, body: { ok: true }, headers: {} };
    // The request of the dead claim cannot store its answer (its write rolls back); the new one can.
    if (dead.kind !== 'claimed' || taken.kind !== 'claimed') throw new Error('unreachable');
    expect(await keys.finish(env.services.db, key, dead.token, answer)).toBe(false);
    expect(await keys.finish(env.services.db, key, taken.token, answer)).toBe(true);
    expect(await keys.claim(key, 'fingerprint', 'createPosts')).toEqual({ kind: 'replay', answer });
  });

  it('renews the claim of a request that runs past the lease, so a retry meanwhile is told it is in use', async () => {
    const clock = manualClock(Date.now());
    const keys = idempotencyKeys(env.services.db, ws.workspaceId, clock, env.services.keyring);
    const key = newKey();
    const retried: string[] = [];
    const renewed = async () => {
      const lease = new Date(clock.now() + CLAIM_LEASE_MS).toISOString();
      const lockedUntil = () =>
        env.services.db('idempotency_keys').where({ workspace_id: ws.workspaceId, key }).first('locked_until');
      await until(lockedUntil, (row) => row?.locked_until === lease);
    };
    // The request runs two leases by the clock, renewed between them; a retry comes at the end of each.
    const run = async () => {
      for (let lease = 0; lease < 2; lease++) {
        clock.advance(CLAIM_LEASE_MS - 1000);
        await renewed();
        clock.advance(1000);
        retried.push((await keys.claim(key, 'f', 'createGroup')).kind);
      }
      return { status: 201, body: { ok: true } };
    };
    const base = { keys, key, fingerprint: 'f', operationId: 'createGroup', db: env.services.db };
    const renewal = { everyMs: 20, forMs: 60_000 };
    const answer = await runWithKey({ ...base, run, render: () => ({ status: 500 }), renewal });
    expect(answer.status).toBe(201);
    expect(retried).toEqual(['in_use', 'in_use']);
    expect((await keys.claim(key, 'f', 'createGroup')).kind).toBe('replay');
  });

  it('stops renewing the claim of a request stuck past the longest renewal: a retry takes the key over', async () => {
    const clock = manualClock(Date.now());
    const keys = idempotencyKeys(env.services.db, ws.workspaceId, clock, env.services.keyring);
    const key = newKey();
    let retry: Awaited<ReturnType<typeof keys.claim>> | undefined;
    // Renewed for 100 ms of its 400: nothing renews the lease after the clock moves most of one.
    const run = async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      clock.advance(CLAIM_LEASE_MS - 1000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      clock.advance(1000);
      retry = await keys.claim(key, 'f', 'createGroup');
      return { status: 201, body: { ok: true } };
    };
    const base = { keys, key, fingerprint: 'f', operationId: 'createGroup', db: env.services.db };
    const renewal = { everyMs: 20, forMs: 100 };
    // The stuck request cannot store its answer: the key went to the retry.
    await expect(runWithKey({ ...base, run, render: () => ({ status: 500 }), renewal })).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
    expect(retry?.kind).toBe('claimed');
  });
});

describe.each(DATABASES)('Idempotency-Key by the clock on %s', (kind) => {
  const clock = manualClock(Date.now());
  let env: TestEnv;
  let ws: Seeded;
  let acc: string;
  let files: Awaited<ReturnType<typeof startHeldFileServer>>;
  const dir = tempDir();

  beforeAll(async () => {
    files = await startHeldFileServer(fs.readFileSync(await makeImage(dir, 'jpeg', 1080, 1080)));
    env = await startHerald(
      kind,
      { mediaSweepMs: 0, fromUrl: { allowHosts: ['localhost'], extraCaPem: files.ca, timeoutMs: 60_000 } },
      { clock },
    );
    ws = await seedWorkspace(env, { plan: 'agency' });
    acc = await addAccount(env, ws.workspaceId, 'threads', 'Acme Threads');
  });
  afterAll(async () => {
    files.release();
    await env.close();
    await files.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('rolls back the write of a request whose claim lapsed and was taken over: the key does one thing', async () => {
    const key = newKey();
    const body = { url: `${files.base}/held.jpg` };
    const send = () =>
      request(env.app)
        .post('/v1/media/from-url')
        .set('Authorization', `Bearer ${ws.writeKey}`)
        .set(keyed(key))
        .send(body);
    const mediaCount = async () =>
      toCount((await env.services.db('media').where({ workspace_id: ws.workspaceId }).count({ n: '*' }).first())?.n);
    const before = await mediaCount();
    // The first request stalls past its lease (as a process that hung would); a retry takes the key over.
    const stalled = send().then((res) => res);
    await files.arrived(1);
    clock.advance(CLAIM_LEASE_MS);
    const retried = send().then((res) => res);
    await files.arrived(2);
    files.release();
    const [first, second] = [await stalled, await retried];
    expect(first.status).toBe(409);
    expect(first.body.code).toBe('idempotency_key_in_use');
    expect(second.status).toBe(202);
    expect(await mediaCount()).toBe(before + 1);
    const replay = await call(env, 'post', '/v1/media/from-url', { key: ws.writeKey, body, headers: keyed(key) });
    expect(replay.body).toEqual(second.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('keeps a key 24 hours by the clock, then runs the request afresh; the sweep forgets old keys', async () => {
    const key = newKey();
    const body = postBody(acc, { when: later(5) });
    const create = () => call(env, 'post', '/v1/posts', { key: ws.writeKey, body, headers: keyed(key) });
    const first = await create();
    expect(first.status).toBe(201);
    clock.advance(KEY_HOURS * 3600_000 - 1);
    expect((await create()).headers['idempotent-replayed']).toBe('true');
    expect(await postCount(env, ws.workspaceId)).toBe(1);
    clock.advance(1);
    const fresh = await create();
    expect(fresh.status).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.body.posts[0].id).not.toBe(first.body.posts[0].id);
    expect(await postCount(env, ws.workspaceId)).toBe(2);

    const rows = async () =>
      toCount((await env.services.db('idempotency_keys').where({ key }).count({ n: '*' }).first())?.n);
    expect(await rows()).toBe(1);
    await forgetExpiredKeys(env.services.db, clock.now());
    expect(await rows()).toBe(1);
    clock.advance(KEY_HOURS * 3600_000);
    await env.services.media.sweep(new Date(clock.now()));
    expect(await rows()).toBe(0);
  });
});

describe.runIf(DATABASES.includes('postgres'))('Idempotency-Key across two servers on one PostgreSQL database', () => {
  let env: TestEnv;
  let second: { app: Awaited<ReturnType<typeof createApp>>; close(): Promise<void> };
  let ws: Seeded;
  let acc: string;
  let relay: TcpRelay;

  beforeAll(async () => {
    relay = await tcpRelay('127.0.0.1', 5432);
    env = await startHerald(
      'postgres',
      { mediaSweepMs: 0 },
      { databaseVia: (url) => url.replace('127.0.0.1:5432', `127.0.0.1:${relay.port}`) },
    );
    const services = createServices({ ...env.config });
    second = { app: await createApp(services), close: () => services.close() };
    ws = await seedWorkspace(env, { plan: 'agency' });
    acc = await addAccount(env, ws.workspaceId, 'threads', 'Acme Threads');
  });
  afterAll(async () => {
    await second.close();
    await env.close();
    await relay.close();
  });

  const send = (app: typeof env.app, key: string, body: object) =>
    request(app).post('/v1/posts').set('Authorization', `Bearer ${ws.writeKey}`).set(keyed(key)).send(body);

  it('replays on one server what the other answered', async () => {
    const key = newKey();
    const first = await send(env.app, key, postBody(acc));
    expect(first.status).toBe(201);
    const again = await send(second.app, key, postBody(acc));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await send(second.app, key, postBody(acc, { text: 'Other' }))).body.code).toBe('idempotency_key_reused');
  });

  it('does one thing for the same key sent to both servers at once', async () => {
    const key = newKey();
    const before = await postCount(env, ws.workspaceId);
    const body = postBody(acc);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => send(i % 2 ? second.app : env.app, key, body)),
    );
    expect(await postCount(env, ws.workspaceId)).toBe(before + 1);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThan(0);
    for (const a of created) expect(a.body).toEqual(created[0]!.body);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body.code).toBe('idempotency_key_in_use');
      expect(a.headers['retry-after']).toBe('1');
    }
  });

  it('answers 503 with Retry-After while the database is out of reach; the same key then does it once', async () => {
    const key = newKey();
    const before = await postCount(env, ws.workspaceId);
    relay.cut();
    try {
      for (const res of [
        await call(env, 'post', '/v1/posts', { key: ws.writeKey, body: postBody(acc), headers: keyed(key) }),
        await call(env, 'get', '/v1/posts', { key: ws.readKey }),
      ]) {
        expect(res.status, JSON.stringify(res.body)).toBe(503);
        expect(res.body).toMatchObject({
          code: 'service_unavailable',
          hint: expect.stringContaining('Idempotency-Key'),
        });
        expect(res.headers['retry-after']).toBe('2');
      }
    } finally {
      relay.restore();
    }
    const created = await send(second.app, key, postBody(acc));
    expect(created.status).toBe(201);
    expect((await send(env.app, key, postBody(acc))).headers['idempotent-replayed']).toBe('true');
    expect(await postCount(env, ws.workspaceId)).toBe(before + 1);
  });
  it('rolls back and gives the key back when its connection is cut between its writes: a 503', async () => {
    const { db, clock } = env.services;
    const keys = idempotencyKeys(db, ws.workspaceId, clock, env.services.keyring);
    const key = newKey();
    const group = () => ({ id: newId('grp'), workspace_id: ws.workspaceId, name: 'G', created_at: isoNow(clock) });
    const first = group();
    const run = async (keyedDb: typeof db) => {
      await keyedDb.transaction((trx) => trx('groups').insert(first));
      // The transaction's connection is cut while it waits between two writes (idle in transaction, as the chaos
      // run's pg_terminate_backend finds it), and the client has heard of it when the second write begins.
      const { pid } = (await keyedDb.raw('select pg_backend_pid() as pid')).rows[0];
      const ended = once(await keyedDb.client.acquireConnection(), 'end');
      await db.raw('select pg_terminate_backend(?)', [pid]);
      await ended;
      // A read beside the writes fails first (its error taken by another branch of the request's work), and ends the
      // transaction; the next write must still say the database is out of reach.
      await keyedDb('groups')
        .where({ id: first.id })
        .first()
        .catch(() => undefined);
      await keyedDb.transaction((trx) => trx('groups').insert(group()));
      return { status: 201 };
    };
    const base = { keys, key, fingerprint: 'f', operationId: 'createGroup', db, render: () => ({ status: 500 }) };
    const failure = await runWithKey({ ...base, run }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
    expect(await db('groups').where({ id: first.id }).first()).toBeUndefined();
    expect((await keys.claim(key, 'f', 'createGroup')).kind).toBe('claimed');
  });

  it('counts a write in a transaction already ended (its connection lost) as the database out of reach', async () => {
    const { db, clock } = env.services;
    const trx = await db.transaction();
    await trx('groups').insert({
      id: newId('grp'),
      workspace_id: ws.workspaceId,
      name: 'G',
      created_at: isoNow(clock),
    });
    await trx.rollback();
    const late = await trx
      .transaction((inner) => inner('groups').select('id'))
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(String(late)).toContain('Transaction query already complete');
    expect(isDatabaseUnavailable(late)).toBe(true);
  });
});

describe.each(DATABASES)('MCP write tools with idempotencyKey on %s', (kind) => {
  let served: Awaited<ReturnType<typeof startListening>>;
  let ws: Seeded;
  let acc: string;

  beforeAll(async () => {
    served = await startListening(kind, { mediaSweepMs: 0 });
    ws = await seedWorkspace(served.env, { plan: 'agency' });
    acc = await addAccount(served.env, ws.workspaceId, 'threads', 'Acme Threads');
  });
  afterAll(() => served.close());

  it('advertises idempotencyKey on write tools and tells agents to reuse it on a retry', async () => {
    const client = await mcpClient(served.origin, ws.writeKey);
    const { tools } = await client.listTools();
    const create = tools.find((t) => t.name === 'service_create_post')!;
    expect(create.inputSchema.properties).toHaveProperty('idempotencyKey');
    expect(create.description).toMatch(/idempotencyKey.*retry/s);
    expect(create.inputSchema.properties!.idempotencyKey).toMatchObject({
      description: expect.stringContaining('`idempotentReplayed: true`'),
    });
    expect(tools.find((t) => t.name === 'service_get_post')!.inputSchema.properties).not.toHaveProperty(
      'idempotencyKey',
    );
    await client.close();
  });

  it('creates once for a key sent twice, answering the same posts', async () => {
    const client = await mcpClient(served.origin, ws.writeKey);
    const args = { ...postBody(acc), idempotencyKey: newKey() };
    const first = await client.callTool({ name: 'service_create_post', arguments: args });
    const again = await client.callTool({ name: 'service_create_post', arguments: args });
    expect(first.isError).toBeFalsy();
    // The agent sees no header: the replay says so in the result itself, and only the replay.
    expect(first.structuredContent).not.toHaveProperty('idempotentReplayed');
    expect(again.structuredContent).toEqual({ ...(first.structuredContent as object), idempotentReplayed: true });
    expect(JSON.parse((again.content as { text: string }[])[0]!.text)).toEqual(again.structuredContent);
    expect(await postCount(served.env, ws.workspaceId)).toBe(1);
    const reused = await client.callTool({
      name: 'service_create_post',
      arguments: { ...args, text: 'Another text' },
    });
    expect(reused.isError).toBe(true);
    expect((reused.structuredContent as { code: string }).code).toBe('idempotency_key_reused');
    const bad = await client.callTool({ name: 'service_create_post', arguments: { ...args, idempotencyKey: '' } });
    expect((bad.structuredContent as { code: string }).code).toBe('invalid_request');
    await client.close();
  });
});
