// One process is a whole instance on PostgreSQL too: `DATABASE_URL=… herald serve` alone publishes, and a healthy
// start logs nothing at warn or above (operators alert on those: docs/guides/operating.md, What to monitor).
import { describe, expect, it } from 'vitest';
import { until } from './support/waiting.ts';
import { DATABASES, seedWorkspace, startHerald } from './support/harness.ts';
import { postedNow, sandboxAccount } from './support/network.ts';
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
      const post = await postedNow(server.base, ws.writeKey, account.id, 'Hello from one process');
      expect(post).toMatchObject({ status: 'live', externalUrl: expect.any(String) });
    } finally {
      await server.stop();
      await seeded.close();
    }
  }, 120_000); // a separate `bin/herald` process: its start-up is slow on a busy machine

  it('starts with its worker and job queue, logging no line at warn or above', async () => {
    const seeded = await startHerald('postgres');
    const server = await spawnHerald(
      { dataDir: seeded.config.dataDir, databaseUrl: seeded.config.databaseUrl },
      { LOG_LEVEL: 'info' },
    );
    try {
      const lines = () =>
        server
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { level: number; msg: string });
      // The worker (and graphile-worker's queue) starts before the server says it listens.
      await until(() => lines().some((l) => l.msg.startsWith('Herald is listening')));
      expect(lines().some((l) => l.msg === 'publishing worker started')).toBe(true);
      expect(lines().filter((l) => l.level >= 40)).toEqual([]);
    } finally {
      await server.stop();
      await seeded.close();
    }
  }, 120_000);
});
