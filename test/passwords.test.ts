// Password reset by an emailed single-use link and password change while signed in; mail goes through a
// real SMTP server (smtp-server) on a local port, as it would with SMTP_URL set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { setPasswordHash } from '../db/identity.ts';
import { createPasswordReset } from '../db/passwords.ts';
import { loadConfig } from '../runtime/config.ts';
import { hashPassword } from '../signin/passwords.ts';
import { SIGN_IN_LIMITS } from '../signin/passwordSignIn.ts';
import { linkToken } from '../server/signedLinks.ts';
import { call, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import { mailbox } from './support/mailbox.ts';
import { asPerson, signedIn } from './support/people.ts';

const linkIn = (text: string, path: string) => new RegExp(`https?://\\S+${path}\\?token=(\\S+)`).exec(text)![1]!;

describe('SMTP_URL in the environment', () => {
  it('takes smtp:// and smtps:// addresses and refuses others at start, without repeating the password', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://ana:s3cret@mail.example.com:587' }).mail.smtpUrl).toBe(
      'smtp://ana:s3cret@mail.example.com:587',
    );
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example.com' }).mail.smtpUrl).toBe('smtps://mail.example.com');
    expect(loadConfig({}).mail.smtpUrl).toBeUndefined();
    for (const bad of ['mail.example.com:587', 'https://ana:s3cret@mail.example.com', 'ana:s3cret@mail'])
      expect(() => loadConfig({ SMTP_URL: bad })).toThrow(
        /^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ address, like smtp:\/\/user:password@host:587$/,
      );
  });
});

