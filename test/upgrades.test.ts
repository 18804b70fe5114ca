// Safe upgrades: a database left at any past migration, with data in it, migrates to the latest with
// every row kept and readable through the API; `herald migrate --dry-run` lists what would run without
// running it; a Herald older than its database refuses to start. Written over the migration list, so
// every new migration is covered by itself (its data comes from support/migrationFixtures.ts).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { isPostgres, openDatabase } from '../db/connect.ts';
import { migrate, MIGRATION_NAMES } from '../db/migrate.ts';
import { loadConfig, type Config } from '../runtime/config.ts';
import { createServices } from '../runtime/services.ts';
import { createApp } from '../server/app.ts';
import { call, createPgDatabase, DATABASES, type TestEnv } from './support/harness.ts';
import { freePort } from './support/spawnHerald.ts';
import { FIXTURE, MIGRATION_FIXTURES, REWRITES } from './support/migrationFixtures.ts';

const HERALD = new URL('../bin/herald', import.meta.url).pathname;

async function tableNames(db: Knex): Promise<string[]> {
  const rows = isPostgres(db)
    ? (
        await db.raw(
          `select table_name as name from information_schema.tables where table_schema = current_schema() and ` +
            `table_type = 'BASE TABLE'`,
        )
      ).rows
    : // The sandbox networks' tables live in their own attached file (db/connect.ts) from 0016 on.
      await db.raw(
        `select name from main.sqlite_master where type = 'table' and name not like 'sqlite_%' union all ` +
          `select name from sandbox.sqlite_master where type = 'table' and name not like 'sqlite_%'`,
      );
  return (rows as { name: string }[])
    .map((r) => r.name)
    .filter((name) => !name.startsWith('knex_migrations'))
    .sort();
}

async function snapshot(db: Knex): Promise<Record<string, Record<string, unknown>[]>> {
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const name of await tableNames(db)) tables[name] = await db(name).select();
  return tables;
}

