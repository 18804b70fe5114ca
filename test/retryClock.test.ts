// Worker retries on a clock the test controls: a temporary failure is retried after 1, 5 and 15
// minutes (the default WORKER_RETRY_DELAYS_SECONDS, 60,300,900), not a millisecond sooner, each with
// a `retriedByWorker` event, then the post fails with the network's words and the hint. The clock
// stands still unless moved, so every time asserted is exact. SQLite: its job queue reads the clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { formatInZone } from '../domain/when.ts';
import type { Platform } from '../networks/rules.ts';
import { PAGE_LIMIT_REGAIN_MINUTES } from '../networks/sandbox/graphFaults.ts';
import { queueFailure, type Scenario } from '../networks/sandbox/state.ts';
import { startWorker, type RunningWorker } from '../worker/worker.ts';
import { call, seedWorkspace, type Seeded } from './support/harness.ts';
import { makeVideo, tempDir, upload } from './support/mediaFiles.ts';
import { manualClock } from './support/manualClock.ts';
import { listeningHerald, sandboxAccount } from './support/network.ts';
import { until } from './support/waiting.ts';

type Env = Awaited<ReturnType<typeof listeningHerald>>;
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

interface PostEvent {
  kind: string;
  at: string;
  publishAt?: string;
  error?: { code: string; message: string; hint: string };
}

