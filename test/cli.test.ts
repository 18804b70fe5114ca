// bin/herald as an operator runs it: one JSON object on stdout, or {code, message, hint} on stderr
// with a non-zero exit.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE } from '../db/connect.ts';
import { createPgDatabase, DATABASES } from './support/harness.ts';

const run = promisify(execFile);
const HERALD = new URL('../bin/herald', import.meta.url).pathname;

describe.each(DATABASES)('bin/herald on %s', (kind) => {
  let dataDir: string;
  let dropPg: (() => Promise<void>) | undefined;
  const env: Record<string, string> = {};

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-cli-'));
    Object.assign(env, process.env, { DATA_DIR: dataDir });
    if (kind === 'postgres') {
      const pg = await createPgDatabase();
      env.DATABASE_URL = pg.url;
      dropPg = pg.drop;
    } else {
      delete env.DATABASE_URL;
    }
  });
  afterAll(async () => {
    await dropPg?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function herald(...args: string[]) {
    try {
      const { stdout, stderr } = await run(HERALD, args, { env });
      return { code: 0, out: JSON.parse(stdout), stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, err: JSON.parse(e.stderr.trim().split('\n').at(-1)!), stdout: e.stdout, stderr: e.stderr };
    }
  }

  it('creates a workspace, a key and sandbox accounts up to the plan limit', async () => {
    const ws = await herald(
      'workspace',
      'create',
      '--name',
      'Acme Shop',
      '--plan',
      'free',
      '--tz',
      'Europe/Berlin',
      '--email',
      'ops@acme.test',
    );
    expect(ws.code).toBe(0);
    expect(ws.stdout.trim().split('\n')).toHaveLength(1);
    expect(ws.out).toEqual({ workspaceId: expect.stringMatching(/^ws_/), userId: expect.stringMatching(/^usr_/) });

    const key = await herald(
      'key',
      'create',
      '--workspace',
      ws.out.workspaceId,
      '--name',
      'agent',
      '--scopes',
      'read,write',
    );
    expect(key.out).toEqual({ key: expect.stringMatching(/^hld_[0-9A-Za-z]{40}$/) });

    for (const platform of ['instagram', 'threads']) {
      const acc = await herald(
        'account',
        'add-sandbox',
        '--workspace',
        ws.out.workspaceId,
        '--platform',
        platform,
        '--name',
        `Acme ${platform}`,
      );
      expect(acc.out).toEqual({ accountId: expect.stringMatching(/^acc_/) });
    }
    const over = await herald(
      'account',
      'add-sandbox',
      '--workspace',
      ws.out.workspaceId,
      '--platform',
      'youtube',
      '--name',
      'Acme TV',
      '--status',
      'expired',
    );
    expect(over.code).not.toBe(0);
    expect(over.stdout).toBe('');
    expect(over.err).toMatchObject({
      code: 'quota_exceeded',
      limit: 2,
      used: 2,
      upgradeUrl: expect.any(String),
      hint: expect.any(String),
    });
  });

  it('explains bad arguments on stderr with a non-zero exit', async () => {
    const cases = [
      ['workspace', 'create', '--name', 'X', '--plan', 'platinum'],
      ['workspace', 'create', '--name', 'X', '--plan', 'creator', '--tz', 'Mars/Olympus'],
      ['workspace', 'create', '--plan', 'creator'],
      ['key', 'create', '--workspace', 'ws_nope', '--name', 'k', '--scopes', 'read'],
      ['key', 'create', '--workspace', 'ws_nope', '--name', 'k', '--scopes', 'admin'],
      ['account', 'add-sandbox', '--workspace', 'ws_nope', '--platform', 'myspace', '--name', 'n'],
      ['frobnicate'],
    ];
    for (const args of cases) {
      const res = await herald(...args);
      expect(res.code, args.join(' ')).not.toBe(0);
      expect(res.stdout, args.join(' ')).toBe('');
      expect(res.err, args.join(' ')).toEqual(
        expect.objectContaining({ code: expect.any(String), message: expect.any(String), hint: expect.any(String) }),
      );
    }
  }, 120_000); // seven process starts: slow on a busy 2-core machine

  it('migrates idempotently', async () => {
    expect((await herald('migrate')).out).toEqual({ migrated: true, applied: [] });
    expect((await herald('migrate')).out).toEqual({ migrated: true, applied: [] });
  });
});

describe.runIf(DATABASES.includes('sqlite'))('bin/herald on a busy SQLite database', () => {
  it('waits, then says the database is busy, never the SQL; works once the lock is let go', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-cli-busy-'));
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    const create = (name: string, wait: Record<string, string>) =>
      run(HERALD, ['workspace', 'create', '--name', name, '--plan', 'free'], { env: { ...env, ...wait } }).then(
        ({ stdout }) => ({ code: 0, out: JSON.parse(stdout), err: undefined }),
        (e: { code: number; stderr: string }) => ({ code: e.code, out: undefined, err: JSON.parse(e.stderr.trim()) }),
      );
    let other: Database.Database | undefined;
    try {
      expect((await create('First', {})).code).toBe(0);
      // A second connection, as the server's, holds the write lock; the command waits 100 ms for it (configured).
      other = new Database(path.join(dataDir, SQLITE_FILE));
      other.exec('BEGIN IMMEDIATE');
      const busy = await create('Second', { SQLITE_BUSY_TIMEOUT_MS: '100' });
      expect(busy.code).toBe(1);
      expect(busy.err).toEqual({
        code: 'database_busy',
        message: expect.stringMatching(/^The database is busy: /),
        hint: expect.stringContaining('Run the same command again'),
      });
      expect(JSON.stringify(busy.err)).not.toMatch(/insert into|select |update |SQLITE_BUSY:|database is locked/i);
      other.exec('ROLLBACK');
      expect((await create('Second', { SQLITE_BUSY_TIMEOUT_MS: '100' })).code).toBe(0);
    } finally {
      other?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
