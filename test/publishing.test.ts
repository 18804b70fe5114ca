// The publishing worker end to end: posts created through the API go live on the sandbox networks
// over real HTTP, exactly once; temporary failures are retried by the worker; token failures need a
// person; a dead worker's attempt is settled from what the network says. Both databases.
// An attempt cut midway (as the chaos run cuts them) is settled from what the network says: live if the post is there,
// sent again if it is not; never failed as "outcome unknown", never published twice. Cuts of the database
// connection are real (PostgreSQL): a trigger on `posts` terminates the worker's own connection in the middle of the
// statement that records the step, the first `times` times it runs. A network answer lost is the sandbox's chaos
// knob (SANDBOX_ANSWER_LOST_PERCENT): the simulator commits the post, then cuts the connection before answering.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWorkspace } from '../db/identity.ts';
import { reservePosts, startAttempts } from '../db/publishing/attempts.ts';
import { releaseForResend, retryLater } from '../db/publishing/outcomes.ts';
import { takeOverAttempts } from '../db/publishing/watchdog.ts';
import { newId } from '../domain/ids.ts';
import { processHost } from '../runtime/processHost.ts';
import { LEAST_WAITING_ROOM } from '../worker/launcher.ts';
import { queueFailure } from '../networks/sandbox/state.ts';
import { startWorker, type RunningWorker } from '../worker/worker.ts';
import { call, DATABASES, seedWorkspace, type Seeded } from './support/harness.ts';
import { makeVideo, tempDir, upload } from './support/mediaFiles.ts';
import { listeningHerald, postingCalls, postPage, sandboxAccount } from './support/network.ts';
import { until } from './support/waiting.ts';

type Env = Awaited<ReturnType<typeof listeningHerald>>;

