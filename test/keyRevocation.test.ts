// `bin/herald key list` and `key revoke` as an operator runs them, against real `bin/herald serve` processes:
// one on SQLite, two sharing one PostgreSQL database. A revoked key stops working on every instance within
// the server's key cache time (KEY_CACHE_MS, one second), whether the operator or the dashboard revoked it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createSession } from '../db/identity.ts';
import { KEY_CACHE_MS } from '../server/api.ts';
import { DATABASES, seedWorkspace, type Seeded, type TestEnv } from './support/harness.ts';
import { prepareDatabase, spawnHerald, type PreparedDatabase, type SpawnedHerald } from './support/spawnHerald.ts';

const run = promisify(execFile);
const HERALD = new URL('../bin/herald', import.meta.url).pathname;
/** Each bin/herald run starts Node and compiles the sources: seconds apiece on a busy machine. */
const CLI_TEST_MS = 90_000;

describe.each(DATABASES)('key list and revoke on %s', (kind) => {
  let db: PreparedDatabase;
  let servers: SpawnedHerald[];
  let ws: Seeded;
  let other: Seeded;
  let unused: string;

  async function herald(...args: string[]) {
    const env = { ...process.env, DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl ?? '', LOG_LEVEL: 'silent' };
    try {
      const { stdout } = await run(HERALD, args, { env });
      return { code: 0, out: JSON.parse(stdout), stdout };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, err: JSON.parse(e.stderr.trim().split('\n').at(-1)!), stdout: e.stdout };
    }
  }
  const whoami = (server: SpawnedHerald, key: string) =>
    fetch(`${server.base}/v1/whoami`, { headers: { Authorization: `Bearer ${key}` } }).then((r) => r.status);

  /** Until the cache time has passed, an instance may still take a revoked key; a request sent after it, never. */
  async function refusedEverywhereWithinCacheTime(key: string) {
    const deadline = Date.now() + KEY_CACHE_MS;
    for (const server of servers) {
      for (;;) {
        const sentAt = Date.now();
        if ((await whoami(server, key)) !== 200) break;
        expect(sentAt, 'a request sent after the key cache time was accepted').toBeLessThanOrEqual(deadline);
      }
      expect(await whoami(server, key)).toBe(401);
    }
  }

  beforeAll(async () => {
    db = await prepareDatabase(kind);
    const env = { services: db.services } as TestEnv;
    ws = await seedWorkspace(env);
    other = await seedWorkspace(env);
    unused = (
      await createApiKey(db.services.db, {
        workspaceId: ws.workspaceId,
        userId: ws.userId,
        name: 'never used',
        scopes: ['read'],
      })
    ).key;
    // SQLite serves from one process; PostgreSQL from as many as the operator runs.
    servers = await Promise.all(Array.from({ length: kind === 'postgres' ? 2 : 1 }, () => spawnHerald(db)));
  }, 120_000);
  afterAll(async () => {
    await Promise.all((servers ?? []).map((s) => s.stop()));
    await db?.close();
  });

  it(
    'lists the working keys by name, prefix, scopes and use, never the key itself',
    async () => {
      for (const server of servers) expect(await whoami(server, ws.readKey)).toBe(200);
      const listed = await herald('key', 'list', '--workspace', ws.workspaceId);
      expect(listed.code).toBe(0);
      const byName = (keys: { name: string }[]) => [...keys].sort((a, b) => a.name.localeCompare(b.name));
      expect(byName(listed.out.keys)).toEqual([
        {
          name: 'never used',
          prefix: unused.slice(0, 10),
          scopes: ['read'],
          createdAt: expect.any(String),
          lastUsedAt: null,
        },
        {
          name: 'read key',
          prefix: ws.readKey.slice(0, 10),
          scopes: ['read'],
          createdAt: expect.any(String),
          lastUsedAt: expect.any(String),
        },
        {
          name: 'read+write key',
          prefix: ws.writeKey.slice(0, 10),
          scopes: ['read', 'write'],
          createdAt: expect.any(String),
          lastUsedAt: null,
        },
      ]);
      for (const key of [ws.readKey, ws.writeKey, unused]) expect(listed.stdout).not.toContain(key.slice(10));
    },
    CLI_TEST_MS,
  );

  it(
    'revokes a key by prefix: within a second every instance answers 401, and the other keys still work',
    async () => {
      for (const server of servers) expect(await whoami(server, ws.writeKey)).toBe(200);
      const revoked = await herald(
        'key',
        'revoke',
        '--workspace',
        ws.workspaceId,
        '--prefix',
        ws.writeKey.slice(0, 10),
      );
      expect(revoked).toMatchObject({ code: 0, out: { revoked: true } });
      await refusedEverywhereWithinCacheTime(ws.writeKey);
      for (const server of servers) {
        expect(await whoami(server, ws.readKey)).toBe(200);
        expect(await whoami(server, other.writeKey)).toBe(200);
      }
      const keys = (await herald('key', 'list', '--workspace', ws.workspaceId)).out.keys as { prefix: string }[];
      expect(keys.map((k) => k.prefix).sort()).toEqual([ws.readKey.slice(0, 10), unused.slice(0, 10)].sort());
    },
    CLI_TEST_MS,
  );

  it('revokes a key from the dashboard (Settings, API keys): every instance refuses it within a second', async () => {
    const { id, key } = await createApiKey(db.services.db, {
      workspaceId: ws.workspaceId,
      userId: ws.userId,
      name: 'ci',
      scopes: ['read'],
    });
    for (const server of servers) expect(await whoami(server, key)).toBe(200);
    const session = await createSession(db.services.db, ws.userId, ws.workspaceId);
    const revoked = await fetch(`${servers[0]!.base}/auth/keys/${id}`, {
      method: 'DELETE',
      headers: {
        Cookie: `herald_session=${session.token}`,
        'X-CSRF-Token': db.services.keyring.sign(session.id, 'csrf'),
      },
    });
    expect(revoked.status).toBe(204);
    await refusedEverywhereWithinCacheTime(key);
  });

  it(
    'refuses an unknown, revoked or foreign prefix and an unknown workspace, revoking nothing',
    async () => {
      for (const args of [
        ['--workspace', ws.workspaceId, '--prefix', ws.writeKey.slice(0, 10)],
        ['--workspace', ws.workspaceId, '--prefix', other.readKey.slice(0, 10)],
        ['--workspace', 'ws_nope', '--prefix', ws.readKey.slice(0, 10)],
      ]) {
        const res = await herald('key', 'revoke', ...args);
        expect(res.code, args.join(' ')).not.toBe(0);
        expect(res.err).toMatchObject({ code: 'not_found', message: expect.any(String), hint: expect.any(String) });
      }
      const missing = await herald('key', 'revoke', '--workspace', ws.workspaceId);
      expect(missing.err).toMatchObject({ code: 'invalid_request', message: '--prefix is required.' });
      for (const server of servers) expect(await whoami(server, other.readKey)).toBe(200);
    },
    CLI_TEST_MS,
  );
});