describe.each(DATABASES)('passwords on %s', (kind) => {
  let env: TestEnv;
  let mail: Awaited<ReturnType<typeof mailbox>>;
  let ws: Seeded;
  const email = `reset-${kind}@example.com`;

  beforeAll(async () => {
    mail = await mailbox();
    env = await startHerald(kind, { mail: { smtpUrl: mail.url, from: 'Herald <herald@example.com>' } });
    ws = await seedWorkspace(env, { plan: 'studio', email });
    await setPasswordHash(env.services.db, ws.userId, await hashPassword('the old password'));
  });
  afterAll(async () => {
    await env.close();
    await mail.close();
  });

  const signIn = (password: string) => request(env.app).post('/auth/sign-in').send({ email, password });

  it('resets a forgotten password by a mailed single-use link, ending every session', async () => {
    const sessions = [await signedIn(env, ws.userId, ws.workspaceId), await signedIn(env, ws.userId, ws.workspaceId)];
    const asked = await request(env.app).post('/auth/password-reset').send({ email: email.toUpperCase() });
    expect(asked.status).toBe(202);
    const unknown = await request(env.app)
      .post('/auth/password-reset')
      .send({ email: `nobody-${kind}@example.com` });
    expect(unknown.status).toBe(202);
    expect(unknown.body.message.replace(`nobody-${kind}`, 'x')).toBe(asked.body.message.replace(`reset-${kind}`, 'x'));

    const received = await mail.next();
    expect(received.to).toBe(email);
    const token = decodeURIComponent(linkIn(received.text, '/app/reset-password'));
    // The page asks first whether the link still works, before a new password is typed.
    const check = (t: string) => request(env.app).get('/auth/password-reset').query({ token: t });
    const fresh = await check(token);
    expect(fresh.status).toBe(200);
    expect(Date.parse(fresh.body.expiresAt) - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(
      (await request(env.app).post('/auth/password-reset/confirm').send({ token, password: 'short' })).status,
    ).toBe(400);
    expect(
      (await request(env.app).post('/auth/password-reset/confirm').send({ token, password: 'the new password' }))
        .status,
    ).toBe(204);
    for (const s of sessions)
      expect((await call(env, 'get', '/v1/whoami', { headers: { Cookie: s.cookie } })).status).toBe(401);
    expect((await signIn('the old password')).status).toBe(401);
    expect((await signIn('the new password')).status).toBe(200);

    const reused = await request(env.app)
      .post('/auth/password-reset/confirm')
      .send({ token, password: 'another new one' });
    expect(reused.body).toMatchObject({
      code: 'reset_unusable',
      message: expect.stringContaining('already used'),
      actual: 'used',
    });
    const used = await check(token);
    expect(used.status).toBe(410);
    expect(used.body).toMatchObject({
      code: 'reset_unusable',
      message: 'This password reset link was already used.',
      hint: 'Ask for a new link from the sign-in page.',
    });
    // Another reset's id under this link's signature: altered.
    const altered = token.replace(/^rst_[^.]+/, 'rst_0000000000000000000000');
    for (const bad of ['', 'x.y', altered])
      expect((await check(bad)).body).toMatchObject({
        code: 'reset_unusable',
        message: 'This password reset link is incomplete or was altered.',
        actual: 'altered',
      });
    expect((await request(env.app).get('/auth/password-reset')).status).toBe(410);
    const forged = await request(env.app)
      .post('/auth/password-reset/confirm')
      .send({ token: token.replace(/\.\S$/, '.x'), password: 'another new one' });
    expect(forged.status).toBe(410);
  });

  it('says an expired reset link expired, before and after a password is typed, and changes nothing', async () => {
    const other = await seedWorkspace(env, { plan: 'studio', email: `expired-${kind}@example.com` });
    const reset = await createPasswordReset(env.services.db, other.userId);
    await env.services.db('password_resets').where({ id: reset.id }).update({ expires_at: '2020-01-01T00:00:00.000Z' });
    const token = linkToken(env.services.keyring, 'password-resets', reset.id);
    const expired = {
      code: 'reset_unusable',
      message: 'This password reset link expired (links last 60 minutes).',
      actual: 'expired',
    };
    const checked = await request(env.app).get('/auth/password-reset').query({ token });
    expect(checked.status).toBe(410);
    expect(checked.body).toMatchObject(expired);
    const confirmed = await request(env.app)
      .post('/auth/password-reset/confirm')
      .send({ token, password: 'too late a password' });
    expect(confirmed.status).toBe(410);
    expect(confirmed.body).toMatchObject(expired);
    expect((await env.services.db('password_resets').where({ id: reset.id }).first()).used_at).toBeNull();
  });

  it('changes the password while signed in, ending the other sessions only', async () => {
    const here = await signedIn(env, ws.userId, ws.workspaceId);
    const elsewhere = await signedIn(env, ws.userId, ws.workspaceId);
    const wrong = await asPerson(env, here, 'post', '/auth/password', {
      currentPassword: 'nope',
      newPassword: 'a changed password',
    });
    expect(wrong.body.code).toBe('wrong_password');
    const res = await asPerson(env, here, 'post', '/auth/password', {
      currentPassword: 'the new password',
      newPassword: 'a changed password',
    });
    expect(res.status).toBe(200);
    expect(res.body.otherSessionsEnded).toBeGreaterThanOrEqual(1);
    expect((await call(env, 'get', '/v1/whoami', { headers: { Cookie: here.cookie } })).status).toBe(200);
    expect((await call(env, 'get', '/v1/whoami', { headers: { Cookie: elsewhere.cookie } })).status).toBe(401);
    expect((await signIn('a changed password')).status).toBe(200);
  });

  it('checks the current password under the sign-in limits: past 10 wrong ones for the email, 429', async () => {
    const guessed = await seedWorkspace(env, { plan: 'studio', email: `guessed-${kind}@example.com` });
    await setPasswordHash(env.services.db, guessed.userId, await hashPassword('the right password'));
    // A session taken over without the password: the password change must not become a way to guess it.
    const thief = await signedIn(env, guessed.userId, guessed.workspaceId);
    const change = (currentPassword: string) =>
      asPerson(env, thief, 'post', '/auth/password', { currentPassword, newPassword: 'the thief password' });
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i += 1) expect((await change(`guess number ${i}`)).status).toBe(403);
    const limited = await change('the right password');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('for this email') });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // One count per email, whichever route checks the password.
    const signIn = await request(env.app)
      .post('/auth/sign-in')
      .send({ email: `guessed-${kind}@example.com`, password: 'the right password' });
    expect(signIn.status).toBe(429);
  });

  it('mails invitations through SMTP too', async () => {
    const owner = await signedIn(env, ws.userId, ws.workspaceId);
    const res = await asPerson(env, owner, 'post', '/auth/invites', {
      email: `guest-${kind}@example.com`,
      role: 'member',
    });
    expect(res.body.delivered).toBe('smtp');
    const received = await mail.next();
    expect(received.to).toBe(`guest-${kind}@example.com`);
    expect(decodeURIComponent(linkIn(received.text, '/app/invite'))).toBe(
      new URL(res.body.link).searchParams.get('token'),
    );
  });
});
