// Webhook delivery against a real receiver on a loopback port that verifies every signature with the
// standardwebhooks package: a post going live arrives signed with the post and its statusLine; a receiver failing
// 30% of the time (seeded) still gets every event, repeats carrying the same webhook-id; a rotation sends two
// signatures that both verify; the retry schedule runs by the manual clock, and after the last attempt the webhook is
// disabled and its owner and administrators are mailed; two dispatchers never create a delivery twice; a workspace
// whose receivers hold every request open delays no other workspace's delivery; an event of a time the webhook was
// disabled is never delivered. Both databases.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents } from '../db/events.ts';
import type { Mail } from '../runtime/mailer.ts';
import { createServices } from '../runtime/services.ts';
import {
  claimDueDeliveries,
  dispatchWebhookEvents,
  PER_WORKSPACE,
  sendDeliveries,
  startWebhookDelivery,
  WEBHOOK_LEASE_MS,
  WEBHOOK_RETRY_DELAYS_MS,
} from '../worker/webhookDelivery.ts';
import { startWorker, type RunningWorker } from '../worker/worker.ts';
import { call, DATABASES, seedWorkspace, type Seeded } from './support/harness.ts';
import { manualClock, type ManualClock } from './support/manualClock.ts';
import { listeningHerald, sandboxAccount } from './support/network.ts';
import { addPerson } from './support/people.ts';
import { seeded } from './support/seeded.ts';
import { until } from './support/waiting.ts';
import { webhookReceiver, type WebhookReceiver } from './support/webhookReceiver.ts';

