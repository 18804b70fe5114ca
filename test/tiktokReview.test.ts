// A TikTok post through the worker on a clock the test controls: TikTok takes the video and reviews it
// for hours. The post is not failed meanwhile: it stays `queued`, its timeline notes the review once, its
// statusLine says it is in TikTok's review, and the worker asks TikTok again by itself; once TikTok names
// the post (hours later) it goes `live` with its address, from the same publish_id, sent once. A private
// post, which TikTok never names, goes `live` at the creator's profile, its timeline and statusLine saying
// TikTok shows it privately.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSandboxAccount, sandboxState } from '../networks/sandbox/state.ts';
import { startWorker, type RunningWorker } from '../worker/worker.ts';
import { call, seedWorkspace, type Seeded } from './support/harness.ts';
import { makeVideo, tempDir, upload } from './support/mediaFiles.ts';
import { manualClock } from './support/manualClock.ts';
import { listeningHerald, sandboxAccount, sandboxCount } from './support/network.ts';

const MINUTE = 60_000;

describe("a TikTok post in TikTok's review, on the worker's clock (SQLite)", () => {
  const clock = manualClock(Math.floor(Date.now() / MINUTE) * MINUTE);
  let env: Awaited<ReturnType<typeof listeningHerald>>;
  let ws: Seeded;
  let worker: RunningWorker;

  beforeAll(async () => {
    env = await listeningHerald('sqlite', { sandboxProcessingMs: 0 }, { clock });
    ws = await seedWorkspace(env, { plan: 'agency', tz: 'UTC' });
    worker = await startWorker(env.services, { watchEveryMs: 24 * 3600_000 });
  });
  afterAll(async () => {
    await worker.stop();
    await env.close();
  });

  const read = async (id: string) => (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
  const events = async (id: string): Promise<{ kind: string; message?: string; notes?: string[] }[]> =>
    (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events;

  /** Moves the clock a step at a time (the connector's polls sleep on it) until `done`, in real time. */
  async function stepUntil(stepMs: number, done: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error('the worker did not get there');
      clock.advance(stepMs);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** A video post to a new TikTok account named `name` on TikTok (the simulator reads its rules from it). */
  async function videoPost(name: string, privacyLevel: string, when: unknown) {
    const account = await sandboxAccount(env, ws.workspaceId, 'tiktok');
    await registerSandboxAccount(env.services.db, 'tiktok', { id: account.externalId, name, tokens: 'ok' });
    const video = await upload(
      env,
      ws.writeKey,
      makeVideo(tempDir(), { seconds: 3, width: 360, height: 640, fps: 25 }),
      'video/mp4',
    );
    const created = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: {
        targets: { accountIds: [account.id] },
        mediaIds: [video.id],
        text: 'Autumn drop',
        perPlatform: { tiktok: { privacyLevel } },
        when,
        confirm: true,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { account, id: created.body.posts[0].id as string };
  }

  it('stays queued in review with a note, then goes live with its address hours later', async () => {
    const due = DateTime.fromMillis(clock.now() + 5 * MINUTE, { zone: 'utc' }).toFormat("yyyy-MM-dd'T'HH:mm");
    // "Review" in the name: the simulator's moderation takes two hours.
    const { account, id } = await videoPost('Review Shop', 'PUBLIC_TO_EVERYONE', { publishAt: due, timezone: 'UTC' });

    await stepUntil(30_000, async () => (await events(id)).some((e) => e.message?.includes('reviewing')));
    const inReview = await read(id);
    expect(inReview.status).toBe('queued');
    expect(inReview.statusLine).toMatch(
      /^Queued\. TikTok · Acme tiktok \w+ · .+\. In TikTok's review since .+; it goes live once TikTok publishes it\.$/,
    );
    expect(inReview.nextAttemptAt).toBeUndefined();
    expect((await events(id)).map((e) => e.kind)).toEqual(['created', 'queued', 'publishing', 'publishing']);
    // It is on TikTok already: cancelling it in Herald would not take it back.
    const cancel = await call(env, 'post', `/v1/posts/${id}/cancel`, { key: ws.writeKey, body: { confirm: true } });
    expect(cancel.status).toBe(409);
    expect(cancel.body.code).toBe('invalid_state');
    expect(cancel.body.message).toContain('in its review; cancelling it in Herald would not take it back');

    // Still in review an hour later: asked again, not failed, and the note is not repeated.
    await stepUntil(5 * MINUTE, async () => clock.now() - Date.parse(inReview.publishAt) > 60 * MINUTE);
    // (The attempt polls on this clock: it is moved on until no attempt holds the post.)
    const held = async () => Boolean((await env.services.db('posts').where({ id }).first('attempt_id')).attempt_id);
    await stepUntil(30_000, async () => !(await held()));
    expect((await read(id)).status).toBe('queued');
    expect((await events(id)).filter((e) => e.kind === 'publishing')).toHaveLength(2);

    // TikTok's review ends: the next check finds the post named.
    const state = sandboxState(env.services.db, 'tiktok');
    const [publish] = await state.list<Record<string, unknown>>(account.externalId, 'publish');
    await state.update(publish!.id, { data: { ...publish!.data, reviewUntilMs: Date.now() } });
    await stepUntil(5 * MINUTE, async () => (await read(id)).status !== 'queued');
    const live = await read(id);
    expect(live.status).toBe('live');
    expect(live.externalUrl).toMatch(new RegExp(`^${env.base}/sandbox/tiktok/@reviewshop/video/\\d{19}$`));
    expect(live.statusLine).toMatch(/^Live\. TikTok · /);
    expect((await events(id)).map((e) => e.kind)).toEqual(['created', 'queued', 'publishing', 'publishing', 'live']);
    expect(await sandboxCount(env, 'tiktok', account, 'publish')).toBe(1);
    expect(await sandboxCount(env, 'tiktok', account, 'post')).toBe(1);
  }, 120_000);

  it("a private post TikTok never names is live at the creator's profile, saying it is private", async () => {
    const { account, id } = await videoPost('Private Shop', 'SELF_ONLY', 'now');
    await stepUntil(30_000, async () => (await read(id)).status !== 'queued');
    const live = await read(id);
    const shown =
      "TikTok shows it privately (visible to: only the creator) and gives no link to it; it is on the creator's " +
      'TikTok profile.';
    expect(live.status).toBe('live');
    expect(live.externalUrl).toBe(`${env.base}/sandbox/tiktok/@privateshop`);
    expect(live.statusLine).toMatch(/^Live\. TikTok · Acme tiktok \w+ · .+\. TikTok shows it privately /);
    expect(live.statusLine.endsWith(shown)).toBe(true);
    const timeline = await events(id);
    expect(timeline.map((e) => e.kind)).toEqual(['created', 'queued', 'publishing', 'live']);
    expect(timeline.at(-1)!.notes).toEqual([shown]);
    expect(await sandboxCount(env, 'tiktok', account, 'post')).toBe(1);
  }, 120_000);
});
