// `herald serve` on SIGTERM: stops taking connections, lets the request in flight finish, exits 0.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connect.ts';
import { createSession, createWorkspace } from '../db/identity.ts';
import { freePort } from './support/freePort.ts';

const HERALD = new URL('../bin/herald', import.meta.url).pathname;

/** `herald serve` on SQLite in a fresh DATA_DIR, once it says it is listening; `output()` is its stdout so far. */
async function startServe(prefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port) };
  delete env.DATABASE_URL;
  const child = spawn(HERALD, ['serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      if (output.includes('Herald is listening')) resolve();
    });
    child.once('exit', () => reject(new Error(`serve exited early: ${output}`)));
  });
  return { dataDir, port, child, exited, output: () => output };
}

describe('herald serve', () => {
  it('logs one line per request without secrets, and drains an in-flight request on SIGTERM', async () => {
    const { dataDir, port, child, exited, output } = await startServe('herald-drain-');

    // Keys, cookies and query strings never reach the log.
    const secretKey = 'hld_SecretKeyThatMustNotBeLogged0000000000';
    const probe = await fetch(`http://127.0.0.1:${port}/v1/whoami?token=query-secret`, {
      headers: { Authorization: `Bearer ${secretKey}`, Cookie: 'herald_session=cookie-secret' },
    });
    expect(probe.status).toBe(401);

    // A request whose body arrives in two parts: SIGTERM lands between them.
    const body = JSON.stringify({ name: 'Launch', accountIds: ['acc_1'] });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/groups',
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });

    const { status, text } = await response;
    expect(status).toBe(401);
    expect(JSON.parse(text).code).toBe('unauthenticated');
    expect(await exited).toBe(0);
    expect(output()).toContain('draining in-flight requests');
    const lines = output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'request',
        method: 'GET',
        path: '/v1/whoami',
        status: 401,
        reqId: expect.any(String),
      }),
    );
    for (const secret of [secretKey, 'cookie-secret', 'query-secret']) expect(output()).not.toContain(secret);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('ends open live update streams cleanly on SIGTERM instead of waiting for them', async () => {
    const { dataDir, port, child, exited } = await startServe('herald-streams-');
    const db = openDatabase({ dataDir });
    const { workspaceId, userId } = await createWorkspace(db, {
      name: 'Streams',
      plan: 'agency',
      tz: 'Europe/Berlin',
      email: 'streams@example.com',
    });
    const { token } = await createSession(db, userId, workspaceId);
    await db.destroy();

    // Two tabs' streams: each must end with its last chunk (a clean end), not be cut when the drain gives up.
    // SIGTERM goes once both are open: a stream that arrives after it is a request the drain never took.
    let open = 0;
    const ends = [1, 2].map(
      () =>
        new Promise<{ status: number; clean: boolean }>((resolve, reject) => {
          http
            .get(
              { host: '127.0.0.1', port, path: '/auth/events', headers: { Cookie: `herald_session=${token}` } },
              (res) => {
                let clean = false;
                res.resume();
                res.on('end', () => (clean = true));
                res.on('close', () => resolve({ status: res.statusCode!, clean }));
                if (res.statusCode === 200 && ++open === 2) child.kill('SIGTERM');
              },
            )
            .on('error', reject);
        }),
    );
    expect(await Promise.all(ends)).toEqual([
      { status: 200, clean: true },
      { status: 200, clean: true },
    ]);
    expect(await exited).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
