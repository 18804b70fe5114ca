// The dashboard's session-only routes: sign-up (a person and a Free workspace in their zone), the
// sign-in limits per address and per email, and disconnecting an account (queued posts back to draft).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import request from 'supertest';
import { DateTime } from 'luxon';
import { findWorkspace } from '../db/identity.ts';
import { workspaceData } from '../db/workspaceData.ts';
import { SIGN_IN_LIMITS } from '../signin/passwordSignIn.ts';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { mailbox } from './support/mailbox.ts';

const password = 'correct horse battery';

async function signUp(env: TestEnv, body: Record<string, unknown>) {
  return request(env.app)
    .post('/auth/sign-up')
    .send({ name: 'Ana Ruiz', password, timeZone: 'America/Lima', ...body });
}

async function signIn(env: TestEnv, email: string) {
  const res = await request(env.app).post('/auth/sign-in').send({ email, password });
  expect(res.status).toBe(200);
  return { cookie: res.headers['set-cookie']![0]!.split(';')[0]!, csrf: res.body.csrfToken as string };
}

/** The workspace a person's sign-in opens: sign-up's answer names none (it must read alike for a taken email). */
async function workspaceOf(env: TestEnv, email: string): Promise<string> {
  const { cookie } = await signIn(env, email);
  return (await call(env, 'get', '/v1/whoami', { headers: { Cookie: cookie } })).body.workspace.id;
}

