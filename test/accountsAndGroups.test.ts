// Accounts and groups through HTTP, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';

describe.each(DATABASES)('accounts and groups on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let ig: string;
  let yt: string;

  beforeAll(async () => {
    env = await startHerald(kind);
    ws = await seedWorkspace(env, { plan: 'studio' });
    ig = await addAccount(env, ws.workspaceId, 'instagram', 'Acme Shop');
    yt = await addAccount(env, ws.workspaceId, 'youtube', 'Acme TV', 'expired');
  });
  afterAll(() => env.close());

  describe('GET /accounts', () => {
    it('lists id, platform, displayName, status and health (accountHealth.test.ts), and nothing else', async () => {
      const res = await call(env, 'get', '/v1/accounts', { key: ws.readKey });
      expect(res.status).toBe(200);
      const token = { refreshedAt: expect.any(String), expiresAt: null, renewableUntil: null };
      // Oldest first, and the two were added within the same millisecond at times: their order is the ids'.
      expect(res.body).toEqual({
        accounts: expect.arrayContaining([
          { id: ig, platform: 'instagram', displayName: 'Acme Shop', status: 'ok', token, restrictions: [] },
          {
            id: yt,
            platform: 'youtube',
            displayName: 'Acme TV',
            status: 'expired',
            token: { ...token, renewableUntil: expect.any(String) },
            restrictions: [],
          },
        ]),
      });
      expect(res.body.accounts).toHaveLength(2);
    });

    it('stores network tokens only encrypted', async () => {
      const rows = await env.services.db('accounts').where({ workspace_id: ws.workspaceId }).select('token_sealed');
      for (const { token_sealed } of rows) {
        expect(token_sealed).toMatch(/^v1\./);
        expect(token_sealed).not.toContain('token-');
        expect(env.services.keyring.decrypt(token_sealed)).toMatch(/^token-/);
      }
    });
  });

  describe('groups', () => {
    it('creates, lists, updates and deletes a group', async () => {
      const created = await call(env, 'post', '/v1/groups', {
        key: ws.writeKey,
        body: { name: 'Launch', accountIds: [yt, ig] },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ id: expect.stringMatching(/^grp_/), name: 'Launch', accountIds: [yt, ig] });

      const listed = await call(env, 'get', '/v1/groups', { key: ws.readKey });
      expect(listed.body.groups).toEqual([created.body]);

      const renamed = await call(env, 'patch', `/v1/groups/${created.body.id}`, {
        key: ws.writeKey,
        body: { name: 'Launch week', accountIds: [ig] },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: 'Launch week', accountIds: [ig] });

      const deleted = await call(env, 'delete', `/v1/groups/${created.body.id}`, { key: ws.writeKey });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id: created.body.id, deleted: true });
      expect((await call(env, 'get', '/v1/groups', { key: ws.readKey })).body.groups).toEqual([]);
      expect((await call(env, 'delete', `/v1/groups/${created.body.id}`, { key: ws.writeKey })).status).toBe(404);
    });

    it('refuses invalid groups with 400 naming the field, and creates nothing', async () => {
      const cases: [unknown, RegExp][] = [
        [{ accountIds: [ig] }, /`name` is required/],
        [{ name: 'X', accountIds: [] }, /`accountIds`/],
        [{ name: 'X', accountIds: [ig], extra: 1 }, /`extra` is not a known field/],
        [{ name: '   ', accountIds: [ig] }, /`name` must not be blank/],
        [{ name: 'X', accountIds: [ig, ig] }, /`accountIds`/],
        [{ name: 42, accountIds: [ig] }, /`name`/],
      ];
      for (const [body, message] of cases) {
        const res = await call(env, 'post', '/v1/groups', { key: ws.writeKey, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe('invalid_request');
        expect(res.body.message).toMatch(message);
      }
      expect((await call(env, 'get', '/v1/groups', { key: ws.readKey })).body.groups).toEqual([]);
    });

    it('answers 404 for an unknown account id', async () => {
      const res = await call(env, 'post', '/v1/groups', {
        key: ws.writeKey,
        body: { name: 'X', accountIds: ['acc_missing0000000'] },
      });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    });

    it('needs the write scope', async () => {
      const res = await call(env, 'post', '/v1/groups', { key: ws.readKey, body: { name: 'X', accountIds: [ig] } });
      expect(res.status).toBe(403);
    });
  });
});
