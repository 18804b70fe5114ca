// SIGNUP: who may create an account at /app/sign-up. Unset, the first visitor claims a fresh instance and
// everyone after joins by invitation; `open` lets anyone in, `invite` no one but the invited. The refusal is one
// {code, message, hint} for every email, so it tells no one who has an account.
import { afterEach, describe, expect, it } from 'vitest';
import request from 'supertest';
import { loadConfig, type SignUpPolicy } from '../runtime/config.ts';
import { startupBanner } from '../server/banner.ts';
import { addPerson } from './support/people.ts';
import { DATABASES, seedWorkspace, startHerald, type TestEnv } from './support/harness.ts';

const signUp = (env: TestEnv, email: string) =>
  request(env.app)
    .post('/auth/sign-up')
    .send({ email, name: 'Ana Ruiz', password: 'correct horse battery', timeZone: 'Europe/Lisbon' });

const users = async (env: TestEnv) => Number((await env.services.db('users').count({ n: '*' }).first())?.n);

const closed = {
  code: 'sign_up_closed',
  message: 'This Herald instance takes new accounts by invitation only.',
  hint: expect.stringContaining("Ask your workspace's owner for an invitation"),
};

describe('SIGNUP in the environment', () => {
  it('reads open and invite, defaults to the first account only, and refuses anything else', () => {
    expect(loadConfig({}).signUp).toBe('first-account');
    expect(loadConfig({ SIGNUP: 'open' }).signUp).toBe('open');
    expect(loadConfig({ SIGNUP: 'invite' }).signUp).toBe('invite');
    expect(() => loadConfig({ SIGNUP: 'closed' })).toThrow(/SIGNUP must be "open" or "invite"/);
  });

  it('greets a fresh instance with the way to its first account: sign-up, or the command line when invite', () => {
    const banner = (SIGNUP?: string) => startupBanner(loadConfig({ SIGNUP }), { firstUser: true, worker: true });
    expect(banner()).toContain('Next step: create the first account at http://localhost:8080/app/sign-up');
    expect(banner('invite')).toContain('Next step: SIGNUP=invite, so create the first workspace with `bin/herald');
    expect(banner('invite')).not.toContain('/app/sign-up');
  });
});

describe.each(DATABASES)('sign-up policy on %s', (kind) => {
  let env: TestEnv;
  const start = async (signUpPolicy?: SignUpPolicy) => {
    env = await startHerald(kind, signUpPolicy ? { signUp: signUpPolicy } : {});
  };
  afterEach(() => env.close());

  it('unset: the first account signs up, then sign-up closes for new and taken emails alike', async () => {
    await start();
    expect((await request(env.app).get('/auth/sign-up')).body).toEqual({ open: true, firstUser: true });
    expect((await signUp(env, 'ana@example.com')).status).toBe(202);
    expect((await request(env.app).get('/auth/sign-up')).body).toEqual({ open: false, firstUser: false });
    const fresh = await signUp(env, 'bea@example.com');
    const taken = await signUp(env, 'ana@example.com');
    expect(fresh.status).toBe(403);
    expect(fresh.body).toEqual(closed);
    expect(taken.body).toEqual(fresh.body);
    expect(await users(env)).toBe(1);
  });

  it('unset: of first sign-ups side by side, one claims the instance and the others are refused', async () => {
    await start();
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => signUp(env, `first${i}@example.com`)));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 403, 403, 403, 403]);
    expect(await users(env)).toBe(1);
  });

  it('invite: refuses even the first sign-up, while an invitation still brings a person in', async () => {
    await start('invite');
    expect((await request(env.app).get('/auth/sign-up')).body).toEqual({ open: false, firstUser: true });
    expect((await signUp(env, 'ana@example.com')).body).toEqual(closed);
    const ws = await seedWorkspace(env, { plan: 'agency' });
    await addPerson(env, ws.workspaceId, 'member');
    expect(await users(env)).toBe(2);
  });

  it('open: anyone signs up, after the first account too', async () => {
    await start('open');
    await seedWorkspace(env);
    expect((await request(env.app).get('/auth/sign-up')).body).toEqual({ open: true, firstUser: false });
    expect((await signUp(env, 'ana@example.com')).status).toBe(202);
    expect(await users(env)).toBe(2);
  });
});
