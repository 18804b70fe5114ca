// The posting queue: accounts' weekly posting times, and `when: "queue"` giving each post its account's
// next free one, across clock changes and when many posts are queued at once, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { freeTimes, type Slot } from '../domain/postingQueue.ts';
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
import { addPerson, asPerson, signedIn } from './support/people.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const at = (text: string) => Date.parse(text);
const every = (time: string): Slot[] =>
  (['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const).map((day) => ({ day, time }));

describe('the next free posting times', () => {
  it('gives a week of daily times across the spring change in Europe/Berlin, a skipped time moved on', () => {
    const slots = [...every('09:00'), { day: 'sun' as const, time: '02:30' }];
    const week = freeTimes(slots, 'Europe/Berlin', at('2026-03-26T07:00:00Z'), new Set(), 8).map(iso);
    expect(week).toEqual([
      '2026-03-26T08:00:00.000Z', // Thu 09:00 CET
      '2026-03-27T08:00:00.000Z',
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T01:00:00.000Z', // Sun 02:30 does not exist: 03:00 CEST
      '2026-03-29T07:00:00.000Z', // Sun 09:00 CEST
      '2026-03-30T07:00:00.000Z',
      '2026-03-31T07:00:00.000Z',
      '2026-04-01T07:00:00.000Z',
    ]);
  });

  it('takes a repeated time once, at its earlier instant, in the autumn in Europe/Berlin', () => {
    const slots: Slot[] = [{ day: 'sun', time: '02:30' }];
    const times = freeTimes(slots, 'Europe/Berlin', at('2026-10-20T00:00:00Z'), new Set(), 2).map(iso);
    expect(times).toEqual(['2026-10-25T00:30:00.000Z', '2026-11-01T01:30:00.000Z']);
  });

  it('handles America/Santiago, whose clocks change at midnight', () => {
    // 5 April 2026: the clocks go back at midnight, so Saturday 23:30 occurs twice; 6 September: midnight is skipped.
    const april = freeTimes(
      [{ day: 'sat', time: '23:30' }],
      'America/Santiago',
      at('2026-04-01T00:00:00Z'),
      new Set(),
      2,
    );
    expect(april.map(iso)).toEqual(['2026-04-05T02:30:00.000Z', '2026-04-12T03:30:00.000Z']);
    const september = freeTimes(every('00:30'), 'America/Santiago', at('2026-09-04T12:00:00Z'), new Set(), 4);
    expect(september.map(iso)).toEqual([
      '2026-09-05T04:30:00.000Z', // Sat 00:30 -04
      '2026-09-06T04:00:00.000Z', // Sun 00:30 does not exist: 01:00 -03
      '2026-09-07T03:30:00.000Z',
      '2026-09-08T03:30:00.000Z',
    ]);
  });

  it('skips taken instants and times under 2 minutes ahead; no slots, no times', () => {
    const slots = every('09:00');
    const now = at('2026-06-01T06:59:00Z'); // 08:59 CEST: today's 09:00 is a minute ahead
    expect(freeTimes(slots, 'Europe/Berlin', now, new Set([at('2026-06-02T07:00:00Z')]), 1).map(iso)).toEqual([
      '2026-06-03T07:00:00.000Z',
    ]);
    expect(freeTimes([], 'Europe/Berlin', now, new Set(), 3)).toEqual([]);
  });
});

describe.each(DATABASES)('the posting queue on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let threads: string;
  const clock = manualClock(at('2026-03-23T05:00:00Z'));
  const slots = ['10:00', '12:00', '14:00', '16:00', '18:00', '20:00'].flatMap(every);
  const queued = (accountId: string) => ({
    targets: { accountIds: [accountId] },
    mediaIds: [],
    text: 'From the queue',
    when: 'queue',
    confirm: true,
  });

  beforeAll(async () => {
    env = await startHerald(kind, {}, { clock });
    ws = await seedWorkspace(env, { plan: 'agency', tz: 'Europe/Berlin' });
    threads = await addAccount(env, ws.workspaceId, 'threads', 'Queue Threads');
  });
  afterAll(() => env.close());

  it('stores the posting times in week order, once each, and lists the next free ones', async () => {
    const url = `/v1/accounts/${threads}/schedule`;
    const empty = await call(env, 'get', url, { key: ws.readKey });
    expect(empty.body).toEqual({ accountId: threads, timezone: 'Europe/Berlin', slots: [], next: [] });
    const given = [
      { day: 'wed', time: '09:00' },
      { day: 'mon', time: '17:30' },
      { day: 'mon', time: '09:00' },
      { day: 'wed', time: '09:00' },
    ];
    const res = await call(env, 'put', url, { key: ws.writeKey, body: { slots: given } });
    expect(res.status).toBe(200);
    expect(res.body.slots).toEqual([given[2], given[1], given[0]]);
    expect(res.body.next.slice(0, 3)).toEqual([
      '2026-03-23T08:00:00.000Z',
      '2026-03-23T16:30:00.000Z',
      '2026-03-25T08:00:00.000Z',
    ]);
    expect((await call(env, 'get', url, { key: ws.readKey })).body.slots).toEqual(res.body.slots);
  });

  it('refuses bad input, the read scope, no key and another workspace, changing nothing', async () => {
    const url = `/v1/accounts/${threads}/schedule`;
    for (const slot of [{ day: 'mon', time: '24:00' }, { day: 'monday', time: '09:00' }, { day: 'mon' }]) {
      const res = await call(env, 'put', url, { key: ws.writeKey, body: { slots: [slot] } });
      expect([res.status, res.body.code]).toEqual([400, 'invalid_request']);
    }
    expect((await call(env, 'put', url, { key: ws.readKey, body: { slots: [] } })).status).toBe(403);
    expect((await call(env, 'put', url, { body: { slots: [] } })).status).toBe(401);
    const other = await seedWorkspace(env);
    const theirs = await call(env, 'get', url, { key: other.readKey });
    expect([theirs.status, theirs.body.code]).toEqual([404, 'not_found']);
    expect((await call(env, 'put', url, { key: other.writeKey, body: { slots: [] } })).status).toBe(404);
    expect((await call(env, 'get', url, { key: ws.readKey })).body.slots).toHaveLength(3);
  });

  it('plans each account at its next free time, and fails an account without posting times', async () => {
    const bare = await addAccount(env, ws.workspaceId, 'threads', 'Bare Threads');
    const body = { ...queued(threads), targets: { accountIds: [threads, bare] }, confirm: undefined };
    const plan = await call(env, 'post', '/v1/posts/plan', { key: ws.readKey, body });
    expect(plan.body.rows.map((r: { publishAt: string | null }) => r.publishAt)).toEqual([
      '2026-03-23T08:00:00.000Z',
      null,
    ]);
    expect(plan.body.rows[1].issues[0].code).toBe('queue_empty');
    expect(plan.body.table).toContain('queue: 23 March, 09:00 (CET)');
    const refused = await call(env, 'post', '/v1/posts', { key: ws.writeKey, body: { ...body, confirm: true } });
    expect(refused.status).toBe(422);
  });

  it('gives 100 posts queued at once 100 different times, the next free ones in order', async () => {
    const account = await addAccount(env, ws.workspaceId, 'threads', 'Busy Threads');
    await call(env, 'put', `/v1/accounts/${account}/schedule`, { key: ws.writeKey, body: { slots } });
    const expected = freeTimes(slots, 'Europe/Berlin', clock.now(), new Set(), 100).map(iso);
    // At most 60 creation requests an hour: two batches of 50 at once, an hour apart on the injected clock.
    const batch = () =>
      Promise.all(
        Array.from({ length: 50 }, () => call(env, 'post', '/v1/posts', { key: ws.writeKey, body: queued(account) })),
      );
    const first = await batch();
    clock.advance(61 * 60_000);
    const second = await batch();
    const statuses = [...first, ...second].map((r) => r.status);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    const posts = (
      await call(env, 'get', `/v1/posts?accountId=${account}&limit=100`, { key: ws.readKey })
    ).body.posts.map((p: { publishAt: string; status: string }) => p.publishAt);
    expect(new Set(posts).size).toBe(100);
    expect(posts).toEqual(expected);
    // A time crossing the spring change is among them: Sunday 29 March 10:00 is CEST.
    expect(posts).toContain('2026-03-29T08:00:00.000Z');
    const later = DateTime.fromISO(expected[99]!).toMillis();
    const next = (await call(env, 'get', `/v1/accounts/${account}/schedule`, { key: ws.readKey })).body.next[0];
    expect(Date.parse(next)).toBeGreaterThan(later);
  });

  describe('a post moved to the queue (reschedule with when: "queue")', () => {
    let account: string;
    const patch = (postId: string, body: Record<string, unknown>) =>
      call(env, 'patch', `/v1/posts/${postId}`, { key: ws.writeKey, body });
    const create = async (when: unknown, accountId = account) =>
      (await call(env, 'post', '/v1/posts', { key: ws.writeKey, body: { ...queued(accountId), when } })).body.posts[0]
        .id as string;
    const localIn = (days: number) =>
      DateTime.fromMillis(clock.now(), { zone: 'Europe/Berlin' })
        .plus({ days })
        .set({ hour: 11, minute: 11 })
        .toFormat("yyyy-MM-dd'T'HH:mm");
    const nextFree = async (accountId = account) =>
      (await call(env, 'get', `/v1/accounts/${accountId}/schedule`, { key: ws.readKey })).body.next[0];

    beforeAll(async () => {
      // A fresh hour: the test above used 100 of the hourly creations.
      clock.advance(61 * 60_000);
      account = await addAccount(env, ws.workspaceId, 'threads', 'Moving Threads');
      await call(env, 'put', `/v1/accounts/${account}/schedule`, { key: ws.writeKey, body: { slots } });
    });

    it('gives a queued post the next free time, keeps one already on it, and queues a draft', async () => {
      const [first, second, third] = freeTimes(slots, 'Europe/Berlin', clock.now(), new Set(), 3).map(iso);
      const a = await create('queue');
      const b = await create({ publishAt: localIn(3), timezone: 'Europe/Berlin' });
      const unconfirmed = await patch(b, { when: 'queue' });
      expect([unconfirmed.status, unconfirmed.body.code]).toEqual([409, 'confirm_required']);
      const moved = await patch(b, { when: 'queue', confirm: true });
      expect([moved.status, moved.body.status, moved.body.publishAt]).toEqual([200, 'queued', second]);
      const kept = await patch(a, { when: 'queue', confirm: true });
      expect(kept.body.publishAt).toBe(first);
      const used = async () => (await call(env, 'get', '/v1/whoami', { key: ws.readKey })).body.usage.posts.used;
      const before = await used();
      const d = await create('draft');
      const queuedDraft = await patch(d, { when: 'queue', confirm: true });
      expect([queuedDraft.body.status, queuedDraft.body.publishAt]).toEqual(['queued', third]);
      expect(await used()).toBe(before + 1);
      const events = (await call(env, 'get', `/v1/posts/${d}/events`, { key: ws.readKey })).body.events;
      expect(events.map((e: { kind: string }) => e.kind)).toEqual(['created', 'rescheduled', 'queued']);
      // Cancel frees the time; deleting the draft then leaves it free; the next move to the queue takes it.
      await call(env, 'post', `/v1/posts/${a}/cancel`, { key: ws.writeKey, body: { confirm: true } });
      expect(await nextFree()).toBe(first);
      const deleted = await call(env, 'delete', `/v1/posts/${a}?confirm=true`, { key: ws.writeKey });
      expect(deleted.status).toBe(200);
      expect(await nextFree()).toBe(first);
      expect((await patch(d, { when: 'queue', confirm: true })).body.publishAt).toBe(first);
      expect(await nextFree()).toBe(third);
    });

    it('gives posts moved at once different times, the next free ones', async () => {
      const taken = new Set(
        (await call(env, 'get', `/v1/posts?accountId=${account}&status=queued`, { key: ws.readKey })).body.posts.map(
          (p: { publishAt: string }) => Date.parse(p.publishAt),
        ),
      );
      const expected = freeTimes(slots, 'Europe/Berlin', clock.now(), taken as Set<number>, 5).map(iso);
      const ids = [];
      for (let day = 20; day < 25; day++)
        ids.push(await create({ publishAt: localIn(day), timezone: 'Europe/Berlin' }));
      const moved = await Promise.all(ids.map((id) => patch(id, { when: 'queue', confirm: true })));
      expect(moved.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(moved.map((r) => r.body.publishAt).sort()).toEqual(expected);
    });

    it('refuses an account without posting times with queue_empty, changing nothing', async () => {
      const bare = await addAccount(env, ws.workspaceId, 'threads', 'Timeless Threads');
      const post = await create({ publishAt: localIn(2), timezone: 'Europe/Berlin' }, bare);
      const before = (await call(env, 'get', `/v1/posts/${post}`, { key: ws.readKey })).body;
      const res = await patch(post, { when: 'queue', confirm: true });
      expect([res.status, res.body.code, res.body.rows[0].issues[0].code]).toEqual([
        422,
        'checks_failed',
        'queue_empty',
      ]);
      expect((await call(env, 'get', `/v1/posts/${post}`, { key: ws.readKey })).body).toEqual(before);
    });
  });

  describe('two queued posts swapping their times (swapPostTimes)', () => {
    let account: string;
    let a: string;
    let b: string;
    let c: string;
    const swap = (body: unknown, key: string | null = ws.writeKey) =>
      call(env, 'post', '/v1/posts/swap-times', { key: key ?? undefined, body });
    const read = async (id: string) => (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
    const times = async (...ids: string[]) => Promise.all(ids.map(async (id) => (await read(id)).publishAt));
    const create = async (when: unknown) =>
      (await call(env, 'post', '/v1/posts', { key: ws.writeKey, body: { ...queued(account), when } })).body.posts[0]
        .id as string;

    beforeAll(async () => {
      clock.advance(61 * 60_000);
      account = await addAccount(env, ws.workspaceId, 'threads', 'Swapping Threads');
      await call(env, 'put', `/v1/accounts/${account}/schedule`, { key: ws.writeKey, body: { slots } });
      [a, b, c] = [await create('queue'), await create('queue'), await create('queue')];
    });

    it('exchanges the two times, both at once, each with a rescheduled event', async () => {
      const [ta, tb, tc] = await times(a, b, c);
      const res = await swap({ postIds: [a, b], confirm: true });
      expect(res.status).toBe(200);
      expect(res.body.posts.map((p: { id: string; publishAt: string }) => [p.id, p.publishAt])).toEqual([
        [a, tb],
        [b, ta],
      ]);
      expect(await times(a, b, c)).toEqual([tb, ta, tc]);
      const events = (await call(env, 'get', `/v1/posts/${a}/events`, { key: ws.readKey })).body.events;
      expect(events.at(-1)).toMatchObject({ kind: 'rescheduled', publishAt: tb });
      await swap({ postIds: [b, a], confirm: true });
      expect(await times(a, b)).toEqual([ta, tb]);
    });

    it('refuses without confirm, bad input, no key, the read scope and a post of another workspace', async () => {
      const before = await times(a, b);
      expect((await swap({ postIds: [a, b] })).body.code).toBe('confirm_required');
      for (const body of [{ postIds: [a], confirm: true }, { postIds: [a, a], confirm: true }, { confirm: true }]) {
        const res = await swap(body);
        expect([res.status, res.body.code]).toEqual([400, 'invalid_request']);
      }
      expect((await swap({ postIds: [a, b], confirm: true, when: 'now' })).status).toBe(400);
      expect((await swap({ postIds: [a, b], confirm: true }, null)).status).toBe(401);
      expect((await swap({ postIds: [a, b], confirm: true }, ws.readKey)).body.code).toBe('insufficient_scope');
      const other = await seedWorkspace(env, { plan: 'agency' });
      const foreign = await swap({ postIds: [a, b], confirm: true }, other.writeKey);
      expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
      expect(await times(a, b)).toEqual(before);
    });

    it('changes neither post when one is not queued or would fail its checks at the other time', async () => {
      const before = await times(a, c);
      const draft = await create('draft');
      const refused = await swap({ postIds: [a, draft], confirm: true });
      expect([refused.status, refused.body.code]).toEqual([409, 'invalid_state']);
      // A post 3 minutes ahead, then a minute and a half on: the other post would go out in under 2 minutes.
      const soonAt = DateTime.fromMillis(clock.now() + 3 * 60_000, { zone: 'Europe/Berlin' });
      const soon = await create({ publishAt: soonAt.toFormat("yyyy-MM-dd'T'HH:mm"), timezone: 'Europe/Berlin' });
      const soonTime = (await read(soon)).publishAt;
      clock.advance(90_000);
      const failing = await swap({ postIds: [c, soon], confirm: true });
      expect([failing.status, failing.body.code]).toEqual([422, 'checks_failed']);
      expect(failing.body.rows.map((r: { ok: boolean }) => r.ok)).toEqual([false, true]);
      expect(failing.body.rows[0].issues[0].code).toBe('time_too_soon');
      expect(await times(a, c, soon)).toEqual([...before, soonTime]);
      await call(env, 'post', `/v1/posts/${soon}/cancel`, { key: ws.writeKey, body: { confirm: true } });
    });

    it('keeps both at their times, a change each wanting the other time, when the swapper needs approval', async () => {
      const owner = await signedIn(env, ws.userId, ws.workspaceId);
      const member = await addPerson(env, ws.workspaceId, 'member');
      await asPerson(env, owner, 'patch', '/auth/workspace', { approvalRequiredFor: ['members'] });
      const [ta, tb] = await times(a, b);
      const res = await asPerson(env, member, 'post', '/v1/posts/swap-times', { postIds: [a, b], confirm: true });
      await asPerson(env, owner, 'patch', '/auth/workspace', { approvalRequiredFor: [] });
      expect(res.status).toBe(200);
      const shown = res.body.posts.map((p: { status: string; publishAt: string | null; pendingChange: unknown }) => [
        p.status,
        p.publishAt,
        p.pendingChange,
      ]);
      // A change that needs approval never unschedules a post; it waits beside it.
      expect(shown).toEqual([
        ['queued', ta, expect.objectContaining({ requestedBy: 'A member', publishAt: tb })],
        ['queued', tb, expect.objectContaining({ requestedBy: 'A member', publishAt: ta })],
      ]);
    });
  });
});