describe.each(DATABASES)('dashboard sign-up on %s', (kind) => {
  let env: TestEnv;
  let mail: Awaited<ReturnType<typeof mailbox>>;
  beforeAll(async () => {
    mail = await mailbox();
  });
  afterAll(() => mail.close());
  beforeEach(async () => {
    // Open to all: these tests sign up several people (signUpPolicy.test.ts tries the other policies).
    env = await startHerald(kind, { mail: { smtpUrl: mail.url, from: 'Herald <herald@example.com>' }, signUp: 'open' });
  });
  afterEach(() => env.close());

  it('sends the first visitor to sign-up, then creates a person and a Free workspace in their zone', async () => {
    expect((await request(env.app).get('/auth/sign-up')).body).toEqual({ open: true, firstUser: true });
    const res = await signUp(env, { email: 'Ana@Example.com' });
    expect(res.status).toBe(202);
    expect(res.body.message).toContain('ana@example.com');
    expect((await request(env.app).get('/auth/sign-up')).body).toEqual({ open: true, firstUser: false });
    const { cookie } = await signIn(env, 'ana@example.com');
    const who = await call(env, 'get', '/v1/whoami', { headers: { Cookie: cookie } });
    expect(who.body.workspace).toMatchObject({ plan: 'free', tz: 'America/Lima', name: "Ana Ruiz's workspace" });
    expect(who.body.user.name).toBe('Ana Ruiz');
  });

  it('answers a taken email as a new one, changes nothing, and mails the address instead', async () => {
    const first = await signUp(env, { email: 'ana@example.com' });
    const taken = await signUp(env, { email: 'ANA@example.com', name: 'Not Ana', password: 'a stranger password' });
    const fresh = await signUp(env, { email: 'bea@example.com' });
    expect([first.status, taken.status, fresh.status]).toEqual([202, 202, 202]);
    expect(taken.body).toEqual(first.body);
    expect(fresh.body.message.replace('bea@', 'ana@')).toBe(taken.body.message);
    const note = await mail.next();
    expect(note.to).toBe('ana@example.com');
    expect(note.text).toContain('already has one');
    expect(note.text).toContain(`${env.config.publicUrl}/app/forgot-password`);
    // Ana's account is as it was: her password, her one workspace.
    expect(
      (await request(env.app).post('/auth/sign-in').send({ email: 'ana@example.com', password: 'a stranger password' }))
        .status,
    ).toBe(401);
    expect(
      (await call(env, 'get', '/v1/whoami', { headers: { Cookie: (await signIn(env, 'ana@example.com')).cookie } }))
        .body.user.name,
    ).toBe('Ana Ruiz');
    expect(Number((await env.services.db('members').count({ n: '*' }).first())?.n)).toBe(2);
    // A second try within the minute mails nothing more: the form cannot flood a mailbox. The notice of another taken
    // address, asked for after it, is the next mail to arrive, and nothing beside it.
    expect((await signUp(env, { email: 'ana@example.com' })).status).toBe(202);
    expect((await signUp(env, { email: 'bea@example.com' })).status).toBe(202);
    expect((await mail.next()).to).toBe('bea@example.com');
    expect(mail.pending()).toBe(0);
  });

  it('refuses each malformed field with invalid_request, creating nothing', async () => {
    expect((await signUp(env, { email: 'ana@example.com' })).status).toBe(202);
    for (const [body, field] of [
      [{ email: 'not-an-email' }, 'email'],
      [{ email: 'b@example.com', name: ' ' }, 'name'],
      [{ email: 'b@example.com', password: 'short' }, 'password'],
      [{ email: 'b@example.com', timeZone: 'Mars/Olympus' }, 'timeZone'],
    ] as const) {
      const res = await signUp(env, body);
      expect(res.status, field).toBe(400);
      expect(res.body).toMatchObject({
        code: 'invalid_request',
        message: expect.stringContaining(field),
        hint: expect.any(String),
      });
    }
    const bad = await request(env.app).post('/auth/sign-up').set('Content-Type', 'application/json').send('{"email":');
    expect(bad.status).toBe(400);
    expect(Number((await env.services.db('users').count({ n: '*' }).first())?.n)).toBe(1);
  });

  it('makes one person of parallel sign-ups with one email; the others answer as after the race', async () => {
    const sameEmail = await Promise.all(
      Array.from({ length: 6 }, (_, i) => signUp(env, { email: 'ana@example.com', name: `Ana ${i}` })),
    );
    // Every one answers as any sign-up does (taken or not, item 16), never a fault, and one person is made.
    const after = await signUp(env, { email: 'ana@example.com' });
    for (const res of sameEmail)
      expect({ status: res.status, body: res.body }).toEqual({ status: 202, body: after.body });
    expect(Number((await env.services.db('users').count({ n: '*' }).first())?.n)).toBe(1);
    expect(Number((await env.services.db('workspaces').count({ n: '*' }).first())?.n)).toBe(1);
  });

  it('gives parallel sign-ups with one name workspaces with distinct slugs', async () => {
    const sameName = await Promise.all(
      Array.from({ length: 6 }, (_, i) => signUp(env, { email: `bo${i}@example.com`, name: 'Bo' })),
    );
    expect(sameName.map((res) => res.status)).toEqual(Array(6).fill(202));
    const slugs = await env.services.db('workspaces').where({ name: "Bo's workspace" }).pluck('slug');
    expect(new Set(slugs).size).toBe(6);
  });

  it('hears an email of any length at both sign-in forms as a wrong password, never a fault', async () => {
    const email = `${'a'.repeat(240)}@example.com`;
    const dashboard = await request(env.app).post('/auth/sign-in').send({ email, password });
    expect(dashboard.status).toBe(401);
    const consent = await request(env.app)
      .post('/oauth/sign-in')
      .type('form')
      .set('Accept', 'application/json')
      .send({ email, password, next: '/oauth/authorize?client_id=unknown' });
    expect(consent.status).toBe(401);
  });

  it(`limits sign-in per email (${SIGN_IN_LIMITS.perEmail}) and address (${SIGN_IN_LIMITS.perAddress})`, async () => {
    await signUp(env, { email: 'ana@example.com' });
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i += 1) {
      expect(
        (await request(env.app).post('/auth/sign-in').send({ email: 'ana@example.com', password: 'wrong wrong wrong' }))
          .status,
      ).toBe(401);
    }
    const limited = await request(env.app).post('/auth/sign-in').send({ email: 'ANA@example.com', password });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('for this email') });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Other emails from the same address are still heard, up to the address's own limit (sign-up counted too).
    for (let i = SIGN_IN_LIMITS.perEmail + 2; i < SIGN_IN_LIMITS.perAddress; i += 1) {
      expect(
        (
          await request(env.app)
            .post('/auth/sign-in')
            .send({ email: `nobody${i}@example.com`, password })
        ).status,
      ).toBe(401);
    }
    const byAddress = await request(env.app).post('/auth/sign-in').send({ email: 'someone@example.com', password });
    expect(byAddress.status).toBe(429);
    expect(byAddress.body.message).toContain('from this address');
  });

  it('counts invitation acceptances against the address limit, as sign-ups', async () => {
    // Each refusal may tell whoever holds a link whether its address has an account: their number is bounded.
    const accept = () => request(env.app).post('/auth/invites/accept').send({ token: 'inv_x.y', name: 'N', password });
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i += 1) expect((await accept()).status).toBe(410);
    const limited = await accept();
    expect(limited.status).toBe(429);
    expect(limited.body.message).toContain('from this address');
  });

  it("counts the MCP consent page's sign-in against the same limits, and refuses it past them alike", async () => {
    await signUp(env, { email: 'ana@example.com' });
    const next = '/oauth/authorize?client_id=unknown&response_type=code';
    const consentSignIn = (body: Record<string, string>) =>
      request(env.app)
        .post('/oauth/sign-in')
        .type('form')
        .set('Accept', 'application/json')
        .send({ ...body, next });
    // Wrong passwords through both forms: one count per email.
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i += 1) {
      const res =
        i % 2
          ? await consentSignIn({ email: 'ana@example.com', password: 'wrong wrong wrong' })
          : await request(env.app)
              .post('/auth/sign-in')
              .send({ email: 'ana@example.com', password: 'wrong wrong wrong' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 'unauthenticated',
        message: 'The email or password is wrong.',
        hint: 'Check both and try again.',
      });
    }
    const consent = await consentSignIn({ email: 'Ana@example.com', password });
    const dashboard = await request(env.app).post('/auth/sign-in').send({ email: 'ana@example.com', password });
    expect(consent.status).toBe(429);
    expect(consent.headers['set-cookie']).toBeUndefined();
    expect(Number(consent.headers['retry-after'])).toBeGreaterThan(0);
    expect(dashboard.status).toBe(429);
    // The same answer; only the wait (its seconds, its instant) may have ticked between the two requests.
    const waitless = ({ retryAt, ...body }: { hint: string; retryAt: string }) => {
      expect(Math.abs(Date.parse(retryAt) - Date.parse(dashboard.body.retryAt))).toBeLessThan(5_000);
      return { ...body, hint: body.hint.replace(/\d+/, 'N') };
    };
    expect(waitless(consent.body)).toEqual(waitless(dashboard.body));
    expect(consent.body).toMatchObject({
      code: 'rate_limited',
      message: expect.stringContaining('for this email'),
      hint: expect.stringMatching(/^Wait \d+ seconds, then try again\.$/),
    });
    // A person at the consent page reads the same refusal on the page.
    const page = await request(env.app)
      .post('/oauth/sign-in')
      .type('form')
      .set('Accept', 'text/html')
      .send({ email: 'ana@example.com', password, next });
    expect(page.status).toBe(200);
    expect(page.text).toContain(consent.body.message);
  });
});

