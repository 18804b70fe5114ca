// What a newcomer sees first: the README's two commands, then what `herald serve` prints: a readable banner and log
// lines at a terminal (a pseudo-terminal from script(1) here), one JSON line per event otherwise or with
// LOG_FORMAT=json.
import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createPgDatabase, DATABASES } from './support/harness.ts';
import { freePort } from './support/spawnHerald.ts';

const HERALD = new URL('../bin/herald', import.meta.url).pathname;

/** Runs `herald serve` until its output contains `marker`, stops it with SIGTERM, and answers everything it printed. */
async function serveUntil(env: Record<string, string>, opts: { tty: boolean; marker: RegExp }): Promise<string> {
  const [cmd, args] = opts.tty ? ['script', ['-qfec', `exec ${HERALD} serve`, '/dev/null']] : [HERALD, ['serve']];
  const child = spawn(cmd, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A test that fails or times out before the marker still stops the server it started.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (opts.marker.test(out)) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    void exited.then(() => reject(new Error(`herald serve exited before printing ${opts.marker}:\n${out}`)));
  });
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  return out.replace(/\r/g, '');
}

describe("the README's first screen", () => {
  it('shows the two commands a fresh machine needs, as outside testers run them', () => {
    const firstScreen = fs
      .readFileSync(new URL('../README.md', import.meta.url), 'utf8')
      .split('\n')
      .slice(0, 24);
    expect(firstScreen).toContain(
      'make run    # installs what is missing, migrates, serves on SQLite with sandbox networks',
    );
    expect(firstScreen).toContain('make test   # installs what is missing, runs every test (SQLite and PostgreSQL)');
  });
});

describe.each(DATABASES)('the first screen on %s', (kind) => {
  const env: Record<string, string> = {};
  let dataDir: string;
  let dropPg: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-screen-'));
    const port = await freePort();
    Object.assign(env, process.env, { DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://localhost:${port}` });
    delete env.LOG_FORMAT;
    delete env.DATABASE_URL;
    if (kind === 'postgres') {
      const pg = await createPgDatabase();
      env.DATABASE_URL = pg.url.replace('postgres://postgres@', 'postgres://postgres:hunter2-secret@');
      dropPg = pg.drop;
    }
  });
  afterAll(async () => {
    await dropPg?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('greets a person at a terminal with where everything is and the sign-up address as the next step', async () => {
    const out = await serveUntil(env, { tty: true, marker: /stop with Ctrl\+C/ });
    const base = env.PUBLIC_URL;
    expect(out).toContain(`Dashboard  ${base}/app`);
    expect(out).toContain(`REST API   ${base}/v1`);
    expect(out).toContain(`MCP        ${base}/mcp`);
    expect(out).toContain(`Docs       ${base}/docs`);
    expect(out).toMatch(
      kind === 'sqlite'
        ? `Database   SQLite, ${dataDir}/herald.sqlite`
        : /Database {3}PostgreSQL, 127\.0\.0\.1:5432\/herald_test_/,
    );
    expect(out).not.toContain('hunter2-secret');
    expect(out).toContain(`Storage    disk, ${dataDir}/media`);
    expect(out).toContain('Networks   sandbox: simulated networks');
    expect(out).toContain(`Next step: create the first account at ${base}/app/sign-up`);
    // Log lines are for people too: no JSON objects.
    expect(out.split('\n').filter((line) => line.startsWith('{'))).toEqual([]);
  });

  // The rest does not depend on the database.
  const sqliteOnly = kind === 'sqlite' ? it : it.skip;

  sqliteOnly('points to sign-in instead once a user exists', async () => {
    await promisify(execFile)(
      HERALD,
      ['workspace', 'create', '--name', 'Acme', '--plan', 'creator', '--email', 'ops@acme.test'],
      { env },
    );
    const out = await serveUntil(env, { tty: true, marker: /stop with Ctrl\+C/ });
    expect(out).toContain(`Sign in at ${env.PUBLIC_URL}/app`);
    expect(out).not.toContain('sign-up');
  });

  sqliteOnly('writes one JSON line per event when stdout is not a terminal', async () => {
    const out = await serveUntil(env, { tty: false, marker: /Herald is listening/ });
    const lines = out.trim().split('\n');
    const events = lines.map((line) => JSON.parse(line));
    expect(events.find((e) => /Herald is listening/.test(e.msg))).toMatchObject({
      level: 30,
      app: `${env.PUBLIC_URL}/app`,
      api: `${env.PUBLIC_URL}/v1`,
      mcp: `${env.PUBLIC_URL}/mcp`,
      database: kind === 'sqlite' ? 'sqlite' : 'postgresql',
    });
  });

  sqliteOnly('writes JSON at a terminal too with LOG_FORMAT=json', async () => {
    const out = await serveUntil({ ...env, LOG_FORMAT: 'json' }, { tty: true, marker: /Herald is listening[^\n]*\n/ });
    expect(out).not.toContain('Dashboard  ');
    // Up to the listening line: what script(1) itself says when stopped is not Herald's.
    const lines = out.slice(0, out.indexOf('Herald is listening')).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(0, -1)) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.at(-1)).toMatch(/^\{"level":30,/);
  });
});
