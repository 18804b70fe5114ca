// Connectors read the process's clock (ConnectorContext.clock), not the machine's: a refreshed token's
// expiry is counted from the injected time, for Google's refresh and Meta's long-lived token refresh alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorFor } from '../networks/connectors.ts';
import { sandboxToken } from '../networks/sandbox/state.ts';
import { systemClock, type Clock } from '../runtime/clock.ts';
import { seedWorkspace, type Seeded } from './support/harness.ts';
import { listeningHerald, sandboxAccount } from './support/network.ts';

const AT = Date.parse('2031-01-15T08:00:00.000Z');
const fixed: Clock = { now: () => AT, sleep: systemClock.sleep };

describe('connectors on an injected clock', () => {
  let env: Awaited<ReturnType<typeof listeningHerald>>;
  let ws: Seeded;
  beforeAll(async () => {
    env = await listeningHerald('sqlite', {}, { clock: fixed });
    ws = await seedWorkspace(env);
  });
  afterAll(() => env.close());

  it("YouTube counts a refreshed token's expiry from the clock it was given", async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'youtube');
    const youtube = connectorFor('youtube', env.config, env.services.clock)!;
    const fresh = await youtube.refresh!({
      ...account,
      credentials: { ...account.credentials, refreshToken: sandboxToken('refresh', account.externalId) },
    });
    expect(fresh.expiresAt).toBe(new Date(AT + 3599_000).toISOString());
  });

  it("Threads counts a refreshed long-lived token's 60 days from the clock it was given", async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const fresh = await connectorFor('threads', env.config, env.services.clock)!.refresh!(account);
    expect(fresh.expiresAt).toBe(new Date(AT + 60 * 86_400_000).toISOString());
  });
});
