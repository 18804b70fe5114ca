// whoami's usage and the quota checks read counters that triggers keep (migration 0015), not counts of rows: after
// every kind of change (posts created, cancelled, moved to another month; files stored and deleted; accounts
// disconnected and back; members joining and leaving) whoami equals a count of the rows, on both databases, and
// the migration starts the counters from the rows already there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { openDatabase } from '../db/connect.ts';
import { findWorkspace } from '../db/identity.ts';
import { migrate, MIGRATION_NAMES } from '../db/migrate.ts';
import { readUsage } from '../db/usage.ts';
import { workspaceData } from '../db/workspaceData.ts';
import { Keyring } from '../runtime/crypto.ts';
import {
  addAccount,
  call,
  createPgDatabase,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { FIXTURE, MIGRATION_FIXTURES } from './support/migrationFixtures.ts';
import { seedMedia } from './support/posts.ts';

/** The truth the counters must equal: the rows, counted. */
async function counted(db: Knex, workspaceId: string, month: string) {
  const n = async (q: Knex.QueryBuilder) => Number((await q.first())?.n ?? 0);
  return {
    accounts: await n(
      db('accounts').where({ workspace_id: workspaceId }).whereNull('disconnected_at').count({ n: '*' }),
    ),
    members: await n(db('members').where({ workspace_id: workspaceId }).count({ n: '*' })),
    storageBytes: await n(db('media').where({ workspace_id: workspaceId }).sum({ n: 'stored_bytes' })),
    posts: await n(db('posts').where({ workspace_id: workspaceId, quota_month: month }).count({ n: '*' })),
  };
}

describe.each(DATABASES)('usage counters on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  // Fourteen hours ahead of UTC: the workspace's month starts while most of the world is still in the last one.
  const tz = 'Pacific/Kiritimati';
  const thisMonth = () => DateTime.now().setZone(tz).toFormat('yyyy-MM');
  const nextMonth = () => DateTime.now().setZone(tz).plus({ months: 1 }).toFormat('yyyy-MM');
  let data: ReturnType<typeof workspaceData>;
  let accounts: string[];

  beforeAll(async () => {
    env = await startHerald(kind);
    ws = await seedWorkspace(env, { plan: 'agency', tz });
    data = workspaceData(
      env.services.db,
      (await findWorkspace(env.services.db, ws.workspaceId))!,
      env.services.clock,
      env.services.jobs,
    );
    accounts = [
      await addAccount(env, ws.workspaceId, 'threads', 'Shop Threads'),
      await addAccount(env, ws.workspaceId, 'facebook', 'Shop Page'),
    ];
  });
  afterAll(() => env?.close());

  /** whoami's usage equals the rows counted, and is what `expected` says. */
  async function expectUsage(expected: Partial<Awaited<ReturnType<typeof counted>>>) {
    const res = await call(env, 'get', '/v1/whoami', { key: ws.readKey });
    expect(res.status).toBe(200);
    const { usage } = res.body;
    expect(usage.period).toBe(thisMonth());
    const shown = {
      accounts: usage.accounts.used,
      members: usage.members.used,
      storageBytes: usage.storage.usedBytes,
      posts: usage.posts.used,
    };
    expect(shown).toEqual(await counted(env.services.db, ws.workspaceId, thisMonth()));
    expect(shown).toMatchObject(expected);
  }

  const queue = (month: string, count: number) =>
    data.posts.create({
      createdVia: 'api',
      month,
      guard: () => undefined,
      posts: Array.from({ length: count }, (_, i) => ({
        accountId: accounts[i % 2]!,
        platform: i % 2 ? ('facebook' as const) : ('threads' as const),
        status: 'queued' as const,
        publishAt: DateTime.now().plus({ days: 40 }).toISO()!,
        text: `Post ${i}`,
        title: null,
        tags: [],
        mediaIds: [],
        perPlatform: {},
      })),
    });

  it('counts posts queued this month, gives a cancelled one back, leaves drafts and other months out', async () => {
    await expectUsage({ accounts: 2, members: 1, storageBytes: 0, posts: 0 });
    const created = await queue(thisMonth(), 3);
    await expectUsage({ posts: 3 });
    const cancel = await call(env, 'post', `/v1/posts/${created[0]!.id}/cancel`, {
      key: ws.writeKey,
      body: { confirm: true },
    });
    expect(cancel.status).toBe(200);
    await expectUsage({ posts: 2 });
    // Created just after midnight in the workspace's zone: counted in the next month, not in this one.
    const later = await queue(nextMonth(), 2);
    await expectUsage({ posts: 2 });
    expect((await readUsage(env.services.db, ws.workspaceId, nextMonth())).posts).toBe(2);
    // A post whose month moves (a draft queued again in another month) moves between the months' counts.
    await data.posts.transition(later[0]!.id, 'reschedule', () => ({ patch: { quotaMonth: thisMonth() }, events: [] }));
    await expectUsage({ posts: 3 });
    expect((await readUsage(env.services.db, ws.workspaceId, nextMonth())).posts).toBe(1);
    // Drafts hold no place in any month.
    await data.posts.create({
      createdVia: 'api',
      month: thisMonth(),
      guard: () => undefined,
      posts: [
        {
          accountId: accounts[0]!,
          platform: 'threads',
          status: 'draft',
          publishAt: null,
          text: 'Draft',
          title: null,
          tags: [],
          mediaIds: [],
          perPlatform: {},
        },
      ],
    });
    await expectUsage({ posts: 3 });
  });

  it('counts stored bytes as files are stored, replaced and deleted', async () => {
    const before = (await readUsage(env.services.db, ws.workspaceId, thisMonth())).storageBytes;
    const first = await seedMedia(env, ws.workspaceId, { size: 1_000 });
    const second = await seedMedia(env, ws.workspaceId, { size: 2_500 });
    await expectUsage({ storageBytes: before + 3_500 });
    await env.services.db('media').where({ id: second }).update({ stored_bytes: 2_000 });
    await expectUsage({ storageBytes: before + 3_000 });
    const removed = await call(env, 'delete', `/v1/media/${first}?confirm=true`, { key: ws.writeKey });
    expect(removed.status).toBe(200);
    await expectUsage({ storageBytes: before + 2_000 });
  });

  it('counts connected accounts and members as they come and go', async () => {
    expect(await data.accounts.disconnect(accounts[1]!)).toBe(true);
    await expectUsage({ accounts: 1 });
    const third = await addAccount(env, ws.workspaceId, 'youtube', 'Shop Channel');
    await expectUsage({ accounts: 2 });
    const other = await seedWorkspace(env);
    await env.services.db('members').insert({
      workspace_id: ws.workspaceId,
      user_id: other.userId,
      role: 'member',
      created_at: new Date().toISOString(),
    });
    await expectUsage({ members: 2 });
    await env.services.db('members').where({ workspace_id: ws.workspaceId, user_id: other.userId }).delete();
    await expectUsage({ members: 1 });
    // The quota check reads the same counter: the account limit counts the connected ones only.
    expect(await data.accounts.count()).toBe(2);
    expect(third).toMatch(/^acc_/);
  });

  it('answers concurrent reads of many workspaces, read together, each with its own rows', async () => {
    const others = await Promise.all([1, 2, 3].map(() => seedWorkspace(env, { plan: 'agency' })));
    for (const [i, other] of others.entries()) {
      for (let n = 0; n <= i; n++) await addAccount(env, other.workspaceId, 'threads', `Other ${i}-${n}`);
    }
    const callers = [ws, ...others];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const caller = callers[i % callers.length]!;
        return Promise.all([
          call(env, 'get', '/v1/whoami', { key: caller.readKey }),
          call(env, 'get', '/v1/accounts', { key: caller.readKey }),
        ]).then(([who, list]) => ({ caller, who, list }));
      }),
    );
    for (const { caller, who, list } of answers) {
      const truth = await counted(env.services.db, caller.workspaceId, thisMonth());
      expect(who.body.workspace.id).toBe(caller.workspaceId);
      expect(who.body.usage.accounts.used).toBe(truth.accounts);
      expect(who.body.usage.storage.usedBytes).toBe(truth.storageBytes);
      const ids = (await env.services.db('accounts').where({ workspace_id: caller.workspaceId }))
        .filter((a) => !a.disconnected_at)
        .map((a) => a.id);
      expect(list.body.accounts.map((a: { id: string }) => a.id).sort()).toEqual(ids.sort());
    }
  });
});

describe.each(DATABASES)('migration 0015 on %s', (kind) => {
  it('starts the counters from the rows already there', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-usage-'));
    const pg = kind === 'postgres' ? await createPgDatabase() : undefined;
    const db = openDatabase({ databaseUrl: pg?.url, dataDir });
    try {
      const before = MIGRATION_NAMES[MIGRATION_NAMES.indexOf('0015_usage_counters') - 1]!;
      await migrate(db, { to: before });
      const keyring = new Keyring('usage-test-secret-usage-test-secret');
      for (const name of MIGRATION_NAMES.slice(0, MIGRATION_NAMES.indexOf(before) + 1)) {
        await MIGRATION_FIXTURES[name]?.(db, keyring);
      }
      await migrate(db);
      for (const month of ['2030-06', '2026-03', '2026-04']) {
        expect(await readUsage(db, FIXTURE.workspaceId, month)).toEqual(await counted(db, FIXTURE.workspaceId, month));
      }
      expect(await readUsage(db, FIXTURE.workspaceId, '2030-06')).toEqual({
        accounts: 1,
        members: 1,
        storageBytes: 1234,
        posts: 1,
      });
    } finally {
      await db.destroy();
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