describe.each(DATABASES)('publishing on %s', (kind) => {
  let env: Env;
  let ws: Seeded;
  let worker: RunningWorker;
  let api: ReturnType<typeof postingCalls>;

  beforeAll(async () => {
    env = await listeningHerald(kind);
    ws = await seedWorkspace(env, { plan: 'agency' });
    api = postingCalls(env, ws);
    // Retries after a few hundred milliseconds instead of 1, 5 and 15 minutes: same code, shorter waits.
    worker = await startWorker(env.services, { retryDelaysMs: [300, 300, 300], watchEveryMs: 200 });
  });
  afterAll(async () => {
    await worker.stop();
    await env.close();
  });

  it('publishes a post due now exactly once, with a page at its externalUrl', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const id = await api.postNow(account.id, 'Autumn sale: 30% off everything until Sunday.');
    const post = await api.settled(id);
    expect(post).toMatchObject({ status: 'live', externalUrl: expect.stringMatching(/^http/) });
    expect(post.statusLine).toMatch(/^Live\. Threads · /);
    expect(await api.kinds(id)).toEqual(['created', 'queued', 'publishing', 'live']);
    expect(await api.published('threads', account.externalId)).toBe(1);
    const page = await postPage(post.externalUrl);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Autumn sale: 30% off everything until Sunday.');
  });

  it("goes live at the TikTok creator's profile when TikTok shows the post privately, and says so", async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'tiktok');
    const video = await upload(
      env,
      ws.writeKey,
      makeVideo(tempDir(), { seconds: 3, width: 360, height: 640, fps: 25 }),
      'video/mp4',
    );
    const res = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: {
        targets: { accountIds: [account.id] },
        mediaIds: [video.id],
        text: 'Only me',
        perPlatform: { tiktok: { privacyLevel: 'SELF_ONLY' } },
        when: 'now',
        confirm: true,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const post = await api.settled(res.body.posts[0].id);
    expect(post.status).toBe('live');
    expect(post.externalUrl).toMatch(/\/sandbox\/tiktok\/@acmetiktok\w+$/);
    expect(post.statusLine).toMatch(/\. TikTok shows it privately \(visible to: only the creator\) and gives no link/);
  });

  it('publishes a threads text post with perPlatform.threads.link as its link attachment', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const link = 'https://shop.acme.example/autumn';
    const res = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: {
        targets: { accountIds: [account.id] },
        mediaIds: [],
        text: 'Autumn sale: see the shop.',
        when: 'now',
        perPlatform: { threads: { link } },
        confirm: true,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await api.settled(res.body.posts[0].id)).status).toBe('live');
    const sent = await env.services
      .db('sandbox_items')
      .where({ network: 'threads', account: account.externalId, kind: 'post' })
      .select('data');
    expect(sent.map((row) => JSON.parse(row.data))).toEqual([
      expect.objectContaining({
        mediaType: 'TEXT',
        text: 'Autumn sale: see the shop.',
        extra: { link_attachment: link },
      }),
    ]);
  });

  it('retries temporary failures by itself, recording each retry, then goes live', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    await queueFailure(env.services.db, {
      network: 'threads',
      account: account.externalId,
      scenario: 'unavailable',
      times: 2,
    });
    const id = await api.postNow(account.id, 'Second try is the charm.');
    const post = await api.settled(id);
    expect(post.status).toBe('live');
    const events = (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events;
    const retries = events.filter((e: { kind: string }) => e.kind === 'retriedByWorker');
    expect(retries).toHaveLength(2);
    expect(retries[0].error).toMatchObject({
      code: 'threads_unavailable',
      message: expect.stringContaining('Threads answered'),
    });
    expect(await api.published('threads', account.externalId)).toBe(1);
  });

  it('fails with the network words and the retry hint after three worker retries', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    await queueFailure(env.services.db, {
      network: 'threads',
      account: account.externalId,
      scenario: 'unavailable',
      times: 10,
    });
    const id = await api.postNow(account.id, 'This one will not make it.');
    const post = await api.settled(id);
    expect(post.status).toBe('failed');
    expect(post.error).toMatchObject({
      code: 'threads_unavailable',
      hint: expect.stringContaining('1, 5 and 15 minutes'),
    });
    expect((await api.kinds(id)).filter((k: string) => k === 'retriedByWorker')).toHaveLength(3);
    expect(post.statusLine).toMatch(/^Failed\. Threads · .*: Threads answered: /);
    expect(await api.published('threads', account.externalId)).toBe(0);
  });

  it('fails at once on a rejected post, and a token failure expires the account', async () => {
    const rejected = await sandboxAccount(env, ws.workspaceId, 'threads');
    await queueFailure(env.services.db, {
      network: 'threads',
      account: rejected.externalId,
      scenario: 'rejected',
      times: 1,
    });
    const r = await api.settled(await api.postNow(rejected.id, 'Refused.'));
    expect(r).toMatchObject({ status: 'failed', error: { code: 'threads_rejected' } });
    // The failure on the timeline carries the network's own words as a field beside the sentence quoting them.
    const events = (await call(env, 'get', `/v1/posts/${r.id}/events`, { key: ws.readKey })).body.events;
    const { error } = events.find((e: { kind: string }) => e.kind === 'failed');
    expect(error.networkMessage).toEqual(expect.any(String));
    expect(error.message).toBe(`Threads answered: "${error.networkMessage}"`);
    // The post's own error carries them too, so its page quotes the network as the timeline does.
    expect(r.error).toEqual(error);

    const token = await sandboxAccount(env, ws.workspaceId, 'threads');
    await queueFailure(env.services.db, {
      network: 'threads',
      account: token.externalId,
      scenario: 'token_rejected',
      times: 1,
    });
    const t = await api.settled(await api.postNow(token.id, 'Token gone.'));
    expect(t).toMatchObject({
      status: 'failed',
      error: { code: 'threads_token_rejected', hint: expect.stringContaining('Reconnect') },
    });
    const accounts = (await call(env, 'get', '/v1/accounts', { key: ws.readKey })).body.accounts;
    expect(accounts.find((a: { id: string }) => a.id === token.id).status).toBe('expired');
  });

  it('serves cached analytics of a live post and its account, refreshed at most every 15 minutes', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const id = await api.postNow(account.id, 'Counted.');
    expect((await api.settled(id)).status).toBe('live');
    const url = `/v1/posts/${id}/analytics`;
    expect((await call(env, 'get', url, { key: ws.readKey })).body).toEqual({
      postId: id,
      platform: 'threads',
      fetchedAt: null,
      metrics: {},
    });
    const fresh = await call(env, 'get', `${url}?refresh=true`, { key: ws.readKey });
    expect(fresh.status).toBe(200);
    expect(fresh.body.fetchedAt).toMatch(/Z$/);
    expect(Object.keys(fresh.body.metrics)).toEqual(expect.arrayContaining(['views', 'likes']));
    const again = await call(env, 'get', `${url}?refresh=true`, { key: ws.readKey });
    expect(again.status).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(800);
    expect((await call(env, 'get', url, { key: ws.readKey })).body).toEqual(fresh.body);

    const accountUrl = `/v1/accounts/${account.id}/analytics?refresh=true`;
    const acc = await call(env, 'get', accountUrl, { key: ws.readKey });
    expect(acc.status).toBe(200);
    expect(acc.body).toMatchObject({ accountId: account.id, platform: 'threads', fetchedAt: expect.any(String) });
    expect((await call(env, 'get', accountUrl, { key: ws.readKey })).status).toBe(429);

    const other = await seedWorkspace(env, { plan: 'creator' });
    expect((await call(env, 'get', url, { key: other.readKey })).status).toBe(404);
    expect((await call(env, 'get', `/v1/accounts/${account.id}/analytics`, { key: other.readKey })).status).toBe(404);
    const draft = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: { targets: { accountIds: [account.id] }, mediaIds: [], text: 'Not yet.', when: 'draft', confirm: true },
    });
    expect((await call(env, 'get', `/v1/posts/${draft.body.posts[0].id}/analytics`, { key: ws.readKey })).status).toBe(
      409,
    );
  });

  it('refreshes an expired access token before reading analytics, and keeps the new one', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const expired = {
      accessToken: account.credentials.accessToken,
      refreshToken: 'kept-refresh-token',
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    };
    await env.services
      .db('accounts')
      .where({ id: account.id })
      .update({
        token_sealed: env.services.keyring.encrypt(JSON.stringify(expired)),
        token_expires_at: expired.expiresAt,
      });

    const res = await call(env, 'get', `/v1/accounts/${account.id}/analytics?refresh=true`, { key: ws.readKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await env.services.db('accounts').where({ id: account.id }).first('token_sealed', 'token_expires_at');
    const stored = JSON.parse(env.services.keyring.decrypt(row.token_sealed));
    // Threads' th_refresh_token answer: a new long-lived token for 60 days, and no refresh token (the old one stays).
    expect(stored.accessToken).not.toBe(expired.accessToken);
    expect(stored.accessToken.startsWith(`sandbox-access.${account.externalId}.`)).toBe(true);
    expect(stored.refreshToken).toBe('kept-refresh-token');
    expect(Date.parse(stored.expiresAt)).toBeGreaterThan(Date.now() + 59 * 86_400_000);
    expect(row.token_expires_at).toBe(stored.expiresAt);
  });

  /** A queued post due `seconds` from now (the API takes whole minutes): a draft moved into the queue, with its job. */
  async function dueIn(accountId: string, text: string, seconds: number): Promise<{ id: string; dueAt: string }> {
    const res = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: { targets: { accountIds: [accountId] }, mediaIds: [], text, when: 'draft', confirm: true },
    });
    const id: string = res.body.posts[0].id;
    const dueAt = new Date(Date.now() + seconds * 1000).toISOString();
    await env.services.db.transaction(async (trx) => {
      await trx('posts').where({ id }).update({ status: 'queued', publish_at: dueAt, due_at: dueAt });
      await env.services.jobs.schedule(trx, id, dueAt);
    });
    return { id, dueAt };
  }
  const lease = (id: string) =>
    env.services.db('posts').where({ id }).first('attempt_id', 'attempt_started_at', 'due_at', 'status');

  it('reserves a post ahead of its time, yet a person can still cancel it and nothing is sent', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const { id, dueAt } = await dueIn(account.id, 'Reserved, then cancelled.', 3);
    const reserved = await until(
      () => lease(id),
      (row) => row.attempt_id !== null,
      5_000,
    );
    expect(reserved).toMatchObject({ status: 'queued', attempt_started_at: null });
    const cancelled = await call(env, 'post', `/v1/posts/${id}/cancel`, { key: ws.writeKey, body: { confirm: true } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('draft');
    // Its reservation is launched at its time and must find the post changed: once the due time has
    // passed, the worker's idle moment comes after that launch has ended.
    await until(
      async () => Date.now(),
      (now) => now > Date.parse(dueAt),
      10_000,
    );
    await worker.idle();
    expect(await lease(id)).toMatchObject({ status: 'draft', attempt_id: null });
    expect(await api.published('threads', account.externalId)).toBe(0);
    expect(await api.kinds(id)).toEqual(['created', 'cancelled']);
  });

  /**
   * A worker the test plays, its heartbeat fresh for the whole test however slow the machine: this file's own worker
   * leaves its leases alone unless `host` says its process is gone.
   */
  const playWorker = (id: string, pid: number, host: string | null = null) => {
    const now = new Date().toISOString();
    const fresh = new Date(Date.now() + 60_000).toISOString();
    return env.services.db('workers').insert({ id, started_at: now, heartbeat_at: fresh, pid, host });
  };
  /** How far ahead a test reserves: past the 600 s its posts are due in (dueIn). */
  const reserveHorizon = () => new Date(Date.now() + 700_000).toISOString();
  /** Sets a test's reserved posts aside (drafts, no lease) and removes the workers it played. */
  const setAside = async (postIds: string[], workerIds: string[]) => {
    const { db } = env.services;
    await db('posts').whereIn('id', postIds).update({ status: 'draft', attempt_id: null, attempt_worker: null });
    await db('workers').whereIn('id', workerIds).delete();
  };

  it('hands a post asked for twice in one reservation batch to one caller only', async () => {
    // The chaos run published two posts twice: two jobs of one post (a retry's and the watchdog's) were prepared in
    // one batch, and both callers got the attempt.
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const { id } = await dueIn(account.id, 'Asked for twice at once.', 600);
    const horizon = reserveHorizon();
    const [first, second] = await reservePosts(env.services.db, [id, id], 'wkr_twojobs', horizon);
    expect(first).toMatchObject({ postId: id, attemptId: expect.stringMatching(/^att_/) });
    expect(second).toBeUndefined();
    const cancelled = await call(env, 'post', `/v1/posts/${id}/cancel`, { key: ws.writeKey, body: { confirm: true } });
    expect(cancelled.status).toBe(200);
  });

  it('starts one attempt once, whether named twice in one batch or started again after', async () => {
    // A chaos run sent a Threads post twice with two `publishing` events at one instant: one lease started for two
    // holders. Only the first start of a lease may call the network; a later one stops, and the first is settled.
    const { db } = env.services;
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const { id } = await dueIn(account.id, 'Started once.', 600);
    const horizon = reserveHorizon();
    await playWorker('wkr_once', 0);
    const [held] = await reservePosts(db, [id], 'wkr_once', horizon);
    const item = { attempt: held!, message: 'Sending to Threads.' };
    const now = new Date().toISOString();
    expect(await startAttempts(db, [item, { ...item }], now)).toEqual([true, false]);
    expect(await startAttempts(db, [{ ...item }], now)).toEqual([false]);
    expect(await api.kinds(id)).toEqual(['created', 'publishing']);
    await setAside([id], ['wkr_once']);
  });

  it('never starts a lease its post no longer holds, even in a batch beside the lease that replaced it', async () => {
    // The double send a chaos run once showed: a worker took over its own reservation under a new attempt id (its
    // heartbeat had gone stale in a database cut) and both copies fell due in one batch. The start used to answer per
    // post, so the replaced copy was told "started" too. Now whichever comes first, the replaced one never is.
    const { db } = env.services;
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const horizon = reserveHorizon();
    await playWorker('wkr_copied', 0);
    const ids: string[] = [];
    for (const replacedFirst of [true, false]) {
      const { id } = await dueIn(account.id, `Held twice, the replaced copy ${replacedFirst ? 'first' : 'last'}.`, 600);
      ids.push(id);
      const [replaced] = await reservePosts(db, [id], 'wkr_copied', horizon);
      const [current] = await takeOverAttempts(
        db,
        [{ postId: id, attemptId: replaced!.attemptId, started: false }],
        'wkr_copied',
      );
      const items = [replaced!, current!].map((attempt) => ({ attempt, message: 'Sending to Threads.' }));
      if (!replacedFirst) items.reverse();
      const answers = await startAttempts(db, items, new Date().toISOString());
      expect(answers[items.findIndex((i) => i.attempt === replaced)]).toBe(false);
      expect(answers.filter(Boolean).length).toBeLessThanOrEqual(1);
      const told = (await api.kinds(id)).filter((k: string) => k === 'publishing');
      expect(told.length).toBe(answers.filter(Boolean).length);
    }
    await setAside(ids, ['wkr_copied']);
  });

  it("tells each attempt's start, a worker's retry that resumes its progress too, and a resend's once", async () => {
    const { db } = env.services;
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const { id } = await dueIn(account.id, 'Refused after its container was made.', 600);
    const horizon = reserveHorizon();
    await playWorker('wkr_retrying', 0);
    /** Reserves the post and starts its attempt, with its first progress if given, as the worker does. */
    const start = async (checkpoint?: { containerId: string }) => {
      const [held] = await reservePosts(db, [id], 'wkr_retrying', horizon);
      const now = new Date().toISOString();
      const item = { attempt: held!, message: 'Sending to Threads.', checkpoint };
      expect(await startAttempts(db, [item], now)).toEqual([true]);
      return held!;
    };
    const checkpoint = { containerId: 'ctr_made' };
    const first = await start(checkpoint);
    // Threads answered a temporary error after the container was made: the retry keeps it.
    const error = { code: 'threads_unavailable', message: 'Threads answered 503.', hint: 'Herald tries again.' };
    // Retried as far ahead as the post was due: this file's own worker, whose job it is at that time, stays away.
    const later = new Date(Date.now() + 600_000).toISOString();
    expect(await retryLater(db, env.services.jobs, first, error, later, new Date().toISOString())).toBe(true);
    const retry = await start();
    expect(retry.checkpoint).toEqual(checkpoint);
    // Settling found nothing sent: the same attempt is sent again, already told.
    await releaseForResend(db, env.services.jobs, { ...retry, checkpoint }, new Date().toISOString());
    await start();
    expect(await api.kinds(id)).toEqual(['created', 'publishing', 'retriedByWorker', 'publishing']);
    await setAside([id], ['wkr_retrying']);
  });

  it("takes over a silent worker's reservation only while it is one: a holder back and sending keeps it", async () => {
    const { db } = env.services;
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const { id } = await dueIn(account.id, 'Started by a worker thought silent.', 600);
    const horizon = reserveHorizon();
    // The holder beats again.
    await playWorker('wkr_back', 0);
    const [held] = await reservePosts(db, [id], 'wkr_back', horizon);
    // A watchdog listed it as a reservation while its holder was silent; the holder came back and started it.
    const listed = { postId: id, attemptId: held!.attemptId, started: false };
    const now = new Date().toISOString();
    expect(await startAttempts(db, [{ attempt: held!, message: 'Sending to Threads.' }], now)).toEqual([true]);
    expect(await takeOverAttempts(db, [listed], 'wkr_watchdog')).toEqual([]);
    expect(await lease(id)).toMatchObject({ attempt_id: held!.attemptId });
    // The same lease found started (its holder gone quiet too long) is taken, to be settled.
    const [taken] = await takeOverAttempts(db, [{ ...listed, started: true }], 'wkr_watchdog');
    expect(taken).toMatchObject({ postId: id, started: true });
    await setAside([id], ['wkr_back']);
  });

  it('takes over at once the reservations of a worker whose process is gone from this machine', async () => {
    const { db } = env.services;
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const horizon = reserveHorizon();
    // A process that ran here and ended: its pid names no process now.
    const ended = spawn(process.execPath, ['-e', '0']);
    await once(ended, 'exit');
    const reserveAs = async (workerId: string, pid: number, text: string) => {
      const { id } = await dueIn(account.id, text, 600);
      // Its heartbeat is fresh: only the process tells whether it is gone.
      await playWorker(workerId, pid, processHost());
      const [held] = await reservePosts(db, [id], workerId, horizon);
      return { id, attemptId: held!.attemptId };
    };
    const alive = await reserveAs('wkr_alive', process.pid, 'Reserved by a live worker.');
    const gone = await reserveAs('wkr_gone', ended.pid!, 'Reserved by a worker whose process ended.');
    const holder = (id: string) => db('posts').where({ id }).first('attempt_worker');
    expect(
      await until(
        () => holder(gone.id),
        (row) => row.attempt_worker === worker.id,
        5_000,
      ),
    ).toEqual({
      attempt_worker: worker.id,
    });
    // A whole watchdog pass after that one: a live worker's reservation stays its own.
    await worker.watch();
    expect(await holder(alive.id)).toEqual({ attempt_worker: 'wkr_alive' });
    for (const { id } of [alive, gone]) {
      const cancelled = await call(env, 'post', `/v1/posts/${id}/cancel`, {
        key: ws.writeKey,
        body: { confirm: true },
      });
      expect(cancelled.status).toBe(200);
    }
    await db('workers').whereIn('id', ['wkr_alive', 'wkr_gone']).delete();
  });

  it('refuses to change a post whose attempt has started, with 409 invalid_state', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const { id } = await dueIn(account.id, 'Being sent right now.', 600);
    // This worker holds the attempt and has started it: the network may have been called.
    await env.services
      .db('posts')
      .where({ id })
      .update({ attempt_id: 'att_sending', attempt_worker: worker.id, attempt_started_at: new Date().toISOString() });
    const cancel = await call(env, 'post', `/v1/posts/${id}/cancel`, { key: ws.writeKey, body: { confirm: true } });
    expect(cancel.status).toBe(409);
    expect(cancel.body).toMatchObject({
      code: 'invalid_state',
      message: `Post ${id} is being published right now; it cannot be changed until that attempt ends.`,
    });
    expect(await lease(id)).toMatchObject({ status: 'queued', attempt_id: 'att_sending' });
    expect(await api.kinds(id)).toEqual(['created']);
    await env.services
      .db('posts')
      .where({ id })
      .update({ status: 'draft', attempt_id: null, attempt_worker: null, attempt_started_at: null, due_at: null });
  });

  it('gives its reservations back when the worker stops, keeping their time', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const { id, dueAt } = await dueIn(account.id, 'Handed back at shutdown.', 4);
    await until(
      () => lease(id),
      (row) => row.attempt_id !== null,
      5_000,
    );
    await worker.stop();
    expect(await lease(id)).toMatchObject({ status: 'queued', attempt_id: null, due_at: dueAt });
    expect(await env.services.jobs.postsWithoutJob([id], new Date().toISOString())).toEqual([]);
    worker = await startWorker(env.services, { retryDelaysMs: [300, 300, 300], watchEveryMs: 200 });
    expect(await api.settled(id)).toMatchObject({ status: 'live' });
    expect(await api.published('threads', account.externalId)).toBe(1);
  });

  it('sends a reservation left more than a minute past its time, even one held by a live worker', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const { id } = await dueIn(account.id, 'Reserved and forgotten.', 600);
    // As if this worker had reserved it and then lost it (a fault between the reservation and its launch).
    await env.services
      .db('posts')
      .where({ id })
      .update({
        due_at: new Date(Date.now() - 2 * 60_000).toISOString(),
        attempt_id: 'att_forgotten',
        attempt_worker: worker.id,
      });
    expect(await api.settled(id)).toMatchObject({ status: 'live' });
    expect(await api.published('threads', account.externalId)).toBe(1);
    expect(await api.kinds(id)).toEqual(['created', 'publishing', 'live']);
  });

  it('settles the attempt of a dead worker instead of publishing again', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    // A post whose attempt was taken by a worker that died before doing anything on the network.
    const res = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: { targets: { accountIds: [account.id] }, mediaIds: [], text: 'Orphaned.', when: 'draft', confirm: true },
    });
    const id = res.body.posts[0].id;
    const ws0 = (await findWorkspace(env.services.db, ws.workspaceId))!;
    await env.services.db('posts').where({ id, workspace_id: ws0.id }).update({
      status: 'queued',
      due_at: new Date().toISOString(),
      attempt_id: 'att_dead',
      attempt_worker: 'wkr_dead',
      attempt_started_at: new Date().toISOString(),
    });
    const post = await api.settled(id);
    expect(post.status).toBe('live');
    expect(await api.published('threads', account.externalId)).toBe(1);
  });

  let cutters = 0;
  /**
   * The next `times` updates of the post with `text` that match `condition` (SQL over `old` and `new`) have their
   * connection terminated mid-statement; a sequence counts them, since the cut rolls back everything else.
   */
  async function cutUpdates(text: string, condition: string, times: number): Promise<() => Promise<number>> {
    const name = `cut_${++cutters}`;
    const { db } = env.services;
    await db.raw(`create sequence ${name}`);
    await db.raw(`create function ${name}() returns trigger language plpgsql as $$
      begin
        if new.text = '${text}' and (${condition}) and nextval('${name}') <= ${times} then
          perform pg_terminate_backend(pg_backend_pid());
        end if;
        return new;
      end $$`);
    await db.raw(`create trigger ${name} before update on posts for each row execute function ${name}()`);
    return async () => Math.min(times, Number((await db.raw(`select last_value from ${name}`)).rows[0].last_value));
  }

  it.runIf(kind === 'postgres')(
    'goes live once when recording it live is cut, twice (the settle that follows included)',
    async () => {
      const account = await sandboxAccount(env, ws.workspaceId, 'facebook');
      const text = 'Published, then the record of it cut twice.';
      const cuts = await cutUpdates(text, `new.status = 'live'`, 2);
      const id = await api.postNow(account.id, text);
      const post = await api.settled(id);
      expect(post).toMatchObject({ status: 'live' });
      expect(post.error).toBeUndefined();
      expect(await cuts()).toBe(2);
      expect(await api.published('facebook', account.externalId)).toBe(1);
      expect(await api.kinds(id)).not.toContain('failed');
    },
  );

  it.runIf(kind === 'postgres')(
    'is sent again, once, when the record of a temporary failure is cut and the network shows no post',
    async () => {
      const account = await sandboxAccount(env, ws.workspaceId, 'facebook');
      // The first publish call answers Facebook's temporary error (as `herald sandbox fail` queues it); recording the
      // retry is cut.
      const failure = { network: 'facebook' as const, account: account.externalId, scenario: 'unavailable' as const };
      await queueFailure(env.services.db, { ...failure, times: 1 });
      const text = 'Refused for now, and the record of it cut.';
      const cuts = await cutUpdates(text, 'new.worker_retries > old.worker_retries', 1);
      expect(await api.settled(await api.postNow(account.id, text))).toMatchObject({ status: 'live' });
      expect(await cuts()).toBe(1);
      expect(await api.published('facebook', account.externalId)).toBe(1);
    },
  );

  it('goes live once when Facebook takes the post and its answer is lost', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'facebook');
    const lostBefore = (await (await fetch(`${env.base}/sandbox/faults`)).json()).answersLost;
    // Every POST to a simulator loses its answer: the feed call that makes the post is the only one a text post sends.
    env.config.sandboxAnswerLostPercent = 100;
    try {
      const id = await api.postNow(account.id, 'Taken by Facebook, the answer lost on the way.');
      const post = await api.settled(id);
      expect(post).toMatchObject({ status: 'live' });
      expect(await api.published('facebook', account.externalId)).toBe(1);
      // The retry is an attempt of its own (it starts, and finds the post Facebook took): its start is told.
      expect(await api.kinds(id)).toEqual(['created', 'queued', 'publishing', 'retriedByWorker', 'publishing', 'live']);
    } finally {
      env.config.sandboxAnswerLostPercent = 0;
    }
    expect((await (await fetch(`${env.base}/sandbox/faults`)).json()).answersLost).toBe(lostBefore + 1);
  });
});