describe.each(DATABASES)('webhook delivery on %s', (kind) => {
  let env: Awaited<ReturnType<typeof listeningHerald>>;
  let clock: ManualClock;
  let ws: Seeded;
  let worker: RunningWorker;
  let rx: WebhookReceiver;
  const mails: Mail[] = [];

  beforeAll(async () => {
    clock = manualClock(Date.now());
    env = await listeningHerald(
      kind,
      { webhooks: { allowHosts: ['127.0.0.1'], retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS } },
      { clock },
    );
    env.services.mailer = { via: 'smtp', send: async (mail) => void mails.push(mail) };
    ws = await seedWorkspace(env, { plan: 'studio' });
    // The timer effectively never fires: each test runs passes itself.
    worker = await startWorker(env.services, { webhookEveryMs: 3600_000 });
    rx = await webhookReceiver();
  });
  afterEach(() => {
    expect(rx.failures).toEqual([]);
  });
  afterAll(async () => {
    await worker.stop();
    await rx.close();
    await env.close();
  });

  async function subscribe(events: string[]) {
    const res = await call(env, 'post', '/v1/webhooks', { key: ws.writeKey, body: { url: rx.url, events } });
    expect(res.status).toBe(201);
    rx.state.secrets = [res.body.secret];
    return res.body as { id: string; secret: string };
  }
  const deliveries = async (id: string) =>
    (await call(env, 'get', `/v1/webhooks/${id}/deliveries?limit=100`, { key: ws.readKey })).body.deliveries;
  const mediaEvents = (n: number) =>
    recordEvents(
      env.services.db,
      Array.from({ length: n }, (_, i) => ({
        workspaceId: ws.workspaceId,
        type: 'media.failed' as const,
        objectId: `med_flaky${i}`,
      })),
      new Date(clock.now()).toISOString(),
    );

  it('delivers a post going live, signed, with the post and its statusLine', async () => {
    const hook = await subscribe(['post.live', 'post.failed']);
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const created = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: { targets: { accountIds: [account.id] }, mediaIds: [], text: 'Hooked', when: 'now', confirm: true },
    });
    const postId = created.body.posts[0].id;
    const live = await until(
      async () => {
        await worker.webhooks.pass();
        return rx.got.filter((r) => r.body.data.objectId === postId);
      },
      (got) => got.length > 0,
    );
    const post = (await call(env, 'get', `/v1/posts/${postId}`, { key: ws.readKey })).body;
    expect(live.map((r) => r.body.type)).toEqual(['post.live']);
    expect(live[0]!.body.data.post).toEqual(post);
    expect(live[0]!.body.data.post.statusLine).toEqual(expect.any(String));
    const log = await deliveries(hook.id);
    expect(log[0]).toMatchObject({ type: 'post.live', status: 'delivered', attempts: 1, responseStatus: 200 });
    expect(log[0].eventId).toBe(live[0]!.id);
    await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: false } });
  });

  it('gets every event through a receiver failing 30% of the time, repeats with the same webhook-id', async () => {
    rx.got.length = 0;
    const earlier = new Set(rx.attempts);
    const hook = await subscribe(['media.failed']);
    const random = seeded(26);
    rx.state.answer = () => (random.next() < 0.3 ? 503 : 200);
    await mediaEvents(40);
    for (let round = 0; round < 12; round++) {
      await worker.webhooks.pass();
      clock.advance(WEBHOOK_RETRY_DELAYS_MS[Math.min(round, 2)]!);
    }
    rx.state.answer = () => 200;
    const log = await deliveries(hook.id);
    expect(log.length).toBe(40);
    expect(log.every((d: { status: string }) => d.status === 'delivered')).toBe(true);
    expect(log.some((d: { attempts: number }) => d.attempts > 1)).toBe(true);
    const ids = new Set(log.map((d: { eventId: string }) => d.eventId));
    expect(new Set(rx.got.map((r) => r.id))).toEqual(ids);
    // Failed attempts were repeated with the same webhook-id, never a new one.
    expect(rx.attempts.filter((id) => ids.has(id)).length).toBeGreaterThan(40);
    expect(rx.attempts.filter((id) => id.startsWith('wev_') && !ids.has(id) && !earlier.has(id))).toEqual([]);
    // A redelivery repeats the same webhook-id.
    const first = log[0];
    await call(env, 'post', `/v1/webhooks/${hook.id}/deliveries/${first.id}/redeliver`, { key: ws.writeKey });
    await worker.webhooks.pass();
    expect(rx.got.filter((r) => r.id === first.eventId).length).toBe(2);
    await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: false } });
  });

  it('signs with every secret of the last 24 hours after rotations, then with the new one', async () => {
    rx.got.length = 0;
    const hook = await subscribe(['media.failed']);
    const rotated = await call(env, 'post', `/v1/webhooks/${hook.id}/rotate-secret`, { key: ws.writeKey });
    rx.state.secrets = [hook.secret, rotated.body.secret];
    await call(env, 'post', `/v1/webhooks/${hook.id}/test`, { key: ws.writeKey });
    await worker.webhooks.pass();
    expect(rx.got.map((r) => [r.body.type, r.signatures.length])).toEqual([['webhook.test', 2]]);

    // A second rotation the same day: a receiver still on the first secret keeps verifying.
    clock.advance(3600_000);
    const again = await call(env, 'post', `/v1/webhooks/${hook.id}/rotate-secret`, { key: ws.writeKey });
    rx.state.secrets = [hook.secret, rotated.body.secret, again.body.secret];
    await call(env, 'post', `/v1/webhooks/${hook.id}/test`, { key: ws.writeKey });
    await worker.webhooks.pass();
    expect(rx.got.map((r) => r.signatures.length)).toEqual([2, 3]);

    // Each retired secret stops a day after its own rotation.
    clock.advance(23 * 3600_000 + 1000);
    rx.state.secrets = [rotated.body.secret, again.body.secret];
    await call(env, 'post', `/v1/webhooks/${hook.id}/test`, { key: ws.writeKey });
    await worker.webhooks.pass();
    clock.advance(3600_000);
    rx.state.secrets = [again.body.secret];
    await call(env, 'post', `/v1/webhooks/${hook.id}/test`, { key: ws.writeKey });
    await worker.webhooks.pass();
    expect(rx.got.map((r) => r.signatures.length)).toEqual([2, 3, 2, 1]);
    await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: false } });
  });

  it('retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then disables the webhook and mails', async () => {
    const admin = await addPerson(env, ws.workspaceId, 'administrator');
    const member = await addPerson(env, ws.workspaceId, 'member');
    const hook = await subscribe(['post.live']);
    rx.state.answer = () => 500;
    const test = (await call(env, 'post', `/v1/webhooks/${hook.id}/test`, { key: ws.writeKey })).body;
    const read = async () => (await deliveries(hook.id)).find((d: { id: string }) => d.id === test.id);
    await worker.webhooks.pass();
    for (const [i, delay] of WEBHOOK_RETRY_DELAYS_MS.entries()) {
      const d = await read();
      expect(d).toMatchObject({ status: 'pending', attempts: i + 1, responseStatus: 500 });
      expect(d.responseBody).toBe('x'.repeat(1024));
      expect(Date.parse(d.nextAttemptAt) - clock.now()).toBe(delay);
      // Not a moment early.
      clock.advance(delay - 1);
      await worker.webhooks.pass();
      expect((await read()).attempts).toBe(i + 1);
      clock.advance(1);
      await worker.webhooks.pass();
    }
    expect(await read()).toMatchObject({ status: 'failed', attempts: 8, nextAttemptAt: null });
    const disabled = (await call(env, 'get', `/v1/webhooks/${hook.id}`, { key: ws.readKey })).body;
    expect(disabled).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('enable') });
    const to = mails.map((m) => m.to).sort();
    expect(to).toContain(admin.email);
    expect(to).not.toContain(member.email);
    expect(to.length).toBe(2);
    expect(mails[0]!.text).toContain(hook.id);

    // Enabled again, it sends what is due; a redelivery goes on counting, and the earlier attempts stay in the log.
    rx.state.answer = () => 200;
    await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: true } });
    await call(env, 'post', `/v1/webhooks/${hook.id}/deliveries/${test.id}/redeliver`, { key: ws.writeKey });
    await worker.webhooks.pass();
    const redelivered = await read();
    expect(redelivered).toMatchObject({ status: 'delivered', attempts: 9, responseStatus: 200 });
    expect(redelivered.attemptLog.map((a: { attempt: number; responseStatus: number }) => a.responseStatus)).toEqual([
      ...Array(8).fill(500),
      200,
    ]);
    expect(redelivered.attemptLog.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // A redelivery that fails is retried on the schedule again, not given up at once.
    rx.state.answer = () => 500;
    await call(env, 'post', `/v1/webhooks/${hook.id}/deliveries/${test.id}/redeliver`, { key: ws.writeKey });
    await worker.webhooks.pass();
    expect(await read()).toMatchObject({ status: 'pending', attempts: 10 });
    rx.state.answer = () => 200;
    await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: false } });
  });

  it('checks the address at each send: a name resolving to loopback is refused, no redirect followed', async () => {
    // Refused when created (WEBHOOK_ALLOW_HOSTS names 127.0.0.1 only, not localhost)...
    const port = new URL(rx.url).port;
    const named = await call(env, 'post', '/v1/webhooks', {
      key: ws.writeKey,
      body: { url: `https://localhost:${port}/hook`, events: ['post.live'] },
    });
    expect([named.status, named.body.code]).toEqual([400, 'url_not_allowed']);
    // ...and at each send, for a name whose DNS changed since (here: written to the row), where the log says the host
    // is not public and never the address it resolved to.
    const changed = await subscribe(['post.live']);
    await env.services
      .db('webhooks')
      .where({ id: changed.id })
      .update({ url: `https://localhost:${port}/hook` });
    const before = rx.attempts.length;
    const test = (await call(env, 'post', `/v1/webhooks/${changed.id}/test`, { key: ws.writeKey })).body;
    await worker.webhooks.pass();
    const refused = (await deliveries(changed.id)).find((d: { id: string }) => d.id === test.id);
    expect(refused).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
    expect(refused.responseBody).toMatch(/localhost resolves to a non-public address/);
    // The log says why as a code, beside the sentence.
    expect(refused.attemptLog.at(-1)).toMatchObject({ responseStatus: null, noAnswer: 'address_not_public' });
    expect(JSON.stringify(refused)).not.toMatch(/127\.0\.0\.1|::1|loopback/);
    expect(rx.attempts.length).toBe(before);
    await call(env, 'patch', `/v1/webhooks/${changed.id}`, { key: ws.writeKey, body: { enabled: false } });

    const hook = await subscribe(['post.live']);
    rx.state.answer = () => 302;
    const moved = (await call(env, 'post', `/v1/webhooks/${hook.id}/test`, { key: ws.writeKey })).body;
    await worker.webhooks.pass();
    rx.state.answer = () => 200;
    const log = (await deliveries(hook.id)).find((d: { id: string }) => d.id === moved.id);
    expect(log).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 302 });
    expect(rx.attempts.filter((id) => id === moved.eventId).length).toBe(1);
    await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: false } });
  });

  it('keeps the delivery log 30 days: the retention sweep deletes older deliveries', async () => {
    const hook = await subscribe(['post.live']);
    const test = (await call(env, 'post', `/v1/webhooks/${hook.id}/test`, { key: ws.writeKey })).body;
    const created = Date.parse(test.createdAt);
    await env.services.media.sweep(new Date(created + 29 * 86400_000));
    expect((await deliveries(hook.id)).map((d: { id: string }) => d.id)).toEqual([test.id]);
    await env.services.media.sweep(new Date(created + 30 * 86400_000 + 1000));
    expect(await deliveries(hook.id)).toEqual([]);
    await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: false } });
  });

  it('lets only the holder of the lease send and record: a sender whose lease ran out does neither', async () => {
    const hook = await subscribe(['media.failed']);
    await mediaEvents(1);
    await dispatchWebhookEvents(env.services.db);
    const ours = async () => {
      const claims = await claimDueDeliveries(env.services.db, clock.now());
      const [delivery] = await env.services.db('webhook_deliveries').where({ webhook_id: hook.id });
      return claims.find((c) => c.id === delivery.id)!;
    };
    // A stalled process claimed it; its lease ran out and another process claimed and delivered it.
    const stalled = await ours();
    clock.advance(WEBHOOK_LEASE_MS + 1);
    const holder = await ours();
    await sendDeliveries(env.services, [holder]);
    const before = rx.attempts.length;
    rx.state.answer = () => 503;
    await sendDeliveries(env.services, [stalled]);
    rx.state.answer = () => 200;
    expect(rx.attempts.length).toBe(before);
    const [log] = await deliveries(hook.id);
    expect(log).toMatchObject({ status: 'delivered', attempts: 1, responseStatus: 200 });
    await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: false } });
  });

  it.runIf(kind === 'postgres')('sends each delivery once when two processes deliver at once', async () => {
    const hook = await subscribe(['media.failed']);
    const before = rx.attempts.length;
    // A second process on the same database: services of its own, its own delivery loop.
    const second = createServices(env.config, { clock });
    second.mailer = env.services.mailer;
    const theirs = startWebhookDelivery(second, 3600_000);
    try {
      await mediaEvents(60);
      await Promise.all([worker.webhooks.pass(), theirs.pass(), worker.webhooks.pass(), theirs.pass()]);
      await Promise.all([worker.webhooks.pass(), theirs.pass()]);
    } finally {
      await theirs.stop();
      await second.close();
    }
    const log = await deliveries(hook.id);
    expect(log.length).toBe(60);
    expect(log.every((d: { status: string; attempts: number }) => d.status === 'delivered' && d.attempts === 1)).toBe(
      true,
    );
    const sent = rx.attempts.slice(before);
    expect(sent.length).toBe(60);
    expect(new Set(sent).size).toBe(60);
    await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: false } });
  });

  it('sends nothing for a workspace whose plan lost webhooks, and its events are not held back for later', async () => {
    const hook = await subscribe(['media.failed']);
    const workspaces = () => env.services.db('workspaces').where({ id: ws.workspaceId });
    await workspaces().update({ plan: 'creator' });
    try {
      await mediaEvents(2);
      await worker.webhooks.pass();
    } finally {
      await workspaces().update({ plan: 'studio' });
    }
    await worker.webhooks.pass();
    expect(await env.services.db('webhook_deliveries').where({ webhook_id: hook.id })).toEqual([]);
    await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: false } });
  });

  it('never creates a delivery twice when dispatchers run at once', async () => {
    const hook = await subscribe(['media.failed']);
    await mediaEvents(30);
    await Promise.all([1, 2, 3].map(() => dispatchWebhookEvents(env.services.db, 7)));
    while ((await dispatchWebhookEvents(env.services.db, 7)) > 0);
    const rows = await env.services.db('webhook_deliveries').where({ webhook_id: hook.id });
    expect(rows.length).toBe(30);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(30);
    await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: false } });
  });

  it("sends a healthy workspace's delivery while another's receivers hold every request open", async () => {
    // Workspace E: 20 webhooks to a receiver that reads each request and answers none (until released), then 10
    // events: 200 deliveries, all due before the healthy one.
    const tarpit = await webhookReceiver();
    let release: () => void = () => undefined;
    const held = new Promise<number>((resolve) => {
      release = () => resolve(200);
    });
    tarpit.state.answer = () => held;
    const slow = await seedWorkspace(env, { plan: 'studio' });
    for (let i = 0; i < 20; i++) {
      const body = { url: `${tarpit.url}/${i}`, events: ['media.failed'] };
      expect((await call(env, 'post', '/v1/webhooks', { key: slow.writeKey, body })).status).toBe(201);
    }
    const at = () => new Date(clock.now()).toISOString();
    const slowEvents = Array.from({ length: 10 }, (_, i) => ({
      workspaceId: slow.workspaceId,
      type: 'media.failed' as const,
      objectId: `med_tarpit${i}`,
    }));
    await recordEvents(env.services.db, slowEvents, at());
    const stalled = worker.webhooks.pass();
    try {
      await until(
        async () => tarpit.state.open,
        (open) => open >= PER_WORKSPACE,
      );
      // The healthy workspace's event happens while E's sends hang: dispatched and sent all the same.
      clock.advance(1);
      rx.got.length = 0;
      const hook = await subscribe(['media.failed']);
      await recordEvents(
        env.services.db,
        [{ workspaceId: ws.workspaceId, type: 'media.failed', objectId: 'med_healthy' }],
        at(),
      );
      const healthy = worker.webhooks.pass();
      const got = await until(
        async () => ({ got: rx.got.length, open: tarpit.state.open, answered: tarpit.got.length }),
        (seen) => seen.got > 0,
      );
      // Causality, not timing: it arrived while every one of E's requests was still held open, none answered, and
      // E had no more than its share in flight.
      expect(got).toEqual({ got: 1, open: PER_WORKSPACE, answered: 0 });
      expect(rx.got[0]!.body.data.objectId).toBe('med_healthy');
      release();
      await Promise.all([stalled, healthy]);
      await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: false } });
    } finally {
      release();
      await stalled;
    }
    // E's deliveries all go out once its receiver answers: none lost.
    await worker.webhooks.pass();
    const theirs = await env.services.db('webhook_deliveries').where({ workspace_id: slow.workspaceId });
    expect(theirs.length).toBe(200);
    expect(theirs.filter((d) => d.status === 'delivered').length).toBe(200);
    await tarpit.close();
  });

  it('never delivers an event of a time the webhook was disabled, however late dispatch runs', async () => {
    const hook = await subscribe(['media.failed']);
    const event = (objectId: string) =>
      recordEvents(
        env.services.db,
        [{ workspaceId: ws.workspaceId, type: 'media.failed', objectId }],
        new Date(clock.now()).toISOString(),
      );
    const enable = async (enabled: boolean) => {
      clock.advance(1000);
      await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled } });
      clock.advance(1000);
    };
    rx.got.length = 0;
    // Nothing is dispatched until the end: the dispatcher lags behind all of it.
    await event('med_before');
    await enable(false);
    await event('med_while_off');
    await enable(true);
    await event('med_after');
    await worker.webhooks.pass();
    expect(rx.got.map((r) => r.body.data.objectId).sort()).toEqual(['med_after', 'med_before']);

    // An event of a time it was on, dispatched only once it is off, waits for it to be on again: never lost.
    await event('med_last_on');
    await enable(false);
    await worker.webhooks.pass();
    expect(rx.got.length).toBe(2);
    await enable(true);
    await worker.webhooks.pass();
    expect(rx.got.map((r) => r.body.data.objectId).sort()).toEqual(['med_after', 'med_before', 'med_last_on']);
    await call(env, 'patch', `/v1/webhooks/${hook.id}`, { key: ws.writeKey, body: { enabled: false } });
  });
});
