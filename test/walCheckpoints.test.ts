// `herald serve` on SQLite checkpoints its write-ahead logs in a thread of its own: its commits never copy the
// log back into the database file (automatic checkpoints are off on its connection), and the thread does, for
// Herald's file and the sandbox networks' file alike.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_FILE, SQLITE_FILE } from '../db/connect.ts';
import { migrate } from '../db/migrate.ts';
import { loadConfig } from '../runtime/config.ts';
import { createServices } from '../runtime/services.ts';
import { until } from './support/waiting.ts';

describe('SQLite checkpoints in a thread', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-checkpoints-'));
  const services = createServices({ ...loadConfig({}), dataDir, logLevel: 'silent' }, { checkpointThread: true });
  afterAll(async () => {
    await services.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const size = (file: string) => fs.statSync(path.join(dataDir, file)).size;
  const sizes = () => ({ main: size(SQLITE_FILE), sandbox: size(SANDBOX_FILE) });

  it('moves what commits wrote into each database file, with no commit doing it', async () => {
    const { db } = services;
    await migrate(db);
    expect(await db.raw('pragma wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 0 }]);
    // 8 MB in each file's log: twice what one automatic checkpoint (1,000 pages) would have let through.
    const before = sizes();
    for (const schema of ['main', 'sandbox']) {
      await db.raw(`create table ${schema}.filler (bytes blob)`);
      for (let i = 0; i < 8; i++)
        await db.raw(
          `with recursive n(i) as (select 1 union all select i + 1 from n where i < 256)
          insert into ${schema}.filler select randomblob(4000) from n`,
        );
    }
    const grown = (now: typeof before) =>
      now.main > before.main + 8_000_000 && now.sandbox > before.sandbox + 8_000_000;
    expect(grown(await until(async () => sizes(), grown))).toBe(true);
  });
});
