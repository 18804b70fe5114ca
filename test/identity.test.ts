// Authentication, scopes, plans and workspace isolation, through HTTP, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../db/identity.ts';
import { KEY_CACHE_MS } from '../server/api.ts';
import { manualClock } from './support/manualClock.ts';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';

describe.each(DATABASES)('identity on %s', (kind) => {
  const clock = manualClock(Date.now());
  let env: TestEnv;
  let acme: Seeded;
  let other: Seeded;

  beforeAll(async () => {
    env = await startHerald(kind, {}, { clock });
    acme = await seedWorkspace(env, { plan: 'creator', tz: 'Europe/Berlin', name: 'Acme Shop' });
    other = await seedWorkspace(env, { plan: 'studio', tz: 'America/New_York' });
  });
  afterAll(() => env.close());

  describe('401 unauthenticated: key missing, wrong or revoked', () => {
    it('answers 401 without a key', async () => {
      const res = await call(env, 'get', '/v1/whoami');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated' });
      expect(res.body.hint).toMatch(/Authorization: Bearer/);
    });

    it('answers 401 for a wrong key and for a malformed header', async () => {
      expect((await call(env, 'get', '/v1/whoami', { key: 'hld_notAKeyAtAll' })).status).toBe(401);
      expect((await call(env, 'get', '/v1/whoami', { headers: { Authorization: acme.readKey } })).status).toBe(401);
      expect((await call(env, 'get', '/v1/whoami', { key: acme.readKey.slice(0, -1) })).status).toBe(401);
    });

    it('answers 401 once a key is revoked (within the one-second key cache)', async () => {
      const { createApiKey } = await import('../db/identity.ts');
      const { id, key } = await createApiKey(env.services.db, {
        workspaceId: acme.workspaceId,
        userId: acme.userId,
        name: 'temp',
        scopes: ['read'],
      });
      expect((await call(env, 'get', '/v1/whoami', { key })).status).toBe(200);
      expect(await revokeApiKey(env.services.db, acme.workspaceId, id)).toBe(true);
      expect((await call(env, 'get', '/v1/whoami', { key })).status).toBe(200);
      clock.advance(KEY_CACHE_MS);
      expect((await call(env, 'get', '/v1/whoami', { key })).status).toBe(401);
    });

    it('checks the key before the body: an unauthenticated bad request is 401, not 400', async () => {
      const res = await call(env, 'post', '/v1/groups', { body: { nonsense: true } });
      expect(res.status).toBe(401);
    });
  });

  describe('403 insufficient_scope: a read key attempts a write', () => {
    it('refuses writes to a read key, before validating the body', async () => {
      const res = await call(env, 'post', '/v1/groups', { key: acme.readKey, body: { nonsense: true } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('insufficient_scope');
    });

    it('lets a read key read', async () => {
      expect((await call(env, 'get', '/v1/accounts', { key: acme.readKey })).status).toBe(200);
    });
  });

  describe('402 quota_exceeded: Free has no API access', () => {
    it('refuses every REST call made with a Free workspace key, with limit, used and upgradeUrl', async () => {
      const free = await seedWorkspace(env, { plan: 'free' });
      for (const url of ['/v1/whoami', '/v1/accounts']) {
        const res = await call(env, 'get', url, { key: free.readKey });
        expect(res.status).toBe(402);
        expect(res.body).toMatchObject({ code: 'quota_exceeded', limit: 0, used: 0 });
        expect(res.body.upgradeUrl).toBe('http://localhost:8080/app/settings/billing');
        expect(res.body.hint).toMatch(/Creator/);
      }
    });
  });

  describe('GET /whoami', () => {
    it('returns the workspace, user, credential and usage of the key', async () => {
      await addAccount(env, acme.workspaceId, 'instagram', 'Acme Shop');
      const res = await call(env, 'get', '/v1/whoami', { key: acme.writeKey });
      expect(res.status).toBe(200);
      expect(res.body.workspace).toMatchObject({
        id: acme.workspaceId,
        name: 'Acme Shop',
        slug: expect.stringMatching(/^acme-shop/),
        plan: 'creator',
        currency: 'USD',
        tz: 'Europe/Berlin',
      });
      expect(res.body.user).toMatchObject({ id: acme.userId, email: expect.stringContaining('@example.com') });
      expect(res.body.credential).toEqual({ kind: 'api_key', name: 'read+write key', scopes: ['read', 'write'] });
      expect(res.body.usage).toMatchObject({
        plan: 'creator',
        period: expect.stringMatching(/^\d{4}-\d{2}$/),
        posts: { used: 0, limit: 200 },
        storage: { usedBytes: 0, limitBytes: 15 * 1024 ** 3 },
        accounts: { used: 1, limit: 6 },
        members: { used: 1, limit: 1 },
      });
    });

    it('reads the period in the workspace zone', async () => {
      const res = await call(env, 'get', '/v1/whoami', { key: other.readKey });
      const expected = new Intl.DateTimeFormat('en-CA', {
        timeZone: 'America/New_York',
        year: 'numeric',
        month: '2-digit',
      }).format(new Date());
      expect(res.body.usage.period).toBe(expected.slice(0, 7));
      expect(res.body.credential).toEqual({ kind: 'api_key', name: 'read key', scopes: ['read'] });
    });
  });

  describe('workspace isolation', () => {
    it('lists only the caller workspace accounts', async () => {
      const theirs = await addAccount(env, other.workspaceId, 'youtube', 'Other Channel');
      const res = await call(env, 'get', '/v1/accounts', { key: acme.readKey });
      expect(res.body.accounts.map((a: { id: string }) => a.id)).not.toContain(theirs);
    });

    it('answers 404 not_found for another workspace group, exactly as for a missing one', async () => {
      const acc = await addAccount(env, other.workspaceId, 'threads', 'Other Threads');
      const created = await call(env, 'post', '/v1/groups', {
        key: other.writeKey,
        body: { name: 'Theirs', accountIds: [acc] },
      });
      expect(created.status).toBe(201);
      const foreign = await call(env, 'patch', `/v1/groups/${created.body.id}`, {
        key: acme.writeKey,
        body: { name: 'Mine now' },
      });
      const missing = await call(env, 'patch', '/v1/groups/grp_doesNotExist000', {
        key: acme.writeKey,
        body: { name: 'Mine now' },
      });
      expect(foreign.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(foreign.body.code).toBe(missing.body.code);
      expect((await call(env, 'delete', `/v1/groups/${created.body.id}`, { key: acme.writeKey })).status).toBe(404);
      const still = await call(env, 'get', '/v1/groups', { key: other.readKey });
      expect(still.body.groups).toEqual([expect.objectContaining({ id: created.body.id, name: 'Theirs' })]);
    });

    it('refuses to put another workspace account in a group', async () => {
      const theirs = await addAccount(env, other.workspaceId, 'facebook', 'Their Page');
      const res = await call(env, 'post', '/v1/groups', {
        key: acme.writeKey,
        body: { name: 'Sneaky', accountIds: [theirs] },
      });
      expect(res.status).toBe(404);
      expect(res.body.message).toContain(theirs);
      expect((await call(env, 'get', '/v1/groups', { key: acme.readKey })).body.groups).toEqual([]);
    });
  });
});
