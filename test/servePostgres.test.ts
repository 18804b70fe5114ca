// One process is a whole instance on PostgreSQL too: `DATABASE_URL=… herald serve` alone publishes.
import { describe, expect, it } from 'vitest';
import { DATABASES, seedWorkspace, startHerald } from './support/harness.ts';
import { freePort, sandboxAccount, serveProcess, until } from './support/network.ts';

describe.runIf(DATABASES.includes('postgres'))('herald serve on PostgreSQL', () => {
  it('publishes a post due now with no `herald worker` beside it', async () => {
    // The harness makes and seeds the database; the server under test is a separate `bin/herald serve`.
    const seeded = await startHerald('postgres');
    const ws = await seedWorkspace(seeded);
    const account = await sandboxAccount(seeded, ws.workspaceId, 'threads');
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: seeded.config.dataDir, PORT: String(port),
      DATABASE_URL: seeded.config.databaseUrl };
    delete env.WORKER;
    const server = await serveProcess(env);
    try {
      const headers = { Authorization: `Bearer ${ws.writeKey}`, 'Content-Type': 'application/json' };
      const api = (p: string, init: RequestInit = {}) =>
        fetch(`http://127.0.0.1:${port}/v1${p}`, { ...init, headers }).then((r) => r.json());
      const body = { targets: { accountIds: [account.id] }, mediaIds: [], text: 'Hello from one process', when: 'now',
        confirm: true };
      const created = await api('/posts', { method: 'POST', body: JSON.stringify(body) });
      const post = await until(() => api(`/posts/${created.posts[0].id}`), (p) => p.status !== 'queued');
      expect(post).toMatchObject({ status: 'live', externalUrl: expect.any(String) });
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      await seeded.close();
    }
  }, 120_000); // a separate `bin/herald` process: its start-up is slow on a busy machine
});
