// The sandbox networks keep their own accounts (sandbox_accounts), as a real network does: what
// `herald account add-sandbox --status` registers there outlives the process that wrote it, and Herald's
// own accounts table never changes what a simulator answers.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../runtime/config.ts';
import { createServices, type Services } from '../runtime/services.ts';
import { createApp } from '../server/app.ts';

const run = promisify(execFile);
const HERALD = new URL('../bin/herald', import.meta.url).pathname;

describe('sandbox accounts', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-sandbox-accounts-'));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
  let services: Services;
  let app: Awaited<ReturnType<typeof createApp>>;
  const herald = async (...args: string[]) => JSON.parse((await run(HERALD, args, { env })).stdout);

  let workspaceId: string;
  beforeAll(async () => {
    ({ workspaceId } = await herald(
      'workspace',
      'create',
      '--name',
      'Acme Shop',
      '--plan',
      'creator',
      '--email',
      'ops@acme.test',
    ));
  });
  afterAll(async () => {
    await services?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** An account made by the CLI (another process), then read by a server started afterwards. */
  async function added(status: 'ok' | 'expired'): Promise<{ accountId: string; externalId: string }> {
    const { accountId } = await herald(
      'account',
      'add-sandbox',
      '--workspace',
      workspaceId,
      '--platform',
      'threads',
      '--name',
      'Acme',
      '--status',
      status,
    );
    services ??= createServices({ ...loadConfig({}), dataDir, logLevel: 'silent' });
    app ??= await createApp(services);
    const { external_id: externalId } = await services.db('accounts').where({ id: accountId }).first('external_id');
    return { accountId, externalId };
  }

  const createThread = (externalId: string) =>
    request(app)
      .post(`/sandbox/threads/v1.0/${externalId}/threads`)
      .set('Authorization', `Bearer sandbox-access.${externalId}.abc`)
      .type('form')
      .send({ media_type: 'TEXT', text: 'Hello.' });

  it("an account added expired answers Threads' token error later, whatever Herald's table says", async () => {
    const { accountId, externalId } = await added('expired');
    const refused = await createThread(externalId);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 190, error_subcode: 463, type: 'OAuthException' });
    await services.db('accounts').where({ id: accountId }).update({ status: 'ok' });
    expect((await createThread(externalId)).body.error).toMatchObject({ code: 190, error_subcode: 463 });
  });

  it('an account Herald marks revoked still works on the network until the network says otherwise', async () => {
    const { accountId, externalId } = await added('ok');
    await services.db('accounts').where({ id: accountId }).update({ status: 'revoked' });
    const created = await createThread(externalId);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.stringMatching(/^\d+$/) });
  });

  it("keeps the simulators' tables in a file of their own, whose writes never hold up Herald's", async () => {
    await added('ok');
    const names = async (schema: string) =>
      (await services.db.raw(`select name from ${schema}.sqlite_master where type = 'table'`)).map(
        (r: { name: string }) => r.name,
      );
    expect(await names('sandbox')).toEqual(
      expect.arrayContaining(['sandbox_items', 'sandbox_failures', 'sandbox_accounts']),
    );
    expect((await names('main')).filter((name: string) => name.startsWith('sandbox'))).toEqual([]);
    // A simulator of another process in the middle of a write: it holds sandbox.sqlite's write lock.
    const simulator = new Database(path.join(dataDir, 'sandbox.sqlite'));
    simulator.exec('begin immediate');
    try {
      // Herald's own writes (here a CLI process's) go on; in a shared file they would wait, then fail busy.
      const { workspaceId: other } = await herald('workspace', 'create', '--name', 'Beta', '--plan', 'free');
      expect(await services.db('workspaces').where({ id: other }).first('name')).toEqual({ name: 'Beta' });
    } finally {
      simulator.exec('rollback');
      simulator.close();
    }
  });
});
