// One process is a whole instance on PostgreSQL too: `DATABASE_URL=… herald serve` alone publishes.
import { describe, expect, it } from 'vitest';
import { DATABASES, seedWorkspace, startHerald } from './support/harness.ts';
import { sandboxAccount, until } from './support/network.ts';
import { spawnHerald } from './support/spawnHerald.ts';

describe.runIf(DATABASES.includes('postgres'))('herald serve on PostgreSQL', () => {
  it('publishes a post due now with no `herald worker` beside it', async () => {
    // The harness makes and seeds the database; the server under test is a separate `bin/herald serve`.
    const seeded = await startHerald('postgres');
    const ws = await seedWorkspace(seeded);
    const account = await sandboxAccount(seeded, ws.workspaceId, 'threads');
    const server = await spawnHerald(
      { dataDir: seeded.config.dataDir, databaseUrl: seeded.config.databaseUrl },
      { WORKER: '' },
    );
    try {
      const headers = { Authorization: `Bearer ${ws.writeKey}`, 'Content-Type': 'application/json' };
      const api = (p: string, init: RequestInit = {}) =>
        fetch(`${server.base}/v1${p}`, { ...init, headers }).then((r) => r.json());
      const body = {
        targets: { accountIds: [account.id] },
        mediaIds: [],
        text: 'Hello from one process',
        when: 'now',
        confirm: true,
      };
      const created = await api('/posts', { method: 'POST', body: JSON.stringify(body) });
      const post = await until(
        () => api(`/posts/${created.posts[0].id}`),
        (p) => p.status !== 'queued',
      );
      expect(post).toMatchObject({ status: 'live', externalUrl: expect.any(String) });
    } finally {
      await server.stop();
      await seeded.close();
    }
  }, 120_000); // a separate `bin/herald` process: its start-up is slow on a busy machine
});