describe("a dead worker's backlog of reservations", () => {
  let env: Env;
  let ws: Seeded;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    env = await listeningHerald('sqlite');
    ws = await seedWorkspace(env, { plan: 'agency' });
  });
  afterAll(async () => {
    await worker?.stop();
    await env.close();
  });

  it('is taken over a room after another as the room frees, not a room per watchdog tick', async () => {
    const api = postingCalls(env, ws);
    const { db } = env.services;
    const platforms = ['threads', 'threads', 'facebook'] as const;
    const accounts = [];
    for (const platform of platforms) accounts.push(await sandboxAccount(env, ws.workspaceId, platform));
    // Over two rooms' worth of reservations, past their time, of a worker that died before starting any.
    const backlog = 2 * LEAST_WAITING_ROOM + 10;
    const drafts = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: {
        targets: { accountIds: accounts.map((a) => a.id) },
        mediaIds: [],
        text: 'Backlog',
        when: 'draft',
        confirm: true,
      },
    });
    expect(drafts.status).toBe(201);
    const rows = await db('posts').whereIn(
      'id',
      drafts.body.posts.map((p: { id: string }) => p.id),
    );
    const past = new Date(Date.now() - 60_000).toISOString();
    const ids = Array.from({ length: backlog }, () => newId('pst'));
    await db.batchInsert(
      'posts',
      ids.map((id, i) => ({
        ...rows[i % rows.length],
        id,
        text: `Backlog ${i}`,
        status: 'queued',
        publish_at: past,
        due_at: past,
        attempt_id: `att_dead${i}`,
        attempt_worker: 'wkr_dead',
      })),
      50,
    );
    // Its watchdog ticks once, as it starts: what follows is taken by the passes that come again for want of room.
    worker = await startWorker(env.services, { watchEveryMs: 600_000 });
    const live = await until(
      async () => Number((await db('posts').whereIn('id', ids).where({ status: 'live' }).count({ n: '*' }))[0]!.n),
      (n) => n === backlog,
      20_000,
    );
    expect(live).toBe(backlog);
    let published = 0;
    for (const [i, a] of accounts.entries()) published += await api.published(platforms[i]!, a.externalId);
    expect(published).toBe(backlog);
  });
});

