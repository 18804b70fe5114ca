// `herald serve` on SIGTERM: stops taking connections, lets the request in flight finish, exits 0. Its JSON log
// buffers request lines, but a mail's link (no SMTP_URL) and an error line reach stdout at once.
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
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_FORMAT: 'json' };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
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
  /** Resolves once stdout holds `text`; no other traffic comes meanwhile to push it out of a buffer. */
  const written = (text: string) =>
    new Promise<void>((resolve) => {
      const look = () => output.includes(text) && resolve();
      look();
      child.stdout.on('data', look);
    });
  return { dataDir, port, child, exited, output: () => output, written };
}

/** A child process that logs through createLogger (JSON) and stays alive until it is ended; stdout so far. */
function loggingChild(script: string) {
  const logger = new URL('../runtime/logger.ts', import.meta.url).href;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', `const { createLogger } = await import('${logger}');\n${script}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const written = (text: string) =>
    new Promise<void>((resolve) => {
      child.stdout.on('data', (d) => {
        output += d;
        if (output.includes(text)) resolve();
      });
    });
  return { child, written, output: () => output };
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

  it('writes a password reset link to its log at once when mail is logged (no SMTP_URL)', async () => {
    const { dataDir, port, child, exited, output, written } = await startServe('herald-mail-');
    const db = openDatabase({ dataDir });
    await createWorkspace(db, { name: 'Mail', plan: 'free', tz: 'Europe/Berlin', email: 'forgot@example.com' });
    await db.destroy();
    const asked = await fetch(`http://127.0.0.1:${port}/auth/password-reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'forgot@example.com' }),
    });
    expect(asked.status).toBe(202);
    // Nothing else happens: a line left in the buffer would never arrive, and the test would time out.
    await written('/app/reset-password?token=');
    const mail = output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((line) => line.mail);
    expect(mail.mail).toMatchObject({ to: 'forgot@example.com', subject: 'Reset your Herald password' });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes an error line at once, after the buffered lines before it', async () => {
    const run = loggingChild(
      "const log = createLogger('info', 'json'); log.info('an ordinary line'); log.error('something broke');" +
        ' setInterval(() => {}, 1000);',
    );
    await run.written('something broke');
    // The line before the error went with it, in order.
    expect(run.output().indexOf('an ordinary line')).toBeLessThan(run.output().indexOf('something broke'));
    run.child.kill();
  });

  it('writes a burst of warnings, every one, without piling up listeners on its stream', async () => {
    let stderr = '';
    const run = loggingChild(
      "const log = createLogger('info', 'json'); for (let i = 0; i < 2000; i++) log.warn({ i }, 'database gone');" +
        " log.error('the last line'); setInterval(() => {}, 1000);",
    );
    run.child.stderr.on('data', (d) => {
      stderr += d;
    });
    await run.written('the last line');
    const exited = new Promise((resolve) => run.child.once('exit', resolve));
    run.child.kill();
    await exited;
    expect(run.output().match(/database gone/g)).toHaveLength(2000);
    expect(stderr).not.toContain('MaxListenersExceededWarning');
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
