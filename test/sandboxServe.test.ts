// `herald sandbox serve` runs the simulators in a process of their own; SANDBOX_URL points Herald's
// connectors at it, and `herald serve` then no longer serves them itself.
import { describe, expect, it } from 'vitest';
import { DATABASES, seedWorkspace, startHerald } from './support/harness.ts';
import { postedNow, sandboxAccount } from './support/network.ts';
import { freePort, spawnHerald, spawnSandbox } from './support/spawnHerald.ts';

describe.each(DATABASES)('herald sandbox serve (%s)', (kind) => {
  it('publishes through the separate simulator process', async () => {
    // The harness makes and seeds the database; both processes under test are separate `bin/herald` ones.
    const seeded = await startHerald(kind);
    const ws = await seedWorkspace(seeded);
    const account = await sandboxAccount(seeded, ws.workspaceId, 'threads');
    const db = { dataDir: seeded.config.dataDir, databaseUrl: seeded.config.databaseUrl };
    const heraldPort = await freePort();
    const sandbox = await spawnSandbox(db, { PUBLIC_URL: `http://127.0.0.1:${heraldPort}` });
    const server = await spawnHerald(db, { SANDBOX_URL: sandbox.base }, heraldPort).catch(async (err) => {
      await sandbox.stop();
      throw err;
    });
    try {
      const post = await postedNow(server.base, ws.writeKey, account.id, 'Hello through the sandbox process', 60_000);
      const onSandbox = new RegExp(`^${sandbox.base}/threads/p/`);
      expect(post).toMatchObject({ status: 'live', externalUrl: expect.stringMatching(onSandbox) });

      // The post's page is the sandbox process's; Herald itself serves no simulator.
      const page = await fetch(post.externalUrl);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Hello through the sandbox process');
      const pagePath = new URL(post.externalUrl).pathname.replace(/^.*\/threads/, '');
      const inServer = await fetch(`${server.base}/sandbox/threads${pagePath}`);
      expect(inServer.status).toBe(404);
    } finally {
      await server.stop();
      await sandbox.stop();
      await seeded.close();
    }
  }, 120_000); // two separate `bin/herald` processes: their start-up is slow on a busy machine
});