/** A fresh database of `kind` and a data directory; answers a configuration for them. */
async function freshInstance(kind: string): Promise<{ config: Config; drop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-upgrade-'));
  const pg = kind === 'postgres' ? await createPgDatabase() : undefined;
  return {
    config: { ...loadConfig({}), dataDir, databaseUrl: pg?.url, logLevel: 'silent' },
    drop: async () => {
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const PAST = MIGRATION_NAMES.slice(0, -1);
// Building the app takes seconds (it compiles the contract): the oldest and the newest past schema are also
// read through it.
const READ_THROUGH_API = new Set([PAST[0], PAST.at(-1)]);

describe.each(DATABASES)('upgrades on %s', (kind) => {
  describe.each(PAST)('from a database at %s', (from) => {
    it('migrates to the latest with every row kept and every token readable', async () => {
      const { config, drop } = await freshInstance(kind);
      const services = createServices(config);
      try {
        const past = MIGRATION_NAMES.slice(0, MIGRATION_NAMES.indexOf(from) + 1);
        await migrate(services.db, { to: from });
        for (const name of past) await MIGRATION_FIXTURES[name]?.(services.db, services.keyring);
        const before = await snapshot(services.db);

        const applied = await migrate(services.db);
        expect(applied).toEqual(MIGRATION_NAMES.slice(past.length));
        const after = await snapshot(services.db);
        const rewritten = new Set(applied.flatMap((name) => REWRITES[name] ?? []));
        for (const [table, rows] of Object.entries(before)) {
          expect(after[table], `table ${table}`).toBeDefined();
          for (const row of rows) {
            const kept = Object.fromEntries(
              Object.entries(row).filter(([column]) => !rewritten.has(`${table}.${column}`)),
            );
            expect(after[table], `a row of ${table}`).toContainEqual(expect.objectContaining(kept));
          }
        }

        const account = await services.db('accounts').where({ id: FIXTURE.accountId }).first();
        expect(services.keyring.decrypt(account.token_sealed)).toBe(FIXTURE.accountToken);
        if (!READ_THROUGH_API.has(from)) return;

        const env = { kind, config, services, app: await createApp(services) } as TestEnv;
        const key = FIXTURE.apiKey;
        const accounts = await call(env, 'get', '/v1/accounts', { key });
        expect(accounts.status).toBe(200);
        expect(accounts.body.accounts).toEqual([expect.objectContaining({ id: FIXTURE.accountId, status: 'ok' })]);
        expect((await call(env, 'get', '/v1/folders', { key })).status).toBe(200);
        if (past.includes('0002_media')) {
          expect((await call(env, 'get', `/v1/media/${FIXTURE.mediaId}`, { key })).body).toMatchObject({
            id: FIXTURE.mediaId,
            status: 'ready',
          });
        }
        if (past.includes('0003_posts')) {
          const queued = await call(env, 'get', `/v1/posts/${FIXTURE.queuedPostId}`, { key });
          expect(queued.body).toMatchObject({ status: 'queued', mediaIds: [FIXTURE.mediaId] });
          const live = await call(env, 'get', `/v1/posts/${FIXTURE.livePostId}`, { key });
          expect(live.body).toMatchObject({ status: 'live', externalUrl: 'https://threads.example/p/1' });
          // Posts from before batches (0023) are grouped as they were made: at one time, through one interface.
          expect(queued.body.batchId).toMatch(/^bat_/);
          expect(live.body.batchId).toBe(queued.body.batchId);
        }
      } finally {
        await services.close();
        await drop();
      }
    });
  });

  describe('bin/herald against an older or a newer database', () => {
    let config: Config;
    let drop: () => Promise<void>;
    const env: Record<string, string> = {};
    const herald = (...args: string[]) =>
      promisify(execFile)(HERALD, args, { env }).then(
        ({ stdout }) => ({ code: 0, out: JSON.parse(stdout), err: undefined }),
        (e: { code: number; stdout: string; stderr: string }) => ({
          code: e.code,
          out: e.stdout,
          err: JSON.parse(e.stderr.trim().split('\n').at(-1)!),
        }),
      );

    beforeAll(async () => {
      ({ config, drop } = await freshInstance(kind));
      Object.assign(env, process.env, { DATA_DIR: config.dataDir, PORT: String(await freePort()), LOG_FORMAT: 'json' });
      if (config.databaseUrl) env.DATABASE_URL = config.databaseUrl;
      else delete env.DATABASE_URL;
      const db = openDatabase(config);
      await migrate(db, { to: MIGRATION_NAMES[1] });
      await db.destroy();
    });
    afterAll(() => drop());

    // The same code on either database: PostgreSQL only checks that a refused server stops cleanly.
    const sqliteOnly = kind === 'sqlite' ? it : it.skip;

    sqliteOnly('lists the pending migrations with migrate --dry-run and applies none of them', async () => {
      const plan = await herald('migrate', '--dry-run');
      expect(plan).toMatchObject({
        code: 0,
        out: { dryRun: true, applied: MIGRATION_NAMES.slice(0, 2), pending: MIGRATION_NAMES.slice(2) },
      });
      expect(await herald('migrate')).toMatchObject({
        code: 0,
        out: { migrated: true, applied: MIGRATION_NAMES.slice(2) },
      });
      expect((await herald('migrate', '--dry-run')).out).toEqual({
        dryRun: true,
        applied: MIGRATION_NAMES,
        pending: [],
      });
    });

    it('refuses to serve or migrate a database a newer Herald migrated, saying so', async () => {
      const db = openDatabase(config);
      await db('knex_migrations').insert({ name: '9999_from_the_future', batch: 99, migration_time: new Date() });
      await db.destroy();
      const commands = [['serve'], ['migrate', '--dry-run'], ['workspace', 'create', '--name', 'X', '--plan', 'free']];
      for (const args of kind === 'sqlite' ? commands : commands.slice(0, 1)) {
        const res = await herald(...args);
        expect(res.code, args.join(' ')).toBe(1);
        expect(res.err, args.join(' ')).toMatchObject({
          code: 'database_newer',
          message: expect.stringContaining('9999_from_the_future'),
          hint: expect.stringContaining('restore a backup taken before the upgrade'),
        });
      }
    });
  });
});
