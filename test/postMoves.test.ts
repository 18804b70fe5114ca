// Several posts moved at once (POST /posts/reschedule, the calendar's drag of one compose's posts), on both
// databases: all or none, each post as PATCH would move it, the posts as read, and the usual refusals.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { addPerson, asPerson, signedIn } from './support/people.ts';
import { setPostState } from './support/posts.ts';

interface Post {
  id: string;
  status: string;
  publishAt: string | null;
  updatedAt: string;
  approval?: { state: string; wantedAt: string | null };
  pendingChange?: { publishAt?: string | null };
}

/** An instant `days` ahead at 10:00 in Berlin, as a move takes it. */
const ahead = (days: number, hour = 10) =>
  DateTime.now().setZone('Europe/Berlin').plus({ days }).set({ hour, minute: 0, second: 0, millisecond: 0 }).toUTC();
const instant = (at: DateTime) => at.toISO({ suppressMilliseconds: true })!;

describe.each(DATABASES)('moving several posts at once on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let other: Seeded;
  let th: string;
  let fb: string;

  beforeAll(async () => {
    env = await startHerald(kind);
    ws = await seedWorkspace(env, { plan: 'agency', tz: 'Europe/Berlin' });
    other = await seedWorkspace(env, { plan: 'creator' });
    th = await addAccount(env, ws.workspaceId, 'threads', 'Acme Threads');
    fb = await addAccount(env, ws.workspaceId, 'facebook', 'Acme Page');
  });
  afterAll(() => env.close());

  const read = async (id: string): Promise<Post> =>
    (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
  const readAll = (ids: string[]) => Promise.all(ids.map(read));
  /** One compose for both accounts, queued three days ahead: its two posts. */
  async function compose(): Promise<string[]> {
    const res = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: {
        targets: { accountIds: [th, fb] },
        mediaIds: [],
        text: 'Winter menu tasting this Friday',
        when: {
          publishAt: ahead(3).setZone('Europe/Berlin').toFormat("yyyy-MM-dd'T'HH:mm"),
          timezone: 'Europe/Berlin',
        },
        confirm: true,
      },
    });
    expect(res.status).toBe(201);
    return res.body.posts.map((p: Post) => p.id);
  }
  const movesOf = (posts: Post[], at: DateTime) =>
    posts.map((p) => ({ postId: p.id, publishAt: instant(at), updatedAt: p.updatedAt }));
  const move = (body: unknown, key: string | null = ws.writeKey) =>
    call(env, 'post', '/v1/posts/reschedule', { key: key ?? undefined, body });
  const kinds = async (id: string) =>
    (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events.map(
      (e: { kind: string }) => e.kind,
    );

  it('moves every post to its new time in one step, each with a rescheduled event', async () => {
    const ids = await compose();
    const to = ahead(5, 14);
    const res = await move({ moves: movesOf(await readAll(ids), to), confirm: true });
    expect(res.status).toBe(200);
    expect(res.body.posts.map((p: Post) => [p.id, p.status, p.publishAt])).toEqual(
      ids.map((id) => [id, 'queued', to.toISO()]),
    );
    expect((await readAll(ids)).map((p) => p.publishAt)).toEqual([to.toISO(), to.toISO()]);
    for (const id of ids) expect(await kinds(id)).toEqual(['created', 'queued', 'rescheduled']);
  });

  it('moves none when one cannot move: published, changed since it was read, or failing its checks', async () => {
    const ids = await compose();
    const [done] = await compose();
    await setPostState(env, ws.workspaceId, done!, { status: 'live' });
    const before = await readAll([...ids, done!]);
    const to = ahead(6);

    const published = await move({ moves: movesOf(before, to), confirm: true });
    expect([published.status, published.body.code]).toEqual([409, 'invalid_state']);

    const stale = movesOf(before.slice(0, 2), to);
    stale[1]!.updatedAt = '2020-01-01T00:00:00.000Z';
    const changed = await move({ moves: stale, confirm: true });
    expect([changed.status, changed.body.code]).toEqual([409, 'invalid_state']);
    expect(changed.body.message).toContain('changed since it was read');

    const soon = [
      ...movesOf(before.slice(0, 1), to),
      ...movesOf(before.slice(1, 2), DateTime.utc().plus({ minutes: 1 })),
    ];
    const failing = await move({ moves: soon, confirm: true });
    expect([failing.status, failing.body.code]).toEqual([422, 'checks_failed']);
    expect(failing.body.rows.map((r: { ok: boolean }) => r.ok)).toEqual([true, false]);
    expect(failing.body.rows[1].issues[0].code).toBe('time_too_soon');

    expect(await readAll([...ids, done!])).toEqual(before);
  });

  it('refuses without confirm, without a key, with the read scope, and moves nothing', async () => {
    const ids = await compose();
    const before = await readAll(ids);
    const moves = movesOf(before, ahead(7));
    expect((await move({ moves })).body.code).toBe('confirm_required');
    expect((await move({ moves, confirm: true }, null)).status).toBe(401);
    const scoped = await move({ moves, confirm: true }, ws.readKey);
    expect([scoped.status, scoped.body.code]).toEqual([403, 'insufficient_scope']);
    expect(await readAll(ids)).toEqual(before);
  });

  it('answers 404 for a post of another workspace and moves none of the posts named', async () => {
    const ids = await compose();
    const before = await readAll(ids);
    const moves = movesOf(before, ahead(8));
    const foreign = await move({ moves, confirm: true }, other.writeKey);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
    const theirs = await call(env, 'post', '/v1/posts', {
      key: other.writeKey,
      body: {
        targets: { accountIds: [await addAccount(env, other.workspaceId, 'threads', 'Theirs')] },
        mediaIds: [],
        text: 'Theirs',
        when: 'draft',
        confirm: true,
      },
    });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    const foreignPost = theirs.body.posts[0].id as string;
    const { updatedAt } = (await call(env, 'get', `/v1/posts/${foreignPost}`, { key: other.readKey })).body;
    const mixed = [...moves, { ...moves[0]!, postId: foreignPost, updatedAt }];
    const mixedAnswer = await move({ moves: mixed, confirm: true });
    expect(mixedAnswer.status, JSON.stringify(mixedAnswer.body)).toBe(404);
    expect(await readAll(ids)).toEqual(before);
  });

  it('refuses bad input: no moves, a post twice, more than a page, times that are not instants', async () => {
    const ids = await compose();
    const before = await readAll(ids);
    const [one] = movesOf(before, ahead(9));
    const bodies = [
      { moves: [], confirm: true },
      { confirm: true },
      { moves: [one, one], confirm: true },
      { moves: Array.from({ length: 101 }, () => one), confirm: true },
      { moves: [{ ...one, publishAt: 'next Tuesday' }], confirm: true },
      { moves: [{ ...one, publishAt: '2026-12-08T13:00' }], confirm: true },
      { moves: [{ ...one, updatedAt: undefined }], confirm: true },
      { moves: [{ ...one, when: 'now' }], confirm: true },
    ];
    for (const body of bodies) {
      const res = await move(body);
      expect([res.status, res.body.code], JSON.stringify(body).slice(0, 80)).toEqual([400, 'invalid_request']);
      expect([res.body.field, res.body.hint]).toEqual([expect.stringMatching(/^moves/), expect.any(String)]);
    }
    expect(await readAll(ids)).toEqual(before);
  });

  it('makes a member whose changes need approval leave each post as a single reschedule would', async () => {
    const owner = await signedIn(env, ws.userId, ws.workspaceId);
    const member = await addPerson(env, ws.workspaceId, 'member');
    const [alone] = await compose();
    const ids = await compose();
    const to = ahead(10, 9);
    await asPerson(env, owner, 'patch', '/auth/workspace', { approvalRequiredFor: ['members'] });
    try {
      const single = await asPerson(env, member, 'patch', `/v1/posts/${alone}`, {
        when: { publishAt: to.setZone('Europe/Berlin').toFormat("yyyy-MM-dd'T'HH:mm"), timezone: 'Europe/Berlin' },
        confirm: true,
      });
      // The post keeps its time; the move waits beside it for approval.
      expect([single.status, single.body.status, single.body.pendingChange?.publishAt]).toEqual([
        200,
        'queued',
        to.toUTC().toISO({ suppressMilliseconds: false }),
      ]);
      const res = await asPerson(env, member, 'post', '/v1/posts/reschedule', {
        moves: movesOf(await readAll(ids), to),
        confirm: true,
      });
      expect(res.status).toBe(200);
      const shape = (p: Post) => [p.status, p.publishAt, p.pendingChange?.publishAt];
      expect(res.body.posts.map(shape)).toEqual([shape(single.body), shape(single.body)]);
      expect((await readAll(ids)).map(shape)).toEqual([shape(single.body), shape(single.body)]);
      expect(await kinds(ids[0]!)).toEqual(await kinds(alone!));
    } finally {
      await asPerson(env, owner, 'patch', '/auth/workspace', { approvalRequiredFor: [] });
    }
  });
});
