// vitest globalSetup: migrates one SQLite data folder and one PostgreSQL database once per run, so each test
// instance starts from a copy instead of running every migration again (PostgreSQL clones the template in a
// fraction of the time the migrations take). The harness and spawned processes find them through the
// environment, which the test workers inherit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { SANDBOX_FILE, SQLITE_FILE } from '../../db/connect.ts';
import { migrate } from '../../db/migrate.ts';
import { randomBase62 } from '../../domain/ids.ts';
import { loadConfig } from '../../runtime/config.ts';
import { createServices } from '../../runtime/services.ts';

export const SQLITE_TEMPLATE_ENV = 'HERALD_TEST_SQLITE_TEMPLATE';
export const PG_TEMPLATE_ENV = 'HERALD_TEST_PG_TEMPLATE';

/** Copies the migrated SQLite files into a fresh data folder (nothing when no template was made). */
export function copySqliteTemplate(dataDir: string): void {
  const template = process.env[SQLITE_TEMPLATE_ENV];
  if (!template) return;
  for (const file of [SQLITE_FILE, SANDBOX_FILE]) {
    const from = path.join(template, file);
    if (fs.existsSync(from)) fs.copyFileSync(from, path.join(dataDir, file));
  }
}

/** `create database` options that clone the migrated template, when there is one. */
export function pgTemplateClause(): string {
  const template = process.env[PG_TEMPLATE_ENV];
  return template ? ` template ${template}` : '';
}

async function migrated(dataDir: string, databaseUrl?: string): Promise<void> {
  const services = createServices({ ...loadConfig({}), dataDir, databaseUrl, logLevel: 'silent' });
  await migrate(services.db);
  await services.close();
}

export default async function setup(): Promise<() => Promise<void>> {
  const databases = (process.env.TEST_DATABASES ?? 'sqlite,postgres').split(',');
  const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-template-'));
  await migrated(sqliteDir);
  // Only the database files: the folder's secret and media stay each instance's own.
  process.env[SQLITE_TEMPLATE_ENV] = sqliteDir;

  const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = knexFactory({ client: 'pg', connection: adminUrl });
  const pgName = `herald_template_${randomBase62(10).toLowerCase()}`;
  if (databases.includes('postgres')) {
    await admin.raw(`create database ${pgName}`);
    await migrated(sqliteDir, adminUrl.replace(/\/[^/]*$/, `/${pgName}`));
    process.env[PG_TEMPLATE_ENV] = pgName;
  }
  return async () => {
    if (process.env[PG_TEMPLATE_ENV]) await admin.raw(`drop database if exists ${pgName} with (force)`);
    await admin.destroy();
    fs.rmSync(sqliteDir, { recursive: true, force: true });
  };
}
