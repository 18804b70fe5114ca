// Webhooks, the API side: create (the secret shown once, kept sealed), list, read, change, delete, rotate the secret,
// queue a test event, the delivery log and redelivery; the plan gate, the limit of 25, scopes, workspace isolation and
// the address guard (public https only, no user name or password, no host name that resolves to a non-public address;
// WEBHOOK_ALLOW_HOSTS exempts test hosts). Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import { WEBHOOKS_PER_WORKSPACE } from '../domain/quotas.ts';
import { loadConfig } from '../runtime/config.ts';

describe.each(DATABASES)('webhooks on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let other: Seeded;

  beforeAll(async () => {
    env = await startHerald(kind, { webhooks: { ...loadConfig({}).webhooks, allowHosts: ['receiver.test'] } });
    ws = await seedWorkspace(env, { plan: 'studio' });
    other = await seedWorkspace(env, { plan: 'agency' });
  });
  afterAll(async () => {
    await env.close();
  });

  const create = (body: unknown, key = ws.writeKey) => call(env, 'post', '/v1/webhooks', { key, body });
  const url = 'https://example.com/herald-events';

  it('creates a webhook and shows its secret once, sealed at rest', async () => {
    const res = await create({ url, events: ['post.live', 'post.failed'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ url, events: ['post.live', 'post.failed'], enabled: true, disabledReason: null });
    expect(res.body.id).toMatch(/^whk_/);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.secret.slice(6), 'base64').length).toBe(32);

    const row = await env.services.db('webhooks').where({ id: res.body.id }).first();
    expect(JSON.stringify(row)).not.toContain(res.body.secret.slice(6));
    expect(env.services.keyring.decrypt(row.secret_sealed, 'webhook-secrets')).toBe(res.body.secret);

    const read = await call(env, 'get', `/v1/webhooks/${res.body.id}`, { key: ws.readKey });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ ...res.body, secret: undefined });
    expect(read.body.secret).toBeUndefined();
    const list = await call(env, 'get', '/v1/webhooks', { key: ws.readKey });
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toContain(res.body.id);
    expect(list.body.webhooks.every((w: object) => !('secret' in w))).toBe(true);
  });

  it('changes the address, the events and the state, and deletes', async () => {
    const { id } = (await create({ url, events: ['post.live'] })).body;
    const changed = await call(env, 'patch', `/v1/webhooks/${id}`, {
      key: ws.writeKey,
      body: { url: 'https://example.org/hook', events: ['media.ready'], enabled: false },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ url: 'https://example.org/hook', events: ['media.ready'], enabled: false });
    await env.services.db('webhooks').where({ id }).update({ disabled_reason: 'Every attempt failed.' });
    const enabled = await call(env, 'patch', `/v1/webhooks/${id}`, { key: ws.writeKey, body: { enabled: true } });
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });

    const gone = await call(env, 'delete', `/v1/webhooks/${id}`, { key: ws.writeKey });
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ id, deleted: true });
    expect((await call(env, 'get', `/v1/webhooks/${id}`, { key: ws.readKey })).status).toBe(404);
    expect((await call(env, 'delete', `/v1/webhooks/${id}`, { key: ws.writeKey })).status).toBe(404);
  });

  it('rotates the secret, keeping every secret of the last 24 hours beside the new one', async () => {
    const made = (await create({ url, events: ['post.live'] })).body;
    const res = await call(env, 'post', `/v1/webhooks/${made.id}/rotate-secret`, { key: ws.writeKey });
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(made.secret);
    const again = await call(env, 'post', `/v1/webhooks/${made.id}/rotate-secret`, { key: ws.writeKey });
    const row = await env.services.db('webhooks').where({ id: made.id }).first();
    const open = (sealed: string) => env.services.keyring.decrypt(sealed, 'webhook-secrets');
    const retired: { sealed: string; until: string }[] = JSON.parse(row.retired_secrets);
    expect([open(row.secret_sealed), ...retired.map((r) => open(r.sealed))]).toEqual([
      again.body.secret,
      res.body.secret,
      made.secret,
    ]);
    for (const r of retired) expect(Date.parse(r.until) - env.services.clock.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(JSON.stringify(row)).not.toContain(made.secret.slice(6));
  });

  it("keeps a keyed create's and rotation's answer sealed: no secret in the raw row, a replay shows it", async () => {
    const keyed = (key: string) => ({ key: ws.writeKey, headers: { 'Idempotency-Key': key } });
    const made = await call(env, 'post', '/v1/webhooks', { ...keyed('make-1'), body: { url, events: ['post.live'] } });
    expect(made.status).toBe(201);
    const path = `/v1/webhooks/${made.body.id}/rotate-secret`;
    const rotated = await call(env, 'post', path, keyed('rotate-1'));
    expect(rotated.status).toBe(200);
    const rows = await env.services.db('idempotency_keys').where({ workspace_id: ws.workspaceId });
    const stored = JSON.stringify(rows);
    expect(rows.map((r) => r.key).sort()).toEqual(['make-1', 'rotate-1']);
    for (const secret of [made.body.secret, rotated.body.secret]) {
      expect(stored).not.toContain(secret.slice(6));
      expect(stored).not.toContain(Buffer.from(secret.slice(6), 'base64').toString('hex'));
    }
    // A retry whose first answer was lost still gets the secret: the replay is that answer, said to be one.
    const replayed = await call(env, 'post', path, keyed('rotate-1'));
    expect([replayed.status, replayed.headers['idempotent-replayed']]).toEqual([200, 'true']);
    expect(replayed.body).toEqual(rotated.body);
    const remade = await call(env, 'post', '/v1/webhooks', {
      ...keyed('make-1'),
      body: { url, events: ['post.live'] },
    });
    expect(remade.body).toEqual(made.body);
  });

  it('queues a test event, lists deliveries newest first by cursor, and redelivers one', async () => {
    const { id } = (await create({ url, events: ['post.live'] })).body;
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(env, 'post', `/v1/webhooks/${id}/test`, { key: ws.writeKey });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ webhookId: id, type: 'webhook.test', status: 'pending', attempts: 0 });
      sent.push(res.body.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${cursor}` : '';
      const page = await call(env, 'get', `/v1/webhooks/${id}/deliveries?limit=2${q}`, { key: ws.readKey });
      expect(page.status).toBe(200);
      seen.push(...page.body.deliveries.map((d: { id: string }) => d.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(seen)).toEqual(new Set(sent));
    expect(seen.length).toBe(3);

    // A redelivery keeps the count and the log of the attempts before it.
    const first = sent[0]!;
    const log = [
      { attempt: 8, at: new Date().toISOString(), responseStatus: 503, responseBody: 'busy', durationMs: 9 },
    ];
    await env.services
      .db('webhook_deliveries')
      .where({ id: first })
      .update({ status: 'failed', attempts: 8, attempt_log: JSON.stringify(log) });
    const again = await call(env, 'post', `/v1/webhooks/${id}/deliveries/${first}/redeliver`, { key: ws.writeKey });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: first, status: 'pending', attempts: 8, attemptLog: log });

    const bad = await call(env, 'get', `/v1/webhooks/${id}/deliveries?cursor=nope`, { key: ws.readKey });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_request']);
    const missing = await call(env, 'post', `/v1/webhooks/${id}/deliveries/whd_nope/redeliver`, { key: ws.writeKey });
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
  });

  it('refuses addresses that are not public https, unless WEBHOOK_ALLOW_HOSTS names the host', async () => {
    for (const bad of [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://[::1]/hook',
      'https://169.254.169.254/latest',
      'ftp://example.com/hook',
      'not an address',
    ]) {
      const res = await create({ url: bad, events: ['post.live'] });
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, 'url_not_allowed']);
      expect(res.body.message).toContain('url:');
    }
    const { id } = (await create({ url, events: ['post.live'] })).body;
    const patched = await call(env, 'patch', `/v1/webhooks/${id}`, {
      key: ws.writeKey,
      body: { url: 'http://example.com/hook' },
    });
    expect([patched.status, patched.body.code]).toEqual([400, 'url_not_allowed']);
    // The exempt test host may even use plain http (a loopback receiver).
    expect((await create({ url: 'http://receiver.test:8080/hook', events: ['post.live'] })).status).toBe(201);
  });

  it('refuses a user name or password in the address, which every key that reads webhooks would see', async () => {
    for (const bad of ['https://user:secret@example.com/hook', 'https://user@example.com/hook']) {
      const res = await create({ url: bad, events: ['post.live'] });
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, 'invalid_request']);
      expect(res.body.message).toMatch(/^url: .*user name or password/);
    }
    const { id } = (await create({ url, events: ['post.live'] })).body;
    const patched = await call(env, 'patch', `/v1/webhooks/${id}`, {
      key: ws.writeKey,
      body: { url: 'https://user:secret@example.com/hook' },
    });
    expect([patched.status, patched.body.code]).toEqual([400, 'invalid_request']);
    const list = await call(env, 'get', '/v1/webhooks', { key: ws.readKey });
    expect(JSON.stringify(list.body)).not.toContain('secret@');
  });

  it('refuses at creation and change a host name that DNS resolves to a non-public address', async () => {
    for (const bad of ['https://localhost/hook', 'https://LOCALHOST./hook', 'https://localhost:8443/hook']) {
      const res = await create({ url: bad, events: ['post.live'] });
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, 'url_not_allowed']);
      expect(res.body.message).toContain('not public');
      expect(res.body.message).not.toMatch(/127\.0\.0\.1|::1/);
    }
    const { id } = (await create({ url, events: ['post.live'] })).body;
    const patched = await call(env, 'patch', `/v1/webhooks/${id}`, {
      key: ws.writeKey,
      body: { url: 'https://localhost/hook' },
    });
    expect([patched.status, patched.body.code]).toEqual([400, 'url_not_allowed']);
    expect((await call(env, 'get', `/v1/webhooks/${id}`, { key: ws.readKey })).body.url).toBe(url);
  });

  it('allows 25 webhooks a workspace', async () => {
    const full = await seedWorkspace(env, { plan: 'studio' });
    for (let i = 0; i < WEBHOOKS_PER_WORKSPACE; i++)
      expect((await create({ url, events: ['post.live'] }, full.writeKey)).status).toBe(201);
    const over = await create({ url, events: ['post.live'] }, full.writeKey);
    expect([over.status, over.body.code, over.body.limit, over.body.used]).toEqual([402, 'quota_exceeded', 25, 25]);
    expect(over.body.hint).toContain('Delete a webhook');
    expect((await call(env, 'get', '/v1/webhooks', { key: full.readKey })).body.webhooks.length).toBe(25);
    // Deleting one makes room.
    const [oldest] = (await call(env, 'get', '/v1/webhooks', { key: full.readKey })).body.webhooks;
    await call(env, 'delete', `/v1/webhooks/${oldest.id}`, { key: full.writeKey });
    expect((await create({ url, events: ['post.live'] }, full.writeKey)).status).toBe(201);
  });

  it('validates the body, naming the field', async () => {
    for (const body of [
      { url },
      { url, events: [] },
      { url, events: ['post.exploded'] },
      { url, events: ['post.live', 'post.live'] },
      { url: '', events: ['post.live'] },
      { url, events: ['post.live'], secret: 'whsec_mine' },
    ]) {
      const res = await create(body);
      expect([body, res.status, res.body.code]).toEqual([body, 400, 'invalid_request']);
    }
    const { id } = (await create({ url, events: ['post.live'] })).body;
    const empty = await call(env, 'patch', `/v1/webhooks/${id}`, { key: ws.writeKey, body: {} });
    expect([empty.status, empty.body.code]).toEqual([400, 'invalid_request']);
  });

  it('needs a key, the write scope to change, and a plan with webhooks', async () => {
    expect((await call(env, 'get', '/v1/webhooks')).status).toBe(401);
    const readOnly = await create({ url, events: ['post.live'] }, ws.readKey);
    expect([readOnly.status, readOnly.body.code]).toEqual([403, 'insufficient_scope']);

    const creator = await seedWorkspace(env, { plan: 'creator' });
    for (const [method, path] of [
      ['get', '/v1/webhooks'],
      ['post', '/v1/webhooks'],
      ['get', '/v1/webhooks/whk_any'],
    ] as const) {
      const res = await call(env, method, path, {
        key: creator.writeKey,
        body: method === 'post' ? { url, events: ['post.live'] } : undefined,
      });
      expect([path, res.status, res.body.code]).toEqual([path, 402, 'quota_exceeded']);
      expect(res.body.upgradeUrl).toMatch(/\/app\/settings\/billing$/);
      expect(res.body.hint).toContain('Studio');
    }
  });

  it("answers 404 for another workspace's webhook and changes nothing", async () => {
    const theirs = (await create({ url, events: ['post.live'] }, other.writeKey)).body;
    const test = await call(env, 'post', `/v1/webhooks/${theirs.id}/test`, { key: other.writeKey });
    for (const [method, path, body] of [
      ['get', `/v1/webhooks/${theirs.id}`, undefined],
      ['patch', `/v1/webhooks/${theirs.id}`, { enabled: false }],
      ['delete', `/v1/webhooks/${theirs.id}`, undefined],
      ['post', `/v1/webhooks/${theirs.id}/rotate-secret`, undefined],
      ['post', `/v1/webhooks/${theirs.id}/test`, undefined],
      ['get', `/v1/webhooks/${theirs.id}/deliveries`, undefined],
      ['post', `/v1/webhooks/${theirs.id}/deliveries/${test.body.id}/redeliver`, undefined],
    ] as const) {
      const res = await call(env, method, path, { key: ws.writeKey, body });
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'not_found']);
    }
    const still = await call(env, 'get', `/v1/webhooks/${theirs.id}`, { key: other.readKey });
    expect(still.body).toEqual({ ...theirs, secret: undefined });
    const row = await env.services.db('webhooks').where({ id: theirs.id }).first();
    expect(row.retired_secrets).toBeNull();
    const log = await call(env, 'get', `/v1/webhooks/${theirs.id}/deliveries`, { key: other.readKey });
    expect(log.body.deliveries.length).toBe(1);
  });
});