describe.each(DATABASES)('disconnecting an account on %s', (kind) => {
  let env: TestEnv;
  let workspaceId: string;
  let other: Seeded;
  let session: { cookie: string; csrf: string };
  beforeAll(async () => {
    env = await startHerald(kind);
    await signUp(env, { email: 'ana@example.com' });
    workspaceId = await workspaceOf(env, 'ana@example.com');
    // Creator: room for more accounts than Free's two.
    await env.services.db('workspaces').where({ id: workspaceId }).update({ plan: 'creator' });
    session = await signIn(env, 'ana@example.com');
    other = await seedWorkspace(env);
  });
  afterAll(() => env.close());

  const disconnect = (
    accountId: string,
    opts: { body?: unknown; csrf?: string | null; headers?: Record<string, string> } = {},
  ) => {
    let req = request(env.app).post(`/auth/accounts/${accountId}/disconnect`).set('Cookie', session.cookie);
    if (opts.csrf !== null) req = req.set('X-CSRF-Token', opts.csrf ?? session.csrf);
    for (const [n, v] of Object.entries(opts.headers ?? {})) req = req.set(n, v);
    return req.send((opts.body ?? { confirm: true }) as object);
  };

  it('says how many queued posts go back to draft, then disconnects; the posts stay', async () => {
    const accountId = await addAccount(env, workspaceId, 'threads', 'acme');
    const keep = await addAccount(env, workspaceId, 'facebook', 'acme page');
    const workspace = (await findWorkspace(env.services.db, workspaceId))!;
    const data = workspaceData(env.services.db, workspace, env.services.clock);
    await data.groups.create('Both', [accountId, keep]);
    const at = DateTime.utc().plus({ days: 2 }).toFormat("yyyy-LL-dd'T'HH:mm");
    const created = await call(env, 'post', '/v1/posts', {
      headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrf },
      body: {
        targets: { accountIds: [accountId, keep] },
        mediaIds: [],
        text: 'Hello',
        when: { publishAt: at, timezone: 'UTC' },
        confirm: true,
      },
    });
    expect(created.status).toBe(201);
    const [mine, kept] = created.body.posts.map((p: { id: string }) => p.id);

    const preview = await request(env.app).get(`/auth/accounts/${accountId}/disconnect`).set('Cookie', session.cookie);
    expect(preview.body).toMatchObject({ account: { id: accountId, displayName: 'acme' }, queuedPosts: 1 });
    const res = await disconnect(accountId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cancelledPosts: 1, publishing: [] });

    const headers = { Cookie: session.cookie };
    expect(
      (await call(env, 'get', '/v1/accounts', { headers })).body.accounts.map((a: { id: string }) => a.id),
    ).toEqual([keep]);
    expect((await call(env, 'get', '/v1/groups', { headers })).body.groups[0].accountIds).toEqual([keep]);
    const post = await call(env, 'get', `/v1/posts/${mine}`, { headers });
    expect(post.body).toMatchObject({ status: 'draft', publishAt: null, accountId });
    const events = await call(env, 'get', `/v1/posts/${mine}/events`, { headers });
    expect(events.body.events.at(-1)).toMatchObject({
      kind: 'cancelled',
      reason: 'accountDisconnected',
      message: expect.stringContaining('account was disconnected'),
    });
    expect((await call(env, 'get', `/v1/posts/${kept}`, { headers })).body.status).toBe('queued');
    expect((await disconnect(accountId)).status).toBe(404);
  });

  it('reconnecting the same account brings it back, counted again', async () => {
    const accountId = await addAccount(env, workspaceId, 'youtube', 'channel');
    const external = (await env.services.db('accounts').where({ id: accountId }).first()).external_id;
    expect((await disconnect(accountId)).status).toBe(200);
    const workspace = (await findWorkspace(env.services.db, workspaceId))!;
    const data = workspaceData(env.services.db, workspace, env.services.clock);
    await data.accounts.connect('youtube', [
      { externalId: external, displayName: 'channel', tokenSealed: 'x', tokenExpiresAt: null },
    ]);
    expect((await data.accounts.get(accountId))?.status).toBe('ok');
  });

  it("needs confirm, CSRF and a session (never a key); another workspace's account is not found", async () => {
    const accountId = await addAccount(env, workspaceId, 'facebook', 'page');
    // Through call(), so the refusal is checked against auth.yaml too.
    const unconfirmed = await call(env, 'post', `/auth/accounts/${accountId}/disconnect`, {
      headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrf },
      body: {},
    });
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body.code).toBe('confirm_required');
    expect((await env.services.db('accounts').where({ id: accountId }).first()).disconnected_at).toBeNull();
    expect((await disconnect(accountId, { csrf: null })).body.code).toBe('csrf_failed');
    expect((await disconnect(accountId, { csrf: 'forged' })).status).toBe(403);
    const byKey = await request(env.app)
      .post(`/auth/accounts/${accountId}/disconnect`)
      .set('Authorization', `Bearer ${other.writeKey}`)
      .send({ confirm: true });
    expect(byKey.status).toBe(401);
    const withKeyToo = await disconnect(accountId, { headers: { Authorization: `Bearer ${other.readKey}` } });
    expect(withKeyToo.status).toBe(401);
    expect((await request(env.app).get(`/auth/accounts/${accountId}/disconnect`)).status).toBe(401);
    const foreign = await addAccount(env, other.workspaceId, 'threads', 'theirs');
    const res = await disconnect(foreign);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect(
      (await request(env.app).get(`/auth/accounts/${foreign}/disconnect`).set('Cookie', session.cookie)).status,
    ).toBe(404);
    expect((await env.services.db('accounts').where({ id: foreign }).first()).disconnected_at).toBeNull();
  });
});

describe('the session cookie behind https', () => {
  it('is HttpOnly, SameSite=Lax and Secure when PUBLIC_URL is https', async () => {
    const env = await startHerald('sqlite', { publicUrl: 'https://herald.example.com' });
    try {
      await signUp(env, { email: 'ana@example.com' });
      const res = await request(env.app).post('/auth/sign-in').send({ email: 'ana@example.com', password });
      expect(res.headers['set-cookie']![0]).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    } finally {
      await env.close();
    }
  });
});
