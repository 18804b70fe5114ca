// API keys made by people in the dashboard: shown once, listed by prefix with creator and last use, and
// revoked (keyRevocation.test.ts proves every server process refuses a revoked key within a second).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_CACHE_MS } from '../server/api.ts';
import { call, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import { manualClock } from './support/manualClock.ts';
import { addPerson, asPerson, signedIn, type Person } from './support/people.ts';

describe.each(DATABASES)('API keys on %s', (kind) => {
  const clock = manualClock(Date.now());
  let env: TestEnv;
  let ws: Seeded;
  let owner: Person;

  beforeAll(async () => {
    env = await startHerald(kind, {}, { clock });
    ws = await seedWorkspace(env, { plan: 'creator' });
    owner = await signedIn(env, ws.userId, ws.workspaceId);
  });
  afterAll(() => env.close());

  it('creates a key shown once, lists it by prefix with its creator and last use, and revokes it', async () => {
    const created = await asPerson(env, owner, 'post', '/auth/keys', { name: 'my agent', scopes: ['read', 'write'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'my agent',
      scopes: ['read', 'write'],
      createdBy: { id: ws.userId },
      lastUsedAt: null,
    });
    const { key, id, prefix } = created.body;
    expect(key).toMatch(/^hld_\w{40}$/);
    expect(key.startsWith(prefix)).toBe(true);

    expect((await call(env, 'get', '/v1/whoami', { key })).body.credential).toEqual({
      kind: 'api_key',
      name: 'my agent',
      scopes: ['read', 'write'],
    });
    const listed = await asPerson(env, owner, 'get', '/auth/keys');
    const row = listed.body.keys.find((k: { id: string }) => k.id === id);
    expect(row).toMatchObject({ prefix, lastUsedAt: expect.any(String) });
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(listed.body.access).toEqual({ rest: true, mcp: 'full' });

    expect((await asPerson(env, owner, 'delete', `/auth/keys/${id}`)).status).toBe(204);
    expect((await asPerson(env, owner, 'delete', `/auth/keys/${id}`)).status).toBe(404);
    expect((await asPerson(env, owner, 'get', '/auth/keys')).body.keys.map((k: { id: string }) => k.id)).not.toContain(
      id,
    );
    clock.advance(KEY_CACHE_MS);
    expect((await call(env, 'get', '/v1/whoami', { key })).status).toBe(401);
    const trail = (await asPerson(env, owner, 'get', '/auth/audit')).body.events.map(
      (e: { action: string }) => e.action,
    );
    expect(trail.slice(0, 2)).toEqual(['key.revoked', 'key.created']);
  });

  it('lets a Free workspace make keys for the read-only MCP, and says REST is closed to them', async () => {
    const free = await seedWorkspace(env, { plan: 'free' });
    const person = await signedIn(env, free.userId, free.workspaceId);
    const created = await asPerson(env, person, 'post', '/auth/keys', { name: 'claude', scopes: ['read'] });
    expect(created.status).toBe(201);
    expect((await asPerson(env, person, 'get', '/auth/keys')).body.access).toEqual({ rest: false, mcp: 'read' });
    expect((await call(env, 'get', '/v1/whoami', { key: created.body.key })).status).toBe(402);
  });

  it('refuses bad names and scopes, members, and keys of another workspace', async () => {
    expect((await asPerson(env, owner, 'post', '/auth/keys', { name: '', scopes: ['read'] })).status).toBe(400);
    expect((await asPerson(env, owner, 'post', '/auth/keys', { name: 'x', scopes: ['admin'] })).status).toBe(400);
    expect((await asPerson(env, owner, 'post', '/auth/keys', { name: 'x', scopes: [] })).status).toBe(400);
    expect((await asPerson(env, owner, 'post', '/auth/keys', { name: 'x' })).status).toBe(400);
    const agency = await seedWorkspace(env, { plan: 'agency' });
    const member = await addPerson(env, agency.workspaceId, 'member');
    expect((await asPerson(env, member, 'get', '/auth/keys')).body.code).toBe('insufficient_role');
    const theirs = (await env.services.db('api_keys').where({ workspace_id: agency.workspaceId }).first('id')).id;
    expect((await asPerson(env, owner, 'delete', `/auth/keys/${theirs}`)).status).toBe(404);
  });
});
