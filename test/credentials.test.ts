// One credential per request: a bearer key wins over a session cookie and the two never mix; a request
// without a credential never reaches a handler; scope, plan and CSRF checks always run. Includes a read key
// beside a session cookie on POST /posts/plan, which must be answered as the key alone.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../db/identity.ts';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { seedMedia } from './support/posts.ts';

describe.each(DATABASES)('one credential per request on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let other: Seeded;
  let free: Seeded;
  let account: string;
  let image: string;
  let otherSession: string;

  beforeAll(async () => {
    env = await startHerald(kind);
    ws = await seedWorkspace(env);
    other = await seedWorkspace(env);
    free = await seedWorkspace(env, { plan: 'free' });
    account = await addAccount(env, ws.workspaceId, 'threads', 'Acme Threads');
    image = await seedMedia(env, ws.workspaceId);
    otherSession = (await createSession(env.services.db, other.userId, other.workspaceId)).token;
  });
  afterAll(() => env.close());

  const planBody = () => ({
    targets: { accountIds: [account] },
    mediaIds: [image],
    text: 'Autumn sale.',
    when: { publishAt: DateTime.now().plus({ days: 3 }).toFormat("yyyy-MM-dd'T'HH:mm"), timezone: 'Europe/Berlin' },
  });

  it('answers a read key beside any session cookie as the key alone, and keeps serving', async () => {
    expect((await call(env, 'get', '/v1/whoami', { key: ws.readKey })).status).toBe(200);
    const cookie = { Cookie: 'herald_session=x' };
    const plan = await call(env, 'post', '/v1/posts/plan', { key: ws.readKey, headers: cookie, body: planBody() });
    expect(plan.status).toBe(200);
    expect(plan.body.rows).toHaveLength(1);
    const create = await call(env, 'post', '/v1/posts', {
      key: ws.readKey,
      headers: cookie,
      body: { ...planBody(), confirm: true },
    });
    expect(create.status).toBe(403);
    expect(create.body.code).toBe('insufficient_scope');
    expect((await call(env, 'get', '/v1/whoami', { key: ws.readKey })).status).toBe(200);
  });

  it('lets a bearer key win over a valid session cookie of another workspace', async () => {
    const res = await call(env, 'get', '/v1/whoami', {
      key: ws.readKey,
      headers: { Cookie: `herald_session=${otherSession}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.workspace.id).toBe(ws.workspaceId);
    expect(res.body.credential.kind).toBe('api_key');
  });

  it('never falls back to the cookie when the bearer key is wrong or malformed', async () => {
    for (const authorization of ['Bearer hld_wrong', 'Bearer', 'Bearer a b']) {
      const res = await call(env, 'get', '/v1/whoami', {
        headers: { Authorization: authorization, Cookie: `herald_session=${otherSession}` },
      });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    }
  });

  it('keeps the plan check for a key whatever cookie comes with it', async () => {
    const res = await call(env, 'get', '/v1/whoami', {
      key: free.readKey,
      headers: { Cookie: `herald_session=${otherSession}` },
    });
    expect(res.status).toBe(402);
  });

  it('keeps the CSRF check for a session, even when the request also carries a scheme other than Bearer', async () => {
    const res = await call(env, 'post', '/v1/groups', {
      headers: { Authorization: 'Basic dTpw', Cookie: `herald_session=${otherSession}` },
      body: { name: 'G', accountIds: [] },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_failed');
  });

  it('treats a cookie with a broken escape as no session', async () => {
    for (const cookie of ['herald_session=%zz', 'herald_session=%E0', 'herald_session=']) {
      const res = await call(env, 'post', '/v1/posts/plan', { headers: { Cookie: cookie }, body: planBody() });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    }
  });
});
