// Connecting accounts from the dashboard: a signed-in person goes to the network's consent page and back;
// the accounts the grant covers are connected (or reconnected) in the session's workspace, with sealed
// tokens the connectors use. Real HTTP through the sandbox consent pages, on both databases.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../db/identity.ts';
import { randomBase62 } from '../domain/ids.ts';
import { readCredentials } from '../networks/connector.ts';
import { queueFailure } from '../networks/sandbox/state.ts';
import { signState, STATE_LIFETIME_MS } from '../server/connectRoutes.ts';
import { startWorker, type RunningWorker } from '../worker/worker.ts';
import { addAccount, call, DATABASES, seedWorkspace, startHerald, type Seeded } from './support/harness.ts';
import { listeningHerald } from './support/network.ts';
import { until } from './support/waiting.ts';

type Env = Awaited<ReturnType<typeof listeningHerald>>;

describe.each(DATABASES)('connecting accounts on %s', (kind) => {
  let env: Env;
  let ws: Seeded;
  let cookie: string;
  let worker: RunningWorker;

  beforeAll(async () => {
    env = await listeningHerald(kind);
    ws = await seedWorkspace(env, { plan: 'agency' });
    cookie = await sessionCookie(ws);
    worker = await startWorker(env.services, { watchEveryMs: 200 });
  });
  afterAll(async () => {
    await worker.stop();
    await env.close();
  });

  async function sessionCookie(seeded: Seeded): Promise<string> {
    return `herald_session=${(await createSession(env.services.db, seeded.userId, seeded.workspaceId)).token}`;
  }

  /** Where a GET sends the browser (every connect step answers a redirect). */
  async function go(url: string | URL, withCookie?: string): Promise<URL> {
    const res = await fetch(url, { headers: withCookie ? { cookie: withCookie } : {}, redirect: 'manual' });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!, url);
  }

  /** Fills and submits the network's consent page; answers where the network sends the browser back. */
  async function consent(authorizeUrl: URL, fields: Record<string, string>, decision = 'allow'): Promise<URL> {
    const page = await fetch(authorizeUrl);
    const html = await page.text();
    expect(page.status, html).toBe(200);
    expect(html).toMatch(/Herald wants to access your \w+ account/);
    // The page links the operator's guide to its network: /sandbox/<network>/… → /docs/networks-<network>.
    const guide = `${authorizeUrl.origin}/docs/networks-${authorizeUrl.pathname.split('/')[2]}`;
    expect(html).toMatch(new RegExp(`Connecting for real\\? See the <a href="${guide}">\\w+ guide</a>\\.`));
    const hidden = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
        m[1]!,
        m[2]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))),
      ]),
    );
    const res = await fetch(`${authorizeUrl.origin}${authorizeUrl.pathname}`, {
      method: 'POST',
      body: new URLSearchParams({ ...hidden, ...fields, decision }),
      redirect: 'manual',
    });
    expect(res.status, await res.clone().text()).toBe(302);
    return new URL(res.headers.get('location')!);
  }

  /** The whole round trip: start, consent, callback. Answers the dashboard address it ends at. */
  async function connect(
    platform: string,
    fields: Record<string, string>,
    opts: { cookie?: string; accountId?: string; decision?: string } = {},
  ): Promise<URL> {
    const withCookie = opts.cookie ?? cookie;
    const start = await go(
      `${env.base}/auth/connect/${platform}${opts.accountId ? `?accountId=${opts.accountId}` : ''}`,
      withCookie,
    );
    return go(await consent(start, fields, opts.decision), withCookie);
  }

  type Listed = { id: string; platform: string; displayName: string; status: string };
  // Through a session: Free workspaces have no API keys that work.
  const accountsOf = async (seeded: Seeded) =>
    (await call(env, 'get', '/v1/accounts', { headers: { Cookie: await sessionCookie(seeded) } })).body
      .accounts as Listed[];
  const accountNamed = async (name: string, seeded = ws) =>
    (await accountsOf(seeded)).find((a) => a.displayName === name)!;
  const stored = async (id: string) => {
    const row = await env.services.db('accounts').where({ id }).first();
    return { ...row, credentials: readCredentials(env.services.keyring.decrypt(row.token_sealed)) };
  };

  /** Connected n accounts; a reconnect names the account it reconnected. */
  function expectConnected(at: URL, n: number, reconnected?: string): void {
    expect(`${at.origin}${at.pathname}`).toBe(`${env.base}/app/accounts`);
    expect(Object.fromEntries(at.searchParams)).toEqual({
      connected: String(n),
      ...(reconnected ? { reconnected } : {}),
    });
  }

  function expectRefused(at: URL, code: string): Record<string, string> {
    expect(`${at.origin}${at.pathname}`).toBe(`${env.base}/app/accounts`);
    const query = Object.fromEntries(at.searchParams);
    expect(query).toMatchObject({ error: code, message: expect.any(String), hint: expect.any(String) });
    return query;
  }

  async function publishesNow(accountId: string, text: string): Promise<void> {
    const res = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: { targets: { accountIds: [accountId] }, mediaIds: [], text, when: 'now', confirm: true },
    });
    expect(res.status).toBe(201);
    const id = res.body.posts[0].id;
    const post = await until(
      () => call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey }).then((r) => r.body),
      (p) => p.status === 'live' || p.status === 'failed',
    );
    expect(post).toMatchObject({ status: 'live', externalUrl: expect.stringMatching(/^http/) });
  }

  /** The account's counters read from the network with its stored token: the token works there. */
  async function networkTakesToken(accountId: string): Promise<void> {
    const res = await call(env, 'get', `/v1/accounts/${accountId}/analytics?refresh=true`, { key: ws.readKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  /** The same through a session of another workspace. */
  async function networkTakesTokenOf(accountId: string, withCookie: string): Promise<void> {
    const res = await call(env, 'get', `/v1/accounts/${accountId}/analytics?refresh=true`, {
      headers: { Cookie: withCookie },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  describe('the round trip of each network', () => {
    it('connects a YouTube channel with PKCE and a refresh token, which the YouTube simulator takes', async () => {
      const start = await go(`${env.base}/auth/connect/youtube`, cookie);
      expect(`${start.origin}${start.pathname}`).toBe(`${env.base}/sandbox/youtube/o/oauth2/v2/auth`);
      expect(Object.fromEntries(start.searchParams)).toMatchObject({
        client_id: 'herald-sandbox',
        redirect_uri: `${env.base}/auth/connect/youtube/callback`,
        response_type: 'code',
        scope: expect.stringContaining('https://www.googleapis.com/auth/youtube.upload'),
        access_type: 'offline',
        code_challenge: expect.stringMatching(/^[\w-]{43}$/),
        code_challenge_method: 'S256',
        state: expect.any(String),
      });
      const back = await consent(start, { channel: 'Maria Cooks' });
      expect(`${back.origin}${back.pathname}`).toBe(`${env.base}/auth/connect/youtube/callback`);
      expect(back.searchParams.get('state')).toBe(start.searchParams.get('state'));
      expectConnected(await go(back, cookie), 1);

      const account = await accountNamed('Maria Cooks');
      expect(account).toMatchObject({ platform: 'youtube', status: 'ok' });
      const row = await stored(account.id);
      expect(row.credentials.accessToken.startsWith(`sandbox-access.${row.external_id}.`)).toBe(true);
      expect(row.credentials.refreshToken!.startsWith(`sandbox-refresh.${row.external_id}.`)).toBe(true);
      expect(Date.parse(row.credentials.expiresAt!)).toBeGreaterThan(Date.now() + 50 * 60_000);
      expect(row.token_expires_at).toBe(row.credentials.expiresAt);
      await networkTakesToken(account.id);

      // A code works once.
      expectRefused(await go(back, cookie), 'connect_failed');
    });

    it('connects every Facebook Page granted, and a connected Page publishes through the worker', async () => {
      expectConnected(await connect('facebook', { pages: 'Acme Bakery\nAcme Cafe\n' }), 2);
      const bakery = await accountNamed('Acme Bakery');
      expect(bakery).toMatchObject({ platform: 'facebook', status: 'ok' });
      expect(await accountNamed('Acme Cafe')).toMatchObject({ platform: 'facebook', status: 'ok' });
      const row = await stored(bakery.id);
      expect(row.credentials).toEqual({
        accessToken: expect.stringMatching(`^sandbox-access\\.${row.external_id}\\.`),
      });
      await publishesNow(bakery.id, 'Fresh bread from 7 am.');
    });

    it('connects the Instagram business account linked to the granted Page', async () => {
      expectConnected(
        await connect('instagram', { username: 'acme.shop', accountType: 'business', page: 'Acme Shop' }),
        1,
      );
      const account = await accountNamed('acme.shop');
      expect(account).toMatchObject({ platform: 'instagram', status: 'ok' });
      await networkTakesToken(account.id);
    });

    it('refuses a personal Instagram account in the words of the spec', async () => {
      const before = (await accountsOf(ws)).length;
      const query = expectRefused(
        await connect('instagram', { username: 'maria.private', accountType: 'personal', page: 'Maria Page' }),
        'nothing_to_connect',
      );
      expect(query.message).toContain(
        'Instagram accounts must be of business or creator type; personal accounts cannot be connected.',
      );
      // The reason as a code, which the dashboard says in its own words with the next step.
      expect(query.reason).toBe('instagram_not_professional');
      expect((await accountsOf(ws)).length).toBe(before);
    });

    it('connects a Threads profile with a long-lived token, which publishes through the worker', async () => {
      expectConnected(await connect('threads', { username: 'acme_threads' }), 1);
      const account = await accountNamed('acme_threads');
      expect(account).toMatchObject({ platform: 'threads', status: 'ok' });
      expect(Date.parse((await stored(account.id)).credentials.expiresAt!)).toBeGreaterThan(
        Date.now() + 59 * 86_400_000,
      );
      await publishesNow(account.id, 'Hello from a connected account.');
    });
  });

  describe('reconnecting', () => {
    it('reconnects an expired account with a new token and status ok; another identity changes nothing', async () => {
      expectConnected(await connect('threads', { username: 'sleepy_cat' }), 1);
      const account = await accountNamed('sleepy_cat');
      const before = await stored(account.id);
      await env.services.db('accounts').where({ id: account.id }).update({ status: 'expired' });

      expectRefused(
        await connect('threads', { username: 'someone_else' }, { accountId: account.id }),
        'account_mismatch',
      );
      expect((await accountNamed('sleepy_cat')).status).toBe('expired');
      expect(await accountNamed('someone_else')).toBeUndefined();

      const count = (await accountsOf(ws)).length;
      expectConnected(await connect('threads', { username: 'Sleepy_Cat' }, { accountId: account.id }), 1, account.id);
      expect(await accountNamed('Sleepy_Cat')).toMatchObject({ id: account.id, status: 'ok' });
      expect((await stored(account.id)).credentials.accessToken).not.toBe(before.credentials.accessToken);
      expect((await accountsOf(ws)).length).toBe(count);
    });

    it('sends the posts that failed on the token again once the account is reconnected, and counts them', async () => {
      expectConnected(await connect('threads', { username: 'token_cat' }), 1);
      const account = await accountNamed('token_cat');
      const { external_id: externalId } = await stored(account.id);
      await queueFailure(env.services.db, {
        network: 'threads',
        account: externalId,
        scenario: 'token_rejected',
        times: 1,
      });
      const post = async (text: string) =>
        (
          await call(env, 'post', '/v1/posts', {
            key: ws.writeKey,
            body: { targets: { accountIds: [account.id] }, mediaIds: [], text, when: 'now', confirm: true },
          })
        ).body.posts[0].id as string;
      const read = (id: string) => call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey }).then((r) => r.body);
      const settled = (id: string) =>
        until(
          () => read(id),
          (p) => p.status !== 'queued',
        );
      const failed = await post('Fails on the old token.');
      const failure = await settled(failed);
      expect(failure).toMatchObject({ status: 'failed', error: { code: 'threads_token_rejected' } });
      expect((await accountNamed('token_cat')).status).toBe('expired');
      // Failed for another reason: a reconnect does not send it again.
      await queueFailure(env.services.db, { network: 'threads', account: externalId, scenario: 'rejected', times: 1 });
      await env.services.db('accounts').where({ id: account.id }).update({ status: 'ok' });
      const refused = await post('Refused by the network.');
      expect(await settled(refused)).toMatchObject({ status: 'failed', error: { code: 'threads_rejected' } });
      await env.services.db('accounts').where({ id: account.id }).update({ status: 'expired' });

      const at = await connect('threads', { username: 'token_cat' }, { accountId: account.id });
      // The address names the post sent again and the time it was meant for, so the dashboard can say which.
      expect(Object.fromEntries(at.searchParams)).toEqual({
        connected: '1',
        reconnected: account.id,
        requeued: '1',
        sentAgain: `${failed}@${failure.publishAt}`,
      });
      expect(await settled(failed)).toMatchObject({ status: 'live' });
      const timeline = await call(env, 'get', `/v1/posts/${failed}/events`, { key: ws.readKey });
      const events: { kind: string; message?: string }[] = timeline.body.events;
      expect(events.map((e) => e.kind)).toEqual([
        'created',
        'queued',
        'publishing',
        'failed',
        'retried',
        'publishing',
        'live',
      ]);
      expect(events[4]!.message).toBe(
        'Sent again by itself: the account was reconnected after the post failed with ' + 'threads_token_rejected.',
      );
      expect((await read(refused)).status).toBe('failed');
    });

    it('reconnects a target that is already connected instead of adding it twice', async () => {
      const count = (await accountsOf(ws)).length;
      const bakery = await accountNamed('Acme Bakery');
      await env.services.db('accounts').where({ id: bakery.id }).update({ status: 'revoked' });
      expectConnected(await connect('facebook', { pages: 'Acme Bakery' }), 1);
      expect((await accountsOf(ws)).length).toBe(count);
      expect((await accountNamed('Acme Bakery')).status).toBe('ok');
    });

    it('refuses to reconnect an account of another workspace or network', async () => {
      const other = await seedWorkspace(env);
      const foreign = await addAccount(env, other.workspaceId, 'threads', 'Not yours');
      expectRefused(await go(`${env.base}/auth/connect/threads?accountId=${foreign}`, cookie), 'not_found');
      const bakery = await accountNamed('Acme Bakery');
      expectRefused(await go(`${env.base}/auth/connect/threads?accountId=${bakery.id}`, cookie), 'invalid_request');
    });
  });

  describe('refusals, each changing nothing', () => {
    it('needs a dashboard session, at the start and on the way back', async () => {
      expectRefused(await go(`${env.base}/auth/connect/youtube`), 'unauthenticated');
      const back = await consent(await go(`${env.base}/auth/connect/threads`, cookie), { username: 'no_session' });
      expectRefused(await go(back), 'unauthenticated');
      expect(await accountNamed('no_session')).toBeUndefined();
    });

    it('names unknown networks and those not available yet', async () => {
      expect(expectRefused(await go(`${env.base}/auth/connect/myspace`, cookie), 'invalid_request').message).toContain(
        'myspace',
      );
      expectRefused(await go(`${env.base}/auth/connect/constructor`, cookie), 'invalid_request');
      expect(expectRefused(await go(`${env.base}/auth/connect/x`, cookie), 'network_unavailable').message).toContain(
        'X',
      );
      expect(
        expectRefused(await go(`${env.base}/auth/connect/linkedin`, cookie), 'network_unavailable').message,
      ).toContain('LinkedIn');
    });

    it('sends Connect Bluesky back with what the operator must start when the sandbox names no PDS', async () => {
      const back = await go(`${env.base}/auth/connect/bluesky`, cookie);
      expect(back.pathname).toBe('/app/accounts');
      expect(back.searchParams.get('connect')).toBeNull();
      const refusal = expectRefused(back, 'network_not_configured');
      expect(refusal.platform).toBe('bluesky');
      expect(refusal.hint).toContain('SANDBOX_PDS');
    });

    it('refuses a tampered state, an expired one and one of another session', async () => {
      const back = await consent(await go(`${env.base}/auth/connect/threads`, cookie), { username: 'state_games' });
      const state = back.searchParams.get('state')!;
      const tampered = new URL(back);
      tampered.searchParams.set('state', `${state[0] === 'e' ? 'f' : 'e'}${state.slice(1)}`);
      expectRefused(await go(tampered, cookie), 'state_invalid');

      const other = await sessionCookie(ws);
      expectRefused(await go(back, other), 'state_mismatch');

      const session = await createSession(env.services.db, ws.userId, ws.workspaceId);
      const expired = new URL(back);
      expired.searchParams.set(
        'state',
        signState(env.services.keyring, {
          sessionId: session.id,
          workspaceId: ws.workspaceId,
          platform: 'threads',
          expiresAt: Date.now() - 1,
          nonce: randomBase62(12),
        }),
      );
      expectRefused(await go(expired, `herald_session=${session.token}`), 'state_expired');
      expect(STATE_LIFETIME_MS).toBe(10 * 60_000);
      expect(await accountNamed('state_games')).toBeUndefined();
    });

    it('comes back with access_denied when the person cancels at the network', async () => {
      const at = await connect('facebook', { pages: 'Cancelled Page' }, { decision: 'cancel' });
      expect(expectRefused(at, 'access_denied').message).toContain('Facebook');
      expect(await accountNamed('Cancelled Page')).toBeUndefined();
    });

    it('connects all granted accounts within the plan limit or none (quota_exceeded)', async () => {
      const free = await seedWorkspace(env, { plan: 'free' });
      await addAccount(env, free.workspaceId, 'threads', 'Already here');
      const freeCookie = await sessionCookie(free);
      const query = expectRefused(
        await connect('facebook', { pages: 'Free Page One\nFree Page Two' }, { cookie: freeCookie }),
        'quota_exceeded',
      );
      expect(query).toMatchObject({ limit: '2', used: '1', upgradeUrl: `${env.base}/app/settings/billing` });
      expect((await accountsOf(free)).map((a) => a.displayName)).toEqual(['Already here']);
      expectConnected(await connect('facebook', { pages: 'Free Page One' }, { cookie: freeCookie }), 1);
      expect((await accountsOf(free)).length).toBe(2);
      // Full: the refusal comes before the consent page, not after it; reconnecting stays open.
      const full = expectRefused(await go(`${env.base}/auth/connect/threads`, freeCookie), 'quota_exceeded');
      expect(full).toMatchObject({ limit: '2', used: '2', upgradeUrl: `${env.base}/app/settings/billing` });
      const [first] = await accountsOf(free);
      const again = await go(`${env.base}/auth/connect/${first!.platform}?accountId=${first!.id}`, freeCookie);
      expect(again.pathname).not.toBe('/app/accounts');
    });
  });

  // Agencies reach their clients' Pages through a Business Manager, and have more than
  // one of Graph's result pages of them.
  describe('Meta accounts managed through a Business Manager', () => {
    let agency: string;
    beforeAll(async () => {
      agency = await sessionCookie(await seedWorkspace(env, { plan: 'agency' }));
    });
    const names = (seeded: URL) => Object.fromEntries(seeded.searchParams);

    it('asks for business_management, connects Pages past the first result page and the businesses', async () => {
      const start = await go(`${env.base}/auth/connect/facebook`, agency);
      expect(start.searchParams.get('scope')?.split(',')).toContain('business_management');
      const own = Array.from({ length: 30 }, (_, i) => `Agency Page ${String(i + 1).padStart(2, '0')}`);
      const at = await connect(
        'facebook',
        {
          pages: own.join('\n'),
          businessPages:
            'Acme Agency: Agency Blog\nAcme Agency: Client Cafe (client)\nAcme Agency: Locked Page (unassigned)',
        },
        { cookie: agency },
      );
      expect(names(at)).toEqual({
        connected: '32',
        notConnected:
          'Not connected: Locked Page (you are not assigned to it in Acme Agency; a business admin can assign you ' +
          'with content tasks).',
      });
      const listed = (await call(env, 'get', '/v1/accounts', { headers: { Cookie: agency } })).body
        .accounts as Listed[];
      expect(listed.map((a) => a.displayName)).toEqual(expect.arrayContaining([...own, 'Agency Blog', 'Client Cafe']));
      await networkTakesTokenOf(listed.find((a) => a.displayName === 'Client Cafe')!.id, agency);
    });

    it('connects an Instagram account whose Page role comes through a business, with Login for Business', async () => {
      process.env.INSTAGRAM_CONFIG_ID = '4242';
      try {
        const start = await go(`${env.base}/auth/connect/instagram`, agency);
        expect(start.searchParams.get('config_id')).toBe('4242');
        expect(start.searchParams.has('scope')).toBe(false);
        const back = await consent(start, {
          username: 'client.shop',
          accountType: 'business',
          page: 'Client Shop',
          business: 'Acme Agency',
        });
        expect(names(await go(back, agency))).toEqual({ connected: '1' });
      } finally {
        delete process.env.INSTAGRAM_CONFIG_ID;
      }
    });

    it('asks Instagram for what a Page role through a Business Manager needs', async () => {
      const scope = (await go(`${env.base}/auth/connect/instagram`, agency)).searchParams.get('scope')?.split(',');
      expect(scope).toEqual(expect.arrayContaining(['ads_read', 'business_management', 'instagram_content_publish']));
    });

    it('names each Page that could not be connected, and why, when none could', async () => {
      const query = expectRefused(
        await connect('instagram', { username: 'x', accountType: 'personal', page: 'Plain Page' }, { cookie: agency }),
        'nothing_to_connect',
      );
      expect(query.message).toContain(
        'Not connected: Plain Page (no Instagram business or creator account is linked to this Page).',
      );
    });
  });

  describe('live networks', () => {
    it('sends people to the real consent page, and names the variables a network still needs', async () => {
      const live = await startHerald(kind, { networks: 'live' });
      try {
        const seeded = await seedWorkspace(live);
        const session = await createSession(live.services.db, seeded.userId, seeded.workspaceId);
        const start = (platform: string) =>
          request(live.app).get(`/auth/connect/${platform}`).set('Cookie', `herald_session=${session.token}`);

        const missing = await start('youtube');
        expect(missing.status).toBe(302);
        const query = Object.fromEntries(new URL(missing.headers.location!).searchParams);
        expect(query).toMatchObject({
          error: 'network_not_configured',
          message: expect.stringContaining('YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET'),
        });
        expect(query.hint).toContain(`${live.config.publicUrl}/auth/connect/youtube/callback`);

        process.env.FACEBOOK_CLIENT_ID = '1234567890';
        process.env.FACEBOOK_CLIENT_SECRET = 'not-a-real-secret';
        const configured = new URL((await start('facebook')).headers.location!);
        expect(`${configured.origin}${configured.pathname}`).toBe('https://www.facebook.com/v25.0/dialog/oauth');
        expect(Object.fromEntries(configured.searchParams)).toMatchObject({
          client_id: '1234567890',
          redirect_uri: `${live.config.publicUrl}/auth/connect/facebook/callback`,
          scope: expect.stringContaining('pages_manage_posts'),
          response_type: 'code',
          state: expect.any(String),
        });
        expect(configured.searchParams.has('client_secret')).toBe(false);

        // Threads' Authorization Window is on threads.com now.
        process.env.THREADS_CLIENT_ID = '990602627938098';
        process.env.THREADS_CLIENT_SECRET = 'not-a-real-secret';
        const threads = new URL((await start('threads')).headers.location!);
        expect(`${threads.origin}${threads.pathname}`).toBe('https://threads.com/oauth/authorize');
      } finally {
        delete process.env.FACEBOOK_CLIENT_ID;
        delete process.env.FACEBOOK_CLIENT_SECRET;
        delete process.env.THREADS_CLIENT_ID;
        delete process.env.THREADS_CLIENT_SECRET;
        await live.close();
      }
    });
  });
});
