// Tokens kept alive without a post. The token upkeep (worker/tokenUpkeep.ts) renews each token well
// before its network's limit, on every instance and never twice; a renewal the network refuses makes the account
// `expired` at once, with its event and a mail to the owners and administrators. The sandbox networks issue the
// tokens over real HTTP and judge each refresh by the injected clock (Threads: 60 days, refreshable once a day old).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findWorkspace } from '../db/identity.ts';
import { workspaceData } from '../db/workspaceData.ts';
import { randomBase62 } from '../domain/ids.ts';
import { usableAccount } from '../networks/accountCredentials.ts';
import { connectorFor } from '../networks/connectors.ts';
import type { Platform } from '../networks/rules.ts';
import { sandboxToken } from '../networks/sandbox/state.ts';
import type { TokenRecord } from '../networks/sandbox/tokens.ts';
import { isoAt } from '../runtime/clock.ts';
import { createServices, type Services } from '../runtime/services.ts';
import { renewTokens } from '../worker/tokenUpkeep.ts';
import { startWorker } from '../worker/worker.ts';
import { DATABASES, seedWorkspace, type Seeded } from './support/harness.ts';
import { mailbox } from './support/mailbox.ts';
import { manualClock } from './support/manualClock.ts';
import { listeningHerald } from './support/network.ts';

const DAY_MS = 86_400_000;

