// The event feed (GET /v1/events): events written with their change, read oldest first by a cursor that never
// passes over an event whose transaction commits late, each with its object as the API answers it. Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents } from '../db/events.ts';
import { queueFailure } from '../networks/sandbox/state.ts';
import { startWorker, type RunningWorker } from '../worker/worker.ts';
import { addAccount, call, DATABASES, seedWorkspace, type Seeded } from './support/harness.ts';
import { listeningHerald, sandboxAccount } from './support/network.ts';
import { until } from './support/waiting.ts';

type Env = Awaited<ReturnType<typeof listeningHerald>>;
interface WireEvent {
  id: string;
  type: string;
  objectId: string;
  post?: { status: string; statusLine: string };
  account?: { id: string };
}

describe.each(DATABASES)('the event feed on %s', (kind) => {
  let env: Env;
  let ws: Seeded;
  let worker: RunningWorker;

  beforeAll(async () => {
    env = await listeningHerald(kind);
    ws = await seedWorkspace(env, { plan: 'agency' });
    worker = await startWorker(env.services, { retryDelaysMs: [300, 300, 300], watchEveryMs: 200 });
  });
  afterAll(async () => {
    await worker.stop();
    await env.close();
  });

  const feed = (query = '', key = ws.readKey) => call(env, 'get', `/v1/events${query}`, { key });

  /** Every event after `cursor`, page by page; answers them and the cursor to continue from. */
  async function walk(cursor: string | undefined, key = ws.readKey, limit = 2) {
    const seen: WireEvent[] = [];
    for (;;) {
      const res = await feed(`?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, key);
      expect(res.status).toBe(200);
      seen.push(...res.body.events);
      cursor = res.body.nextCursor;
      if (!res.body.hasMore) return { seen, cursor };
    }
  }

  async function postNow(accountId: string, text: string, key = ws.writeKey): Promise<string> {
    const res = await call(env, 'post', '/v1/posts', {
      key,
      body: { targets: { accountIds: [accountId] }, mediaIds: [], text, when: 'now', confirm: true },
    });
    expect(res.status).toBe(201);
    return res.body.posts[0].id;
  }

  it('answers 401 without a key and to a wrong one, and reads with a read-only key', async () => {
    expect((await call(env, 'get', '/v1/events')).status).toBe(401);
    expect((await feed('', 'hld_wrong')).status).toBe(401);
    const res = await feed();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ events: expect.any(Array), nextCursor: expect.any(String), hasMore: false });
  });

  it('refuses a cursor it did not give, a limit out of range and an unknown type', async () => {
    for (const query of ['?cursor=bm9wZQ', '?limit=0', '?limit=101', '?types=post.exploded', '?types=']) {
      const res = await feed(query);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('invalid_request');
    }
  });

  it("tells a post's way to live, with the post as GET /posts/{id} answers it, and filters by type", async () => {
    const { cursor } = await walk(undefined);
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const postId = await postNow(account.id, 'Feed me');
    const post = await until(
      () => call(env, 'get', `/v1/posts/${postId}`, { key: ws.readKey }).then((r) => r.body),
      (p) => p.status === 'live',
    );
    const { seen } = await walk(cursor);
    const mine = seen.filter((e) => e.objectId === postId);
    expect(mine.map((e) => e.type)).toEqual(['post.created', 'post.queued', 'post.publishing', 'post.live']);
    // The object as it is now: the feed is read after the post went live.
    expect(mine.at(-1)!.post).toEqual(post);
    const lives = await feed(`?types=post.live,post.failed&cursor=${cursor}`);
    expect(lives.body.events.map((e: WireEvent) => [e.type, e.objectId])).toEqual([['post.live', postId]]);
  });

  it('tells an edit and a deletion, the deleted post as it was answered before it went', async () => {
    const { cursor } = await walk(undefined);
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const created = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: { targets: { accountIds: [account.id] }, mediaIds: [], text: 'First words', when: 'draft', confirm: true },
    });
    const postId = created.body.posts[0].id;
    const path = `/v1/posts/${postId}`;
    expect((await call(env, 'patch', path, { key: ws.writeKey, body: { text: 'Better words' } })).status).toBe(200);
    const edited = (await call(env, 'get', path, { key: ws.readKey })).body;
    expect((await call(env, 'delete', `${path}?confirm=true`, { key: ws.writeKey })).status).toBe(200);
    const mine = (await walk(cursor)).seen.filter((e) => e.objectId === postId);
    expect(mine.map((e) => e.type)).toEqual(['post.created', 'post.updated', 'post.deleted']);
    // Its earlier events too: a receiver reading them after the deletion needs no second call.
    expect(mine.map((e) => e.post)).toEqual([edited, edited, edited]);
  });

  it('takes the full list of event types in one filter', async () => {
    const all = await feed('');
    const types = (await call(env, 'get', '/v1/openapi.json')).body.components.schemas.EventType.enum;
    expect(types).toHaveLength(16);
    const res = await feed(`?types=${types.join(',')}`);
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual(all.body.events);
    expect((await feed('?types=post.live,post.live')).status).toBe(400);
  });

  it('refuses text, titles and tags past their bounds, a draft too, and changes nothing', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'facebook');
    const body = { targets: { accountIds: [account.id] }, mediaIds: [], text: 'Fine', when: 'draft', confirm: true };
    const draft = (await call(env, 'post', '/v1/posts', { key: ws.writeKey, body })).body.posts[0].id;
    // On PostgreSQL an event shows once no transaction that began before it still runs: the draft's own showing
    // means every earlier one (the previous tests') shows too, so nothing earlier appears after `before`.
    const before = await until(
      () => walk(undefined),
      (w) => w.seen.some((e) => e.objectId === draft),
    );
    const tooMuch: [string, Record<string, unknown>][] = [
      ['text', { text: 'é'.repeat(65_537) }],
      ['title', { title: 'T'.repeat(1001) }],
      ['tags', { tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }],
      ['tags/0', { tags: ['t'.repeat(501)] }],
      ['overrides/facebook/text', { overrides: { facebook: { text: 'x'.repeat(65_537) } } }],
      ['perPlatform/facebook', { perPlatform: { facebook: { link: `https://${'a'.repeat(131_072)}` } } }],
    ];
    for (const [field, fields] of tooMuch) {
      const created = await call(env, 'post', '/v1/posts', { key: ws.writeKey, body: { ...body, ...fields } });
      expect([created.status, created.body.code], field).toEqual([400, 'invalid_request']);
      expect(created.body.message, field).toContain(field.split('/')[0]);
      const edited = await call(env, 'patch', `/v1/posts/${draft}`, { key: ws.writeKey, body: fields });
      expect([edited.status, edited.body.code], field).toEqual([400, 'invalid_request']);
    }
    expect((await walk(before.cursor)).seen).toEqual([]);
    // The bounds themselves are taken.
    const most = {
      text: 'é'.repeat(65_536),
      title: 'T'.repeat(1000),
      tags: Array(100).fill('t'.repeat(500)),
      perPlatform: { facebook: { link: `https://${'a'.repeat(131_000)}` } },
    };
    expect((await call(env, 'patch', `/v1/posts/${draft}`, { key: ws.writeKey, body: most })).status).toBe(200);
  });

  it('stops a page at its byte budget and continues it by the cursor, skipping and repeating nothing', async () => {
    const { cursor } = await walk(undefined);
    const account = await sandboxAccount(env, ws.workspaceId, 'facebook');
    // The largest text a post may carry, in the character JSON writes longest (6 bytes): about 400 KB a post.
    const text = '\u0001'.repeat(65_536);
    const body = { targets: { accountIds: [account.id] }, mediaIds: [], text, when: 'draft', confirm: true };
    const postId = (await call(env, 'post', '/v1/posts', { key: ws.writeKey, body })).body.posts[0].id;
    for (let i = 0; i < 10; i++) {
      const edit = await call(env, 'patch', `/v1/posts/${postId}`, { key: ws.writeKey, body: { tags: [`t${i}`] } });
      expect(edit.status).toBe(200);
    }
    const first = await feed(`?limit=100&types=post.updated&cursor=${cursor}`);
    expect(first.status).toBe(200);
    expect(first.body.events.length).toBeGreaterThan(0);
    expect(first.body.events.length).toBeLessThan(10);
    expect(first.body.hasMore).toBe(true);
    expect(first.text.length).toBeLessThan(1024 * 1024 + 500_000);
    expect(first.body.events[0].post.text).toBe(text);
    const ids: string[] = [];
    let at = cursor;
    for (let page = 0; page < 20; page++) {
      const res = await feed(`?limit=100&types=post.updated&cursor=${at}`);
      ids.push(...res.body.events.map((e: WireEvent) => e.id));
      at = res.body.nextCursor;
      if (!res.body.hasMore) break;
    }
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
  });

  it('tells when an account needs reconnecting, with the account', async () => {
    const { cursor } = await walk(undefined);
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const failure = { network: 'threads', account: account.externalId, scenario: 'token_rejected', times: 1 };
    await queueFailure(env.services.db, failure as Parameters<typeof queueFailure>[1]);
    await postNow(account.id, 'Token gone');
    const res = await until(
      () => feed(`?types=account.needs_reconnect&cursor=${cursor}`),
      (r) => r.body.events.length > 0,
    );
    expect(res.body.events).toEqual([
      expect.objectContaining({ objectId: account.id, account: expect.objectContaining({ status: 'expired' }) }),
    ]);
  });

  it('shows no event of another workspace, whatever the cursor', async () => {
    const other = await seedWorkspace(env, { plan: 'agency' });
    const theirAccount = await addAccount(env, other.workspaceId, 'threads', 'Theirs');
    const theirPost = await postNow(theirAccount, 'Not yours', other.writeKey);
    const { seen } = await walk(undefined, ws.readKey, 100);
    expect(seen.some((e) => e.objectId === theirPost || e.objectId === theirAccount)).toBe(false);
    const theirs = await walk(undefined, other.readKey, 100);
    expect(theirs.seen.map((e) => e.objectId)).toContain(theirPost);
    // A deleted post's copy is its workspace's own: an event here naming their deleted post shows no post.
    const draft = await call(env, 'post', '/v1/posts', {
      key: other.writeKey,
      body: { targets: { accountIds: [theirAccount] }, mediaIds: [], text: 'Gone', when: 'draft', confirm: true },
    });
    const gone = draft.body.posts[0].id;
    expect((await call(env, 'delete', `/v1/posts/${gone}?confirm=true`, { key: other.writeKey })).status).toBe(200);
    const { cursor } = await walk(undefined, ws.readKey, 100);
    const naming = { workspaceId: ws.workspaceId, type: 'post.updated' as const, objectId: gone };
    await recordEvents(env.services.db, [naming], new Date().toISOString());
    const named = (await walk(cursor, ws.readKey, 100)).seen.filter((e) => e.objectId === gone);
    expect(named).toEqual([expect.not.objectContaining({ post: expect.anything() })]);
    expect(named[0]).not.toHaveProperty('post');
  });

  it.runIf(kind === 'postgres')('never passes over an event whose transaction commits after a later one', async () => {
    const { db } = env.services;
    const { cursor } = await walk(undefined);
    const objectOf = (n: number) => `acc_late${n}`;
    const event = (n: number) => ({
      workspaceId: ws.workspaceId,
      type: 'account.needs_reconnect' as const,
      objectId: objectOf(n),
    });
    // The first transaction writes its event (taking the smaller sequence number) and stays open...
    const early = await db.transaction();
    await recordEvents(early, [event(1)], new Date().toISOString());
    // ...while a second writes and commits its own.
    await recordEvents(db, [event(2)], new Date().toISOString());
    const meanwhile = await walk(cursor);
    // A reader that moved past the second's row would never see the first's.
    expect(meanwhile.seen.map((e) => e.objectId)).toEqual([]);
    await early.commit();
    const after = await walk(meanwhile.cursor);
    expect(after.seen.map((e) => e.objectId)).toEqual([objectOf(1), objectOf(2)]);
  });
});
