// Members and invitations: a signed single-use link valid 7 days, the plan's member limit counting
// pending invitations, roles changed and ownership transferred, removal ending sessions and keys, and one
// person in several workspaces switching between them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createApiKey, setPasswordHash } from '../db/identity.ts';
import { hashPassword } from '../signin/passwords.ts';
import { KEY_CACHE_MS } from '../server/api.ts';
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

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe.each(DATABASES)('members on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let owner: Person;

  beforeAll(async () => {
    env = await startHerald(kind);
    ws = await seedWorkspace(env, { plan: 'agency', name: 'Acme Agency' });
    owner = await signedIn(env, ws.userId, ws.workspaceId);
  });
  afterAll(() => env.close());

  async function invite(email: string, role = 'member', by = owner) {
    return asPerson(env, by, 'post', '/auth/invites', { email, role });
  }

  it('invites by email with a link shown to the inviter, which a new person accepts once', async () => {
    const res = await invite('New.Person@Example.com');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ delivered: 'log', invite: { email: 'new.person@example.com', role: 'member' } });
    expect(res.body.link).toMatch(new RegExp(`^${env.config.publicUrl}/app/invite\\?token=inv_`));
    const token = tokenOf(res.body.link);
    expect(Date.parse(res.body.invite.expiresAt) - Date.parse(res.body.invite.createdAt)).toBe(7 * 86_400_000);

    const preview = await request(env.app).get('/auth/invite').query({ token });
    expect(preview.body).toMatchObject({
      email: 'new.person@example.com',
      role: 'member',
      workspace: { name: 'Acme Agency' },
    });

    const weak = await request(env.app).post('/auth/invites/accept').send({ token, name: 'Nia', password: 'short' });
    expect(weak.status).toBe(400);
    const accepted = await request(env.app)
      .post('/auth/invites/accept')
      .send({ token, name: 'Nia', password: 'a good long password' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ role: 'member', workspace: { id: ws.workspaceId }, user: { name: 'Nia' } });
    const cookie = accepted.headers['set-cookie']![0]!.split(';')[0]!;
    expect((await call(env, 'get', '/v1/whoami', { headers: { Cookie: cookie } })).body.workspace.id).toBe(
      ws.workspaceId,
    );

    const again = await request(env.app)
      .post('/auth/invites/accept')
      .send({ token, name: 'Eve', password: 'a good long password' });
    expect(again.status).toBe(410);
    expect(again.body).toMatchObject({
      code: 'invite_unusable',
      message: expect.stringContaining('already accepted'),
      actual: 'used',
    });
    const altered = await request(env.app)
      .post('/auth/invites/accept')
      .send({ token: `${token}x`, name: 'Eve', password: 'a good long password' });
    expect(altered.body).toMatchObject({ code: 'invite_unusable', actual: 'altered' });
    // Inviting a member again names the field at fault, so the dashboard words it without reading the message.
    const member = await invite('new.person@example.com');
    expect(member.status).toBe(409);
    expect(member.body).toMatchObject({ code: 'already_member', field: 'email' });
  });

  it('refuses an invitation past its 7 days, and one withdrawn or replaced', async () => {
    const expired = await invite('late@example.com');
    await env.services
      .db('invites')
      .where({ id: expired.body.invite.id })
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const late = await request(env.app)
      .post('/auth/invites/accept')
      .send({ token: tokenOf(expired.body.link), name: 'L', password: 'long enough pw' });
    expect(late.status).toBe(410);
    expect(late.body).toMatchObject({ message: expect.stringContaining('expired'), actual: 'expired' });

    const first = await invite('twice@example.com');
    const second = await invite('twice@example.com', 'administrator');
    const replaced = await request(env.app)
      .get('/auth/invite')
      .query({ token: tokenOf(first.body.link) });
    expect(replaced.body).toMatchObject({
      code: 'invite_unusable',
      message: expect.stringContaining('withdrawn'),
      actual: 'withdrawn',
    });
    expect((await asPerson(env, owner, 'delete', `/auth/invites/${second.body.invite.id}`)).status).toBe(204);
    expect(
      (
        await request(env.app)
          .get('/auth/invite')
          .query({ token: tokenOf(second.body.link) })
      ).status,
    ).toBe(410);
    const audit = await asPerson(env, owner, 'get', '/auth/audit');
    expect(audit.body.events.map((e: { action: string }) => e.action)).toContain('invite.cancelled');
  });

  it('counts members and pending invitations against the plan: 402 with limit, used and upgradeUrl', async () => {
    const studio = await seedWorkspace(env, { plan: 'studio' });
    const boss = await signedIn(env, studio.userId, studio.workspaceId);
    expect((await invite('one@example.com', 'member', boss)).status).toBe(201);
    expect((await invite('two@example.com', 'member', boss)).status).toBe(201);
    // Inviting the same address again replaces its invitation: no new seat.
    expect((await invite('two@example.com', 'administrator', boss)).status).toBe(201);
    const over = await invite('three@example.com', 'member', boss);
    expect(over.status).toBe(402);
    expect(over.body).toMatchObject({
      code: 'quota_exceeded',
      limit: 3,
      used: 3,
      upgradeUrl: `${env.config.publicUrl}/app/settings/billing`,
      hint: expect.stringContaining('Agency'),
    });
    const list = await asPerson(env, boss, 'get', '/auth/members');
    expect(list.body.seats).toEqual({ used: 3, limit: 3 });
    expect(list.body.invites.map((i: { email: string }) => i.email).sort()).toEqual([
      'one@example.com',
      'two@example.com',
    ]);

    const free = await seedWorkspace(env, { plan: 'free' });
    const alone = await invite('x@example.com', 'member', await signedIn(env, free.userId, free.workspaceId));
    expect(alone.body).toMatchObject({ code: 'quota_exceeded', limit: 1, used: 1 });
  });

  it('lets an existing user join with their own session, never a password, and switch workspaces', async () => {
    const other = await seedWorkspace(env, { plan: 'creator', email: `maria-${kind}@example.com`, name: 'Maria Shop' });
    await setPasswordHash(env.services.db, other.userId, await hashPassword('marias password'));
    const res = await invite(`maria-${kind}@example.com`, 'administrator');
    const token = tokenOf(res.body.link);
    // Whoever holds the link (the inviter does) learns nothing of the address from the lookup.
    const anonymous = await request(env.app).get('/auth/invite').query({ token });
    const asInviter = await asPerson(env, owner, 'get', `/auth/invite?token=${encodeURIComponent(token)}`);
    for (const lookup of [anonymous, asInviter]) {
      expect(lookup.status).toBe(200);
      expect(Object.keys(lookup.body).sort()).toEqual(['email', 'expiresAt', 'id', 'role', 'workspace']);
    }
    // Not even the right password joins an existing account through the link: no password is taken here.
    for (const password of ['not hers at all', 'marias password']) {
      const refused = await request(env.app).post('/auth/invites/accept').send({ token, password });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 'unauthenticated', hint: expect.stringContaining('Sign in') });
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
    const someoneElse = await request(env.app)
      .post('/auth/invites/accept')
      .set('Cookie', owner.cookie)
      .send({ token, password: 'marias password' });
    expect(someoneElse.status).toBe(403);
    expect(someoneElse.body.code).toBe('invite_for_someone_else');

    // Signed in as the invited person, the session is the proof; it ends and a new one opens in the workspace.
    const before = await signedIn(env, other.userId, other.workspaceId);
    const joined = await request(env.app).post('/auth/invites/accept').set('Cookie', before.cookie).send({ token });
    expect(joined.body).toMatchObject({ role: 'administrator', workspace: { id: ws.workspaceId } });
    expect((await request(env.app).get('/auth/session').set('Cookie', before.cookie)).status).toBe(401);
    const after = joined.headers['set-cookie']![0]!.split(';')[0]!;
    expect((await request(env.app).get('/auth/session').set('Cookie', after)).body.workspace.id).toBe(ws.workspaceId);

    const maria = await signedIn(env, other.userId, other.workspaceId);
    const mine = await asPerson(env, maria, 'get', '/auth/workspaces');
    expect(mine.body.currentWorkspaceId).toBe(other.workspaceId);
    expect(mine.body.workspaces.map((w: { id: string; role: string }) => [w.id, w.role])).toEqual([
      [other.workspaceId, 'owner'],
      [ws.workspaceId, 'administrator'],
    ]);
    const switched = await asPerson(env, maria, 'post', '/auth/workspaces/switch', { workspaceId: ws.workspaceId });
    expect(switched.body.currentWorkspaceId).toBe(ws.workspaceId);
    const session = await request(env.app).get('/auth/session').set('Cookie', maria.cookie);
    expect(session.body).toMatchObject({ workspace: { id: ws.workspaceId }, role: 'administrator' });
    const elsewhere = await asPerson(env, maria, 'post', '/auth/workspaces/switch', {
      workspaceId: (await seedWorkspace(env)).workspaceId,
    });
    expect(elsewhere.status).toBe(404);

    // Signed in as the invited person, the session is proof enough: no password asked.
    const third = await seedWorkspace(env, { plan: 'studio' });
    const thirdOwner = await signedIn(env, third.userId, third.workspaceId);
    const offer = await invite(`maria-${kind}@example.com`, 'member', thirdOwner);
    const bySession = await request(env.app)
      .post('/auth/invites/accept')
      .set('Cookie', maria.cookie)
      .send({ token: tokenOf(offer.body.link) });
    expect(bySession.body).toMatchObject({ role: 'member', workspace: { id: third.workspaceId } });
  });

  it('changes roles by the rules: administrators do not touch the owner; the owner transfers ownership', async () => {
    const admin = await addPerson(env, ws.workspaceId, 'administrator');
    const member = await addPerson(env, ws.workspaceId, 'member');
    const promote = await asPerson(env, admin, 'patch', `/auth/members/${member.userId}`, { role: 'administrator' });
    expect(promote.body.members.find((m: { userId: string }) => m.userId === member.userId).role).toBe('administrator');
    expect((await asPerson(env, admin, 'patch', `/auth/members/${ws.userId}`, { role: 'member' })).body.code).toBe(
      'insufficient_role',
    );
    expect((await asPerson(env, admin, 'patch', `/auth/members/${member.userId}`, { role: 'owner' })).body.code).toBe(
      'insufficient_role',
    );
    expect(
      (await asPerson(env, admin, 'post', '/auth/invites', { email: 'o@example.com', role: 'owner' })).status,
    ).toBe(400);
    const selfDemote = await asPerson(env, owner, 'patch', `/auth/members/${ws.userId}`, { role: 'member' });
    expect(selfDemote.body.code).toBe('owner_required');
    expect((await asPerson(env, owner, 'patch', '/auth/members/usr_nobody', { role: 'member' })).status).toBe(404);

    // A workspace of its own, so the transfer does not change who owns the shared one.
    const shop = await seedWorkspace(env, { plan: 'agency' });
    const shopOwner = await signedIn(env, shop.userId, shop.workspaceId);
    const heir = await addPerson(env, shop.workspaceId, 'member');
    const transfer = await asPerson(env, shopOwner, 'patch', `/auth/members/${heir.userId}`, { role: 'owner' });
    const roles = Object.fromEntries(
      transfer.body.members.map((m: { userId: string; role: string }) => [m.userId, m.role]),
    );
    expect(roles).toEqual({ [shop.userId]: 'administrator', [heir.userId]: 'owner' });
    expect((await asPerson(env, shopOwner, 'post', '/auth/billing/plan', { plan: 'studio' })).body.code).toBe(
      'insufficient_role',
    );
    const trail = (await asPerson(env, heir, 'get', '/auth/audit')).body.events;
    expect(trail[0]).toMatchObject({ action: 'ownership.transferred', actor: { id: shop.userId } });
  });

  it('removes a member: their sessions here end and their keys stop working at once; never the owner', async () => {
    const leaving = await addPerson(env, ws.workspaceId, 'administrator');
    const { key } = await createApiKey(env.services.db, {
      workspaceId: ws.workspaceId,
      userId: leaving.userId,
      name: 'theirs',
      scopes: ['read'],
    });
    const admin = await addPerson(env, ws.workspaceId, 'administrator');
    const res = await asPerson(env, admin, 'delete', `/auth/members/${leaving.userId}`);
    expect(res.body).toEqual({ keysRevoked: 1, grantsRevoked: 0 });
    expect((await call(env, 'get', '/v1/whoami', { headers: { Cookie: leaving.cookie } })).status).toBe(401);
    expect((await call(env, 'get', '/v1/whoami', { key })).status).toBe(401);
    expect((await asPerson(env, admin, 'delete', `/auth/members/${ws.userId}`)).body.code).toBe('insufficient_role');
    expect((await asPerson(env, owner, 'delete', `/auth/members/${ws.userId}`)).body.code).toBe('owner_required');
    const trail = (await asPerson(env, owner, 'get', '/auth/audit')).body.events;
    expect(trail[0]).toMatchObject({
      action: 'member.removed',
      actor: { id: admin.userId },
      detail: { userId: leaving.userId, keysRevoked: 1 },
    });
  });

  it("judges a key by its maker's role of now: an administrator's key stops managing groups on demotion", async () => {
    const admin = await addPerson(env, ws.workspaceId, 'administrator');
    const made = await asPerson(env, admin, 'post', '/auth/keys', { name: 'admin script', scopes: ['read', 'write'] });
    expect(made.status).toBe(201);
    const { key } = made.body as { key: string };
    const accountId = await addAccount(env, ws.workspaceId, 'threads', 'Acme Threads');
    const group = (name: string) => call(env, 'post', '/v1/groups', { key, body: { name, accountIds: [accountId] } });
    expect((await group('Before')).status).toBe(201);

    await asPerson(env, owner, 'patch', `/auth/members/${admin.userId}`, { role: 'member' });
    // Keys are resolved again after KEY_CACHE_MS.
    await new Promise((resolve) => setTimeout(resolve, KEY_CACHE_MS + 50));
    const demoted = await group('After');
    expect(demoted.status).toBe(403);
    expect(demoted.body).toMatchObject({
      code: 'insufficient_role',
      message: expect.stringContaining('administrator'),
    });
    // What a member may do, the key still does.
    expect((await call(env, 'get', '/v1/groups', { key })).status).toBe(200);

    await asPerson(env, owner, 'patch', `/auth/members/${admin.userId}`, { role: 'administrator' });
    await new Promise((resolve) => setTimeout(resolve, KEY_CACHE_MS + 50));
    expect((await group('Again')).status).toBe(201);
  });

  it('keeps workspaces apart: ids of another workspace answer 404', async () => {
    const other = await seedWorkspace(env, { plan: 'agency' });
    const stranger = await addPerson(env, other.workspaceId, 'member');
    const theirInvite = await invite(
      'apart@example.com',
      'member',
      await signedIn(env, other.userId, other.workspaceId),
    );
    expect((await asPerson(env, owner, 'delete', `/auth/members/${stranger.userId}`)).status).toBe(404);
    expect((await asPerson(env, owner, 'patch', `/auth/members/${stranger.userId}`, { role: 'member' })).status).toBe(
      404,
    );
    expect((await asPerson(env, owner, 'delete', `/auth/invites/${theirInvite.body.invite.id}`)).status).toBe(404);
  });
});