describe.each(DATABASES)('token upkeep on %s', (kind) => {
  let env: Awaited<ReturnType<typeof listeningHerald>>;
  let ws: Seeded;
  let mail: Awaited<ReturnType<typeof mailbox>>;
  const clock = manualClock(Date.parse('2026-12-01T09:00:00Z'));

  beforeAll(async () => {
    mail = await mailbox();
    env = await listeningHerald(kind, { mail: { smtpUrl: mail.url, from: 'Herald <h@example.com>' } }, { clock });
    ws = await seedWorkspace(env, { plan: 'agency', email: `owner-${randomBase62(6).toLowerCase()}@example.com` });
  });
  afterAll(async () => {
    await env.close();
    await mail.close();
  });

  /** Connects an account as the consent flow stores it, with the credentials the network issued now. */
  async function connect(platform: Platform, credentials: { accessToken: string; refreshToken?: string }) {
    const externalId = credentials.accessToken.split('.')[1]!;
    const expiresAt = 'expiresAt' in credentials ? (credentials.expiresAt as string) : null;
    const workspace = (await findWorkspace(env.services.db, ws.workspaceId))!;
    await workspaceData(env.services.db, workspace, clock).accounts.connect(platform, [
      {
        externalId,
        displayName: `Acme ${platform} ${externalId.slice(-4)}`,
        tokenSealed: env.services.keyring.encrypt(JSON.stringify(credentials)),
        tokenExpiresAt: expiresAt,
      },
    ]);
    return (await env.services.db('accounts').where({ platform, external_id: externalId }).first('id')).id as string;
  }

  /** A Threads account whose long-lived token the simulator issued now (th_exchange_token, over HTTP). */
  async function threadsAccount(): Promise<string> {
    const short = sandboxToken('access', `sandbox-threads-${randomBase62(10)}`);
    const res = await fetch(
      `${env.base}/sandbox/threads/access_token?grant_type=th_exchange_token&access_token=${short}`,
    );
    const body = (await res.json()) as { access_token: string; expires_in: number };
    expect(res.status, JSON.stringify(body)).toBe(200);
    return connect('threads', {
      accessToken: body.access_token,
      expiresAt: isoAt(clock.now() + body.expires_in * 1000),
    } as { accessToken: string });
  }

  /** The refreshes the account's network saw: tokens it issued from another of the account's tokens. */
  async function refreshesSeen(accountId: string): Promise<number> {
    const account = await env.services.db('accounts').where({ id: accountId }).first('platform', 'external_id');
    const rows = await env.services
      .db('sandbox_items')
      .where({ network: account.platform, account: account.external_id, kind: 'token' })
      .select('data');
    return rows.filter((r) => (JSON.parse(r.data) as TokenRecord).from !== null).length;
  }

  // Each test starts with no other account due: those of earlier tests are disconnected.
  beforeEach(async () => {
    await env.services.db('accounts').update({ disconnected_at: isoAt(clock.now()) });
  });

  const accountRow = (id: string) =>
    env.services.db('accounts').where({ id }).first('status', 'token_expires_at', 'token_refresh_claim');

  it('keeps a Threads account that posts nothing alive past 60 days, with one refresh', async () => {
    const start = clock.now();
    const id = await threadsAccount();
    // The upkeep looks every day (each worker looks every 10 minutes; nothing changes in between).
    for (let day = 1; day <= 59; day++) {
      clock.set(start + day * DAY_MS);
      await renewTokens(env.services);
    }
    const row = await accountRow(id);
    expect(row.status).toBe('ok');
    // Renewed with a third of its 60 days left (day 40): the new token lasts to day 100.
    expect(Date.parse(row.token_expires_at)).toBe(start + 100 * DAY_MS);
    expect(await refreshesSeen(id)).toBe(1);
    // Past the first token's 60 days, the account stays connected.
    clock.set(start + 61 * DAY_MS);
    await renewTokens(env.services);
    expect((await accountRow(id)).status).toBe('ok');
  });

  it('makes an account whose refresh is refused expired at once, with the event and a mail', async () => {
    const start = clock.now();
    const id = await threadsAccount();
    const before = await env.services.db('events').where({ type: 'account.needs_reconnect', object_id: id }).count();
    expect(Number(Object.values(before[0]!)[0])).toBe(0);
    // No upkeep for 61 days (every instance down): the token expired, and Threads refuses to refresh it.
    clock.set(start + 61 * DAY_MS);
    expect(await renewTokens(env.services)).toEqual({ renewed: 0, refused: 1 });
    const row = await accountRow(id);
    expect(row).toMatchObject({ status: 'expired', token_refresh_claim: null });
    const events = await env.services
      .db('events')
      .where({ type: 'account.needs_reconnect', object_id: id, workspace_id: ws.workspaceId })
      .select('id');
    expect(events).toHaveLength(1);
    const received = await mail.next();
    expect(received.text).toContain('Threads refused to renew');
    expect(received.text).toContain('Session has expired');
    expect(received.text).toContain(`${env.base}/app/accounts`);
    // An expired account is left alone afterwards: no second event, no second mail.
    await renewTokens(env.services);
    expect(await refreshesSeen(id)).toBe(0);
    expect(mail.pending()).toBe(0);
  });

  it('renews each token once when two instances run the upkeep at once', async () => {
    const start = clock.now();
    const threads = [await threadsAccount(), await threadsAccount()];
    const creator = `sandbox-tiktok-${randomBase62(10)}`;
    const tiktok = await connect('tiktok', {
      accessToken: sandboxToken('access', creator),
      refreshToken: sandboxToken('refresh', creator),
    });
    const other: Services = createServices(env.config, { clock });
    try {
      clock.set(start + 41 * DAY_MS);
      const passes = await Promise.all([
        renewTokens(env.services),
        renewTokens(other),
        renewTokens(env.services),
        renewTokens(other),
      ]);
      expect(passes.reduce((sum, p) => sum + p.renewed, 0)).toBe(3);
      for (const id of [...threads, tiktok]) {
        expect(await refreshesSeen(id)).toBe(1);
        expect((await accountRow(id)).status).toBe('ok');
      }
    } finally {
      await other.close();
    }
  });

  it('a call that needs a fresh token while the upkeep renews it sends the rotating refresh token once', async () => {
    const start = clock.now();
    const creator = `sandbox-tiktok-${randomBase62(10)}`;
    const credentials = {
      accessToken: sandboxToken('access', creator),
      refreshToken: sandboxToken('refresh', creator),
      expiresAt: isoAt(start + 31 * DAY_MS + 5 * 60_000),
    };
    const id = await connect('tiktok', credentials);
    clock.set(start + 31 * DAY_MS);
    const row = await env.services.db('accounts').where({ id }).first('external_id', 'display_name', 'token_sealed');
    const stored = { id, externalId: row.external_id, displayName: row.display_name, tokenSealed: row.token_sealed };
    const tiktok = connectorFor('tiktok', env.services.config, clock)!;
    const [inUse] = await Promise.all([usableAccount(env.services, tiktok, stored), renewTokens(env.services)]);
    expect(inUse.credentials.accessToken).not.toBe(credentials.accessToken);
    expect(await refreshesSeen(id)).toBe(1);
    expect((await accountRow(id)).status).toBe('ok');
  });

  it("the Threads simulator refreshes only a token a day old and unexpired, refusing in Meta's words", async () => {
    const start = clock.now();
    const short = sandboxToken('access', `sandbox-threads-${randomBase62(10)}`);
    const exchanged = await fetch(
      `${env.base}/sandbox/threads/access_token?grant_type=th_exchange_token&access_token=${short}`,
    );
    const token = ((await exchanged.json()) as { access_token: string }).access_token;
    const refresh = async (accessToken: string) => {
      const res = await fetch(
        `${env.base}/sandbox/threads/refresh_access_token?grant_type=th_refresh_token&access_token=${accessToken}`,
      );
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const young = await refresh(token);
    expect(young).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    expect(young.body.error.message).toMatch(/at least 24 hours old/);
    clock.set(start + DAY_MS);
    const fresh = await refresh(token);
    expect(fresh).toMatchObject({ status: 200, body: { token_type: 'bearer', expires_in: 60 * 86_400 } });
    clock.set(start + 61 * DAY_MS);
    expect(await refresh(token)).toMatchObject({
      status: 400,
      body: { error: { code: 190, error_subcode: 463, type: 'OAuthException' } },
    });
  });

  it('runs in the publishing worker, which every instance starts', async () => {
    const start = clock.now();
    const id = await threadsAccount();
    const worker = await startWorker(env.services, { watchEveryMs: 24 * 3600_000, upkeepEveryMs: 24 * 3600_000 });
    try {
      clock.set(start + 41 * DAY_MS);
      await worker.renewTokens();
      expect(await refreshesSeen(id)).toBe(1);
    } finally {
      await worker.stop();
    }
  });
});