describe('worker retries on a controllable clock (SQLite, default delays)', () => {
  const clock = manualClock(Date.now());
  let env: Env;
  let ws: Seeded;
  let worker: RunningWorker;

  beforeAll(async () => {
    env = await listeningHerald('sqlite', {}, { clock });
    ws = await seedWorkspace(env, { plan: 'agency' });
    // The watchdog runs only when a test calls worker.watch(), at the moments chosen below.
    worker = await startWorker(env.services, { watchEveryMs: 24 * 3600_000 });
  });
  afterAll(async () => {
    await worker.stop();
    await env.close();
  });

  /**
   * A threads post due five minutes after it is made, whose next `failures` publish calls answer the
   * network's server error (as `herald sandbox fail --scenario unavailable --times N` queues them). Each
   * post starts its own timeline: the clock goes back to a whole minute, and nothing is due until the
   * test moves it.
   */
  type Failing = { platform?: Platform; scenario?: Scenario; body?: Record<string, unknown> };
  async function failingPost(failures: number, opts: Failing = {}) {
    const { platform = 'threads', scenario = 'unavailable' } = opts;
    const madeMs = Math.floor(Date.now() / MINUTE) * MINUTE;
    clock.set(madeMs);
    const account = await sandboxAccount(env, ws.workspaceId, platform);
    await queueFailure(env.services.db, { network: platform, account: account.externalId, scenario, times: failures });
    const local = DateTime.fromMillis(madeMs + 5 * MINUTE, { zone: 'utc' }).toFormat("yyyy-MM-dd'T'HH:mm");
    const when = { publishAt: local, timezone: 'UTC' };
    const res = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: {
        targets: { accountIds: [account.id] },
        mediaIds: [],
        text: "Autumn sale, on the worker's own time.",
        when,
        confirm: true,
        ...opts.body,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id: string = res.body.posts[0].id;
    const post = await read(id);
    /** Failures the simulator still holds: one fewer for every publish call that reached it. */
    const failuresLeft = async () =>
      Number(
        (
          await env.services
            .db('sandbox_failures')
            .where({ network: platform, account: account.externalId })
            .first('remaining')
        ).remaining,
      );
    return { id, dueMs: Date.parse(post.publishAt), account, failuresLeft };
  }

  const read = async (id: string) => (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
  const events = async (id: string): Promise<PostEvent[]> =>
    (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events;
  const retries = async (id: string) => (await events(id)).filter((e) => e.kind === 'retriedByWorker');

  /** Moves the clock and waits until the worker has acted on it (`done`), in real time. */
  async function moveTo(ms: number, done: () => Promise<boolean>): Promise<void> {
    clock.set(ms);
    await until(done, Boolean, 10_000);
  }

  /**
   * Moves the clock to 1 ms before `dueMs`: the job queue hands the post over and the worker reserves
   * it ahead of its time (the event waited for), yet once the worker is idle nothing has reached the
   * network and nothing has changed, a watchdog pass included.
   */
  async function nothingBefore(post: Awaited<ReturnType<typeof failingPost>>, dueMs: number): Promise<void> {
    const before = {
      status: (await read(post.id)).status,
      events: await events(post.id),
      failuresLeft: await post.failuresLeft(),
    };
    const reserved = async () =>
      Boolean((await env.services.db('posts').where({ id: post.id }).first('attempt_id')).attempt_id);
    await moveTo(dueMs - 1, reserved);
    await worker.idle();
    await worker.watch();
    await worker.idle();
    expect(
      { status: (await read(post.id)).status, events: await events(post.id), failuresLeft: await post.failuresLeft() },
      `at ${iso(dueMs - 1)}`,
    ).toEqual(before);
    expect(before.status).toBe('queued');
  }

  /** Moves the clock to `dueMs` and waits for the attempt it starts to end in retry number `n`, due `delayMs` later. */
  async function retriedAt(
    post: Awaited<ReturnType<typeof failingPost>>,
    dueMs: number,
    n: number,
    delayMs: number,
  ): Promise<number> {
    await moveTo(dueMs, async () => (await retries(post.id)).length === n);
    const retry = (await retries(post.id))[n - 1]!;
    expect(retry.publishAt).toBe(iso(dueMs + delayMs));
    expect(retry.error).toMatchObject({
      code: 'threads_unavailable',
      message: expect.stringContaining('Threads answered'),
    });
    await expectWaitingUntil(post.id, dueMs + delayMs);
    return dueMs + delayMs;
  }

  /** The post's fields and statusLine say when the worker tries again. */
  async function expectWaitingUntil(id: string, nextMs: number): Promise<void> {
    const post = await read(id);
    expect(post).toMatchObject({ status: 'queued', nextAttemptAt: iso(nextMs) });
    const next = formatInZone(DateTime.fromMillis(nextMs), 'Europe/Berlin');
    expect(post.statusLine.startsWith('Queued. ')).toBe(true);
    expect(post.statusLine.endsWith(`. Next attempt ${next}, after a temporary failure.`)).toBe(true);
  }

  it('uses the default delays: 1, 5 and 15 minutes', () => {
    expect(env.config.workerRetryDelaysMs).toEqual([MINUTE, 5 * MINUTE, 15 * MINUTE]);
  });

  it("retries 1, 5 and 15 minutes after each failure, then fails with the network's words and a hint", async () => {
    const post = await failingPost(4);
    await nothingBefore(post, post.dueMs);
    let due = await retriedAt(post, post.dueMs, 1, MINUTE);
    expect(await post.failuresLeft()).toBe(3);
    await nothingBefore(post, due);
    due = await retriedAt(post, due, 2, 5 * MINUTE);
    await nothingBefore(post, due);
    due = await retriedAt(post, due, 3, 15 * MINUTE);
    await nothingBefore(post, due);

    await moveTo(due, async () => (await read(post.id)).status !== 'queued');
    const failed = await read(post.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({
      code: 'threads_unavailable',
      message: 'Threads answered: "An unexpected error has occurred. Please retry your request later. (code 2)"',
      hint: 'Threads had a server error; Herald retried after 1, 5 and 15 minutes. Retry the post later.',
      networkMessage: 'An unexpected error has occurred. Please retry your request later. (code 2)',
    });
    expect(await post.failuresLeft()).toBe(0);
    expect((await events(post.id)).map((e) => e.kind).filter((k) => k === 'retriedByWorker' || k === 'failed')).toEqual(
      ['retriedByWorker', 'retriedByWorker', 'retriedByWorker', 'failed'],
    );
    expect((await retries(post.id)).map((e) => e.publishAt)).toEqual(
      [post.dueMs + MINUTE, post.dueMs + 6 * MINUTE, post.dueMs + 21 * MINUTE].map(iso),
    );

    // A day later on the clock, the watchdog finds nothing overdue: a failed post stays failed.
    clock.set(due + 24 * 3600_000);
    await worker.watch();
    await worker.idle();
    expect(await env.services.jobs.postsWithoutJob([post.id], new Date(clock.now()).toISOString())).toEqual([post.id]);
    expect((await read(post.id)).status).toBe('failed');
    expect((await events(post.id)).at(-1)!.kind).toBe('failed');
  });

  it('goes live when the third retry, 15 minutes after the second, succeeds', async () => {
    const post = await failingPost(3);
    await nothingBefore(post, post.dueMs);
    let due = await retriedAt(post, post.dueMs, 1, MINUTE);
    due = await retriedAt(post, due, 2, 5 * MINUTE);
    due = await retriedAt(post, due, 3, 15 * MINUTE);
    await nothingBefore(post, due);
    await moveTo(due, async () => (await read(post.id)).status !== 'queued');
    // The worker's writes carry its clock's time: the retries at each due time, live at the last one.
    expect(await read(post.id)).toMatchObject({
      status: 'live',
      externalUrl: expect.stringMatching(/^http/),
      updatedAt: iso(due),
    });
    const ends = (await events(post.id)).filter((e) => e.kind === 'retriedByWorker' || e.kind === 'live');
    expect(ends.map((e) => [e.kind, e.at])).toEqual([
      ['retriedByWorker', iso(post.dueMs)],
      ['retriedByWorker', iso(post.dueMs + MINUTE)],
      ['retriedByWorker', iso(post.dueMs + 6 * MINUTE)],
      ['live', iso(due)],
    ]);
    const published = await env.services
      .db('sandbox_items')
      .where({ network: 'threads', account: post.account.externalId, kind: 'post' })
      .count({ n: '*' })
      .first();
    expect(Number(published?.n)).toBe(1);
  });

  it('retries a rate limit once the window the network names has passed, not at 1 minute', async () => {
    const post = await failingPost(1, {
      platform: 'facebook',
      scenario: 'rate_limited',
      body: { perPlatform: { facebook: { contentType: 'text' } } },
    });
    await nothingBefore(post, post.dueMs);
    await moveTo(post.dueMs, async () => (await retries(post.id)).length === 1);
    const window = PAGE_LIMIT_REGAIN_MINUTES * MINUTE;
    expect((await retries(post.id))[0]).toMatchObject({
      publishAt: iso(post.dueMs + window),
      error: { code: 'facebook_rate_limited' },
    });
    await expectWaitingUntil(post.id, post.dueMs + window);
    await nothingBefore(post, post.dueMs + window);
    await moveTo(post.dueMs + window, async () => (await read(post.id)).status !== 'queued');
    const live = await read(post.id);
    expect(live).toMatchObject({ status: 'live' });
    expect(live.nextAttemptAt).toBeUndefined();
  });

  it('waits for midnight Pacific time after youtube_quota_exceeded, then publishes', async () => {
    const file = makeVideo(tempDir(), { seconds: 1, width: 320, height: 240, fps: 10 });
    const video = await upload(env, ws.writeKey, file, 'video/mp4');
    const post = await failingPost(1, {
      platform: 'youtube',
      scenario: 'quota_exceeded',
      body: { mediaIds: [video.id], title: 'Autumn' },
    });
    await moveTo(post.dueMs, async () => (await retries(post.id)).length === 1);
    const reset = DateTime.fromMillis(post.dueMs, { zone: 'America/Los_Angeles' }).plus({ days: 1 }).startOf('day');
    expect(reset.toFormat('HH:mm:ss')).toBe('00:00:00');
    expect((await retries(post.id))[0]).toMatchObject({
      publishAt: iso(reset.toMillis()),
      error: { code: 'youtube_quota_exceeded' },
    });
    await expectWaitingUntil(post.id, reset.toMillis());
    await nothingBefore(post, reset.toMillis());
    await moveTo(reset.toMillis(), async () => (await read(post.id)).status !== 'queued');
    expect(await read(post.id)).toMatchObject({ status: 'live' });
  });
});