describe('a worker whose attempts wait on the network', () => {
  let env: Env;
  let ws: Seeded;
  let worker: RunningWorker;

  beforeAll(async () => {
    // Threads takes 3 s to process a video: long enough to see what the worker does meanwhile.
    env = await listeningHerald('sqlite', { sandboxProcessingMs: 3000 });
    ws = await seedWorkspace(env, { plan: 'agency' });
    worker = await startWorker(env.services, { concurrency: 1, watchEveryMs: 200 });
  });
  afterAll(async () => {
    await worker.stop();
    await env.close();
  });

  it('publishes another post while one waits for its video to be processed, with a single slot', async () => {
    const api = postingCalls(env, ws);
    const threads = await sandboxAccount(env, ws.workspaceId, 'threads');
    const facebook = await sandboxAccount(env, ws.workspaceId, 'facebook');
    const video = await upload(
      env,
      ws.writeKey,
      makeVideo(tempDir(), { seconds: 1, width: 540, height: 960, fps: 24 }),
      'video/mp4',
    );
    const created = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: {
        targets: { accountIds: [threads.id] },
        mediaIds: [video.id],
        text: 'Our autumn reel.',
        when: 'now',
        confirm: true,
      },
    });
    expect(created.status).toBe(201);
    const reel = created.body.posts[0].id;
    // The reel's attempt holds the only slot, then waits for Threads to process its video.
    await until(
      () => api.kinds(reel),
      (kinds) => kinds.includes('publishing'),
    );
    const text = await api.postNow(facebook.id, 'Autumn sale: 30% off everything until Sunday.');
    expect([(await api.settled(text)).status, (await api.settled(reel)).status]).toEqual(['live', 'live']);
    const liveAt = async (id: string) => {
      const { events } = (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body;
      return Date.parse(events.find((e: { kind: string }) => e.kind === 'live').at);
    };
    // The text post went out during the wait, not after it.
    expect(await liveAt(text)).toBeLessThan(await liveAt(reel));
  });
});
