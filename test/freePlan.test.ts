// The Free plan as the contract states it: it publishes from the dashboard within its 20 posts a month
// (the spec's "publishing needs a paid plan" is read as: through the API, which Free lacks); every call
// with a Free workspace's key answers 402 quota_exceeded, and nothing is created.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPasswordHash } from '../db/identity.ts';
import { hashPassword } from '../signin/passwords.ts';
import { startWorker, type RunningWorker } from '../worker/worker.ts';
import { call, dashboardSession, DATABASES, seedWorkspace, type Seeded } from './support/harness.ts';
import { listeningHerald, sandboxAccount } from './support/network.ts';
import { until } from './support/waiting.ts';
import { fillMonth } from './support/posts.ts';

describe.each(DATABASES)('the Free plan on %s', (kind) => {
  let env: Awaited<ReturnType<typeof listeningHerald>>;
  let free: Seeded;
  let worker: RunningWorker;
  const email = `free-${kind}@example.com`;
  const password = 'a long enough password';

  beforeAll(async () => {
    env = await listeningHerald(kind);
    free = await seedWorkspace(env, { plan: 'free', email });
    await setPasswordHash(env.services.db, free.userId, await hashPassword(password));
    worker = await startWorker(env.services, { watchEveryMs: 200 });
  });
  afterAll(async () => {
    await worker.stop();
    await env.close();
  });

  it('publishes from the dashboard within 20 posts a month; its API keys create nothing', async () => {
    const account = await sandboxAccount(env, free.workspaceId, 'threads');
    const body = {
      targets: { accountIds: [account.id] },
      mediaIds: [],
      text: 'Fresh from the Free plan.',
      when: 'now',
      confirm: true,
    };
    const listed = async () =>
      (await env.services.db('posts').where({ workspace_id: free.workspaceId }).count({ n: '*' }).first())?.n;

    const byKey = await call(env, 'post', '/v1/posts', { key: free.writeKey, body });
    expect(byKey.status).toBe(402);
    expect(byKey.body).toMatchObject({ code: 'quota_exceeded', message: 'The free plan has no REST API access.' });
    expect(Number(await listed())).toBe(0);

    const { cookie, csrfToken } = await dashboardSession(env, email, password);
    const dashboard = { Cookie: cookie, 'X-CSRF-Token': csrfToken };
    const created = await call(env, 'post', '/v1/posts', { headers: dashboard, body });
    expect(created.status).toBe(201);
    const id = created.body.posts[0].id;
    const read = () => call(env, 'get', `/v1/posts/${id}`, { headers: dashboard }).then((r) => r.body);
    const post = await until(read, (p) => p.status !== 'queued');
    expect(post).toMatchObject({
      status: 'live',
      createdVia: 'dashboard',
      externalUrl: expect.stringMatching(/^http/),
    });

    await fillMonth(env, free.workspaceId, account.id, 'threads', 18);
    expect((await call(env, 'post', '/v1/posts', { headers: dashboard, body })).status).toBe(201);
    const over = await call(env, 'post', '/v1/posts', { headers: dashboard, body });
    expect(over.status).toBe(402);
    expect(over.body).toMatchObject({ code: 'quota_exceeded', limit: 20, used: 20 });
  });
});
