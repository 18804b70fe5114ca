// Plan and billing (the upgradeUrl of every quota error), workspace settings and the audit trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { addPerson, asPerson, signedIn, type Person } from './support/people.ts';

describe.each(DATABASES)('billing and settings on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let owner: Person;

  beforeAll(async () => {
    env = await startHerald(kind);
    ws = await seedWorkspace(env, { plan: 'agency', tz: 'Europe/Berlin' });
    owner = await signedIn(env, ws.userId, ws.workspaceId);
  });
  afterAll(() => env.close());

  it('shows the plans on sale, the current plan and usage meters to owners and administrators', async () => {
    await addAccount(env, ws.workspaceId, 'threads', 'One');
    const admin = await addPerson(env, ws.workspaceId, 'administrator');
    const res = await asPerson(env, admin, 'get', '/auth/billing');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      plan: 'agency',
      provider: 'self-hosted',
      canChange: false,
      usage: {
        accounts: { used: 1, limit: 50 },
        members: { used: 2, limit: 10 },
        posts: { used: 0, limit: 2000 },
        storage: { usedBytes: 0, limitBytes: 150 * 1024 ** 3 },
      },
    });
    expect(res.body.plans.map((p: { name: string }) => p.name)).toEqual(['free', 'creator', 'studio', 'agency']);
    expect((await asPerson(env, owner, 'get', '/auth/billing')).body.canChange).toBe(true);
    const member = await addPerson(env, ws.workspaceId, 'member');
    expect((await asPerson(env, member, 'get', '/auth/billing')).status).toBe(403);
  });

  it('gives a slug asked for by several workspaces at once to one; the others answer slug_taken', async () => {
    const owners = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const other = await seedWorkspace(env);
        return signedIn(env, other.userId, other.workspaceId);
      }),
    );
    const answers = await Promise.all(
      owners.map((person) => asPerson(env, person, 'patch', '/auth/workspace', { slug: `wanted-${kind}` })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409, 409, 409]);
    for (const res of answers.filter((r) => r.status === 409)) expect(res.body.code).toBe('slug_taken');
  });

  it('lets the owner change the plan, recorded with who and when; a downgrade below usage names it', async () => {
    const shop = await seedWorkspace(env, { plan: 'creator' });
    const boss = await signedIn(env, shop.userId, shop.workspaceId);
    for (const name of ['A', 'B', 'C']) await addAccount(env, shop.workspaceId, 'facebook', name);
    const up = await asPerson(env, boss, 'post', '/auth/billing/plan', { plan: 'studio' });
    expect(up.body).toEqual({ status: 'changed', plan: 'studio' });
    expect((await call(env, 'get', '/v1/whoami', { headers: { Cookie: boss.cookie } })).body.workspace.plan).toBe(
      'studio',
    );

    const down = await asPerson(env, boss, 'post', '/auth/billing/plan', { plan: 'free' });
    expect(down.status).toBe(409);
    expect(down.body).toMatchObject({
      code: 'downgrade_blocked',
      blockers: ['Disconnect 1 of the 3 connected accounts (Free allows 2).'],
      field: 'accounts',
      limit: 2,
      actual: 3,
    });
    expect(down.body.hint).toContain('Disconnect 1 of the 3');
    expect((await call(env, 'get', '/v1/whoami', { headers: { Cookie: boss.cookie } })).body.workspace.plan).toBe(
      'studio',
    );

    expect((await asPerson(env, boss, 'post', '/auth/billing/plan', { plan: 'owner' })).status).toBe(400);
    expect((await asPerson(env, boss, 'post', '/auth/billing/plan', { plan: 'platinum' })).status).toBe(400);
    const trail = (await asPerson(env, boss, 'get', '/auth/audit')).body.events;
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({
      action: 'plan.changed',
      actor: { id: shop.userId },
      detail: { from: 'creator', to: 'studio', provider: 'self-hosted' },
    });
    expect(Date.now() - Date.parse(trail[0].at)).toBeLessThan(60_000);
  });

  it('changes name, slug, zone and currency; queued posts keep their instants and the answer says so', async () => {
    const acc = await addAccount(env, ws.workspaceId, 'threads', 'Zoned');
    const publishAt = DateTime.now()
      .setZone('Europe/Berlin')
      .plus({ days: 3 })
      .set({ hour: 14, minute: 30, second: 0, millisecond: 0 });
    const created = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: {
        targets: { accountIds: [acc] },
        mediaIds: [],
        text: 'Hello',
        when: { publishAt: publishAt.toFormat("yyyy-MM-dd'T'HH:mm"), timezone: 'Europe/Berlin' },
        confirm: true,
      },
    });
    expect(created.status).toBe(201);
    const postId = created.body.posts[0].id;
    const before = (await call(env, 'get', `/v1/posts/${postId}`, { key: ws.readKey })).body;

    const res = await asPerson(env, owner, 'patch', '/auth/workspace', {
      name: 'Renamed',
      slug: `renamed-${kind}`,
      tz: 'America/New_York',
      currency: 'EUR',
    });
    expect(res.status).toBe(200);
    expect(res.body.workspace).toMatchObject({
      name: 'Renamed',
      slug: `renamed-${kind}`,
      tz: 'America/New_York',
      currency: 'EUR',
    });
    expect(res.body.queuedPosts).toBeGreaterThanOrEqual(1);
    expect(res.body.notes[0]).toMatch(/queued posts? keep their absolute times/);
    const after = (await call(env, 'get', `/v1/posts/${postId}`, { key: ws.readKey })).body;
    expect(Date.parse(after.publishAt)).toBe(Date.parse(before.publishAt));
    expect(Date.parse(after.publishAt)).toBe(publishAt.toMillis());

    const other = await seedWorkspace(env);
    const otherOwner = await signedIn(env, other.userId, other.workspaceId);
    expect((await asPerson(env, otherOwner, 'patch', '/auth/workspace', { slug: `renamed-${kind}` })).body.code).toBe(
      'slug_taken',
    );
    for (const bad of [
      { tz: 'Mars/Olympus' },
      { currency: 'eur' },
      { currency: 'XYZ1' },
      { slug: 'A b' },
      { name: '' },
      { plan: 'agency' },
    ]) {
      expect([bad, (await asPerson(env, otherOwner, 'patch', '/auth/workspace', bad)).status]).toEqual([bad, 400]);
    }
    // Too long or malformed, a setting is refused with its rule in the same words.
    for (const [field, tooLong, malformed] of [
      ['slug', 'a'.repeat(41), 'A b'],
      ['currency', 'EURO', 'XYZ'],
      ['tz', `${'Europe/'.repeat(15)}Paris`, 'Mars/Olympus'],
    ] as const) {
      const long = await asPerson(env, otherOwner, 'patch', '/auth/workspace', { [field]: tooLong });
      const wrong = await asPerson(env, otherOwner, 'patch', '/auth/workspace', { [field]: malformed });
      expect([field, long.status, long.body.field, long.body.message]).toEqual([field, 400, field, wrong.body.message]);
    }
    const trail = (await asPerson(env, owner, 'get', '/auth/audit')).body.events;
    expect(trail.find((e: { action: string }) => e.action === 'workspace.updated').detail.tz).toEqual({
      from: 'Europe/Berlin',
      to: 'America/New_York',
    });
  });

  it('pages the audit trail newest first', async () => {
    const first = await asPerson(env, owner, 'get', '/auth/audit?limit=2');
    expect(first.body.events).toHaveLength(2);
    const next = await asPerson(
      env,
      owner,
      'get',
      `/auth/audit?limit=2&before=${encodeURIComponent(first.body.nextBefore)}`,
    );
    expect(next.body.events[0].at <= first.body.events[1].at).toBe(true);
    expect((await asPerson(env, owner, 'get', '/auth/audit?limit=0')).status).toBe(400);
    expect((await asPerson(env, owner, 'get', '/auth/audit?before=yesterday')).status).toBe(400);
  });
});
