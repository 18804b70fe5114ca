// Dashboard sessions: email and password to an HttpOnly cookie; state changes need the CSRF token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { setPasswordHash } from '../db/identity.ts';
import { hashPassword } from '../signin/passwords.ts';
import {
  addAccount,
  call,
  dashboardSession,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';

describe.each(DATABASES)('dashboard sessions on %s', (kind) => {
  let env: TestEnv;
  let free: Seeded;
  const email = `maria-${kind}@example.com`;
  const password = 'correct horse battery';

  beforeAll(async () => {
    env = await startHerald(kind);
    free = await seedWorkspace(env, { plan: 'free', email });
    await setPasswordHash(env.services.db, free.userId, await hashPassword(password));
  });
  afterAll(() => env.close());

  const signIn = () => dashboardSession(env, email.toUpperCase(), password);

  it('signs in to an HttpOnly, SameSite=Lax cookie and stores the argon2id hash only', async () => {
    const { setCookie, body } = await signIn();
    expect(setCookie).toMatch(/^herald_session=\w+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(body.workspace.id).toBe(free.workspaceId);
    const row = await env.services.db('users').where({ id: free.userId }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const wrong = await request(env.app).post('/auth/sign-in').send({ email, password: 'nope nope nope' });
    const unknown = await request(env.app).post('/auth/sign-in').send({ email: 'nobody@example.com', password });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('signs nobody in to an account without a password, whatever is typed', async () => {
    // `herald workspace create --email` makes a person who has no password until `herald user set-password`; the
    // fixed hash that keeps unknown emails as slow as known ones must not become their password.
    const { userId } = await seedWorkspace(env, { email: `nopassword-${kind}@example.com` });
    expect((await env.services.db('users').where({ id: userId }).first('password_hash')).password_hash).toBeNull();
    for (const guess of ['herald-unknown-user', '']) {
      const res = await request(env.app)
        .post('/auth/sign-in')
        .send({ email: `nopassword-${kind}@example.com`, password: guess });
      expect(res.status).toBe(401);
    }
  });

  it('lets the session read the API even on Free, where keys cannot', async () => {
    const { cookie } = await signIn();
    const res = await call(env, 'get', '/v1/whoami', { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(res.body.credential).toEqual({ kind: 'session', name: 'Dashboard session', scopes: ['read', 'write'] });
    expect((await call(env, 'get', '/v1/whoami', { key: free.readKey })).status).toBe(402);
  });

  it('needs the CSRF token for state changes, and Free cannot create groups', async () => {
    const { cookie, csrfToken } = await signIn();
    const acc = await addAccount(env, free.workspaceId, 'threads', 'Maria');
    const body = { name: 'Mine', accountIds: [acc] };
    const noToken = await call(env, 'post', '/v1/groups', { headers: { Cookie: cookie }, body });
    expect(noToken.status).toBe(403);
    expect(noToken.body.code).toBe('csrf_failed');
    const badToken = await call(env, 'post', '/v1/groups', {
      headers: { Cookie: cookie, 'X-CSRF-Token': 'forged' },
      body,
    });
    expect(badToken.status).toBe(403);
    const res = await call(env, 'post', '/v1/groups', { headers: { Cookie: cookie, 'X-CSRF-Token': csrfToken }, body });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({
      code: 'quota_exceeded',
      upgradeUrl: expect.stringContaining('/app/settings/billing'),
    });
    expect(res.body.message).toMatch(/Creator/);
  });

  it('ends the session the browser carried on sign-in, on the dashboard and on the consent page', async () => {
    // A session planted in the browser (fixation) or left there by another person must not outlive a sign-in.
    const carried = (await signIn()).cookie;
    const fresh = await request(env.app).post('/auth/sign-in').set('Cookie', carried).send({ email, password });
    expect(fresh.status).toBe(200);
    const next = fresh.headers['set-cookie']![0]!.split(';')[0]!;
    expect(next).not.toBe(carried);
    expect((await request(env.app).get('/auth/session').set('Cookie', carried)).status).toBe(401);
    expect((await request(env.app).get('/auth/session').set('Cookie', next)).status).toBe(200);

    const consent = await request(env.app)
      .post('/oauth/sign-in')
      .type('form')
      .set('Cookie', next)
      .send({ email, password, next: '/oauth/authorize?client_id=x' });
    expect(consent.status).toBe(303);
    const third = consent.headers['set-cookie']![0]!.split(';')[0]!;
    expect((await request(env.app).get('/auth/session').set('Cookie', next)).status).toBe(401);
    expect((await request(env.app).get('/auth/session').set('Cookie', third)).status).toBe(200);

    // A failed sign-in ends nothing.
    const wrong = await request(env.app)
      .post('/auth/sign-in')
      .set('Cookie', third)
      .send({ email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect((await request(env.app).get('/auth/session').set('Cookie', third)).status).toBe(200);
  });

  it('signs out: the cookie stops working', async () => {
    const { cookie, csrfToken } = await signIn();
    expect((await request(env.app).post('/auth/sign-out').set('Cookie', cookie)).status).toBe(403);
    expect(
      (await request(env.app).post('/auth/sign-out').set('Cookie', cookie).set('X-CSRF-Token', csrfToken)).status,
    ).toBe(204);
    expect((await call(env, 'get', '/v1/whoami', { headers: { Cookie: cookie } })).status).toBe(401);
    expect((await request(env.app).get('/auth/session').set('Cookie', cookie)).status).toBe(401);
  });
});
