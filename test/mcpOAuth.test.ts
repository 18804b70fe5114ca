// OAuth 2.1 for the remote MCP endpoint, driven end to end: the SDK client discovers, registers and asks;
// a person signs in on Herald's page and consents; then tokens, refresh with rotation and reuse detection,
// revocation, read-only grants, Free workspaces, and the session route that lists and revokes grants.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { findWorkspace, setPasswordHash } from '../db/identity.ts';
import { acceptInvite, createInvite } from '../db/members.ts';
import { hashPassword } from '../signin/passwords.ts';
import { DATABASES, seedWorkspace, type Seeded, type TestEnv } from './support/harness.ts';
import { mcpClient, rpc, startListening } from './support/mcp.ts';
import { addPerson, asPerson, signedIn } from './support/people.ts';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:5555/callback';

/** The SDK's OAuth client hooks, kept in memory; the "browser" is the test itself. */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(readonly scope = 'read write') {}
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: 'Test Agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: this.scope,
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';

describe.each(DATABASES)('OAuth for the remote MCP endpoint on %s', (kind) => {
  let env: TestEnv;
  let origin: string;
  let stop: () => Promise<void>;
  let creator: Seeded;
  let free: Seeded;
  const emails = { creator: `olga-${kind}@example.com`, free: `fred-${kind}@example.com` };
  const clients: Client[] = [];

  beforeAll(async () => {
    ({ env, origin, close: stop } = await startListening(kind));
    creator = await seedWorkspace(env, { email: emails.creator, name: 'Olga Studio' });
    free = await seedWorkspace(env, { plan: 'free', email: emails.free });
    const hash = await hashPassword(PASSWORD);
    await setPasswordHash(env.services.db, creator.userId, hash);
    await setPasswordHash(env.services.db, free.userId, hash);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await stop();
  });

  /** Signs in on Herald's own form; returns the session cookie. */
  async function signIn(authorizePath: string, email: string): Promise<string> {
    const page = await request(env.app).get(authorizePath);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Sign in to Herald');
    const res = await request(env.app)
      .post('/oauth/sign-in')
      .type('form')
      .send({ email, password: PASSWORD, next: authorizePath });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(authorizePath);
    return res.headers['set-cookie']![0]!.split(';')[0]!;
  }

  /** The person's part: the consent page, then Allow (or Deny) with a scope; returns where the browser goes. */
  async function consent(authorizePath: string, cookie: string, choice: { decision?: string; scope?: string } = {}) {
    const page = await request(env.app).get(authorizePath).set('Cookie', cookie);
    expect(page.status).toBe(200);
    const res = await request(env.app)
      .post('/oauth/consent')
      .set('Cookie', cookie)
      .type('form')
      .send({
        request: hidden(page.text, 'request'),
        csrf: hidden(page.text, 'csrf'),
        decision: choice.decision ?? 'allow',
        scope: choice.scope ?? 'read write',
      });
    expect(res.status).toBe(303);
    return { page: page.text, location: new URL(res.headers.location!) };
  }

  /** The whole flow through the SDK client: discovery, registration, PKCE, sign-in, consent, token. */
  async function authorizedClient(email: string, choice: { scope?: string } = {}, provider = new MemoryProvider()) {
    const url = new URL(`${origin}/mcp`);
    const first = new Client({ name: 'oauth-test', version: '1.0.0' });
    await expect(
      first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const authorize = provider.authorizationUrl!;
    const path = authorize.pathname + authorize.search;
    const cookie = await signIn(path, email);
    const { page, location } = await consent(path, cookie, choice);
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await transport.finishAuth(location.searchParams.get('code')!);
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return { client, provider, cookie, page, location, authorize };
  }

  async function tokenRequest(form: Record<string, string>) {
    return request(env.app).post('/oauth/token').type('form').send(form);
  }

  describe('discovery', () => {
    it('names the resource metadata in the 401, which names Herald as the authorization server', async () => {
      const res = await rpc(origin, undefined, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(res.headers['www-authenticate'] as string)![1]!;
      const prm = await fetch(metadataUrl).then((r) => r.json());
      expect(prm).toMatchObject({
        resource: `${env.config.publicUrl}/mcp`,
        authorization_servers: [env.config.publicUrl],
        scopes_supported: ['read', 'write'],
      });
      const as = await request(env.app).get('/.well-known/oauth-authorization-server');
      expect(as.body).toMatchObject({
        issuer: env.config.publicUrl,
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        registration_endpoint: `${env.config.publicUrl}/oauth/register`,
        revocation_endpoint: `${env.config.publicUrl}/oauth/revoke`,
      });
    });
  });

  describe('the whole flow', () => {
    it('registers, signs in, consents, gets a token bound to /mcp, and calls tools as the person', async () => {
      const { client, provider, page, location } = await authorizedClient(emails.creator);
      expect(page).toContain('Test Agent');
      expect(page).toContain('Olga Studio');
      expect(page).toContain('read and write');
      expect(location.origin + location.pathname).toBe(REDIRECT);
      expect(location.searchParams.get('iss')).toBe(env.config.publicUrl);
      expect(provider.saved).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write' });
      expect((await client.listTools()).tools).toHaveLength(19);
      const whoami = await client.callTool({ name: 'service_whoami', arguments: {} });
      expect((whoami.structuredContent as any).credential).toEqual({
        kind: 'oauth',
        name: 'Test Agent',
        scopes: ['read', 'write'],
      });
      const row = await env.services.db('oauth_tokens').where({ kind: 'access' }).first();
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(
        await env.services.db('oauth_tokens').where({ token_hash: provider.saved!.access_token }).first(),
      ).toBeUndefined();
    });

    it('rotates refresh tokens, and a reused refresh token revokes the whole grant', async () => {
      const { provider } = await authorizedClient(emails.creator);
      const clientId = provider.client!.client_id;
      const first = provider.saved!;
      const rotated = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token!,
        client_id: clientId,
      });
      expect(rotated.status).toBe(200);
      expect(rotated.body.refresh_token).not.toBe(first.refresh_token);
      const live = await rpc(origin, rotated.body.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(live.body.result.tools).toHaveLength(19);
      const reused = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token!,
        client_id: clientId,
      });
      expect(reused.status).toBe(400);
      expect(reused.body.error).toBe('invalid_grant');
      expect(
        (await rpc(origin, rotated.body.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status,
      ).toBe(401);
      const next = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: rotated.body.refresh_token,
        client_id: clientId,
      });
      expect(next.status).toBe(400);
    });

    it("revokes a removed member's grants: their refresh token mints nothing, even once they are back", async () => {
      const studio = await seedWorkspace(env, { plan: 'studio' });
      const admin = await addPerson(env, studio.workspaceId, 'administrator');
      await setPasswordHash(env.services.db, admin.userId, await hashPassword(PASSWORD));
      const { provider } = await authorizedClient(admin.email);
      const clientId = provider.client!.client_id;
      const refresh = () =>
        tokenRequest({
          grant_type: 'refresh_token',
          refresh_token: provider.saved!.refresh_token!,
          client_id: clientId,
        });
      const owner = await signedIn(env, studio.userId, studio.workspaceId);
      const removed = await asPerson(env, owner, 'delete', `/auth/members/${admin.userId}`);
      expect(removed.body).toMatchObject({ grantsRevoked: 1 });
      expect((await refresh()).body.error).toBe('invalid_grant');

      // Invited back as a plain member: the grant consented as administrator stays revoked.
      const { db } = env.services;
      const workspace = (await findWorkspace(db, studio.workspaceId))!;
      const again = await createInvite(db, workspace, { userId: studio.userId, role: 'owner' }, admin.email, 'member');
      await acceptInvite(db, again.id, { userId: admin.userId });
      const back = await refresh();
      expect(back.status).toBe(400);
      expect(back.body.error).toBe('invalid_grant');
      expect(
        (await rpc(origin, provider.saved!.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status,
      ).toBe(401);
    });

    it('revokes a refresh token (RFC 7009) and with it the grant', async () => {
      const { provider } = await authorizedClient(emails.creator);
      const res = await request(env.app)
        .post('/oauth/revoke')
        .type('form')
        .send({ token: provider.saved!.refresh_token!, client_id: provider.client!.client_id });
      expect(res.status).toBe(200);
      expect(
        (await rpc(origin, provider.saved!.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status,
      ).toBe(401);
    });

    it('refuses an expired access token with 401 and the challenge', async () => {
      const { provider } = await authorizedClient(emails.creator);
      await env.services
        .db('oauth_tokens')
        .where({ kind: 'access' })
        .update({ expires_at: new Date(Date.now() - 1000).toISOString() });
      const res = await rpc(origin, provider.saved!.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    });
  });

  describe('what a grant may do', () => {
    const callTool = (name: string) => ({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name, arguments: { filename: 'a.jpg', mime: 'image/jpeg', size: 10 } },
    });

    it('lets the person narrow the grant to read: 11 read tools; a write tool is 403 insufficient_scope', async () => {
      const { client, provider } = await authorizedClient(emails.creator, { scope: 'read' });
      expect(provider.saved!.scope).toBe('read');
      expect((await client.listTools()).tools).toHaveLength(11);
      const token = provider.saved!.access_token;
      const write = await rpc(origin, token, callTool('service_create_upload'));
      expect(write.status).toBe(403);
      expect(write.headers['www-authenticate']).toMatch(
        /^Bearer error="insufficient_scope", scope="read write", resource_metadata="/,
      );
      const unknown = await rpc(origin, token, callTool('service_nothing_like_it'));
      expect(unknown.status).toBe(200);
      expect(write.body.error.code).toBe(-32602);
      const message = unknown.body.error.message.replace('service_nothing_like_it', 'service_create_upload');
      // JSON-RPC's own members only; Herald's words in `error.data`.
      expect(Object.keys(write.body).sort()).toEqual(['error', 'id', 'jsonrpc']);
      expect(write.body).toMatchObject({ jsonrpc: '2.0', id: 5 });
      expect(write.body.error).toEqual({
        ...unknown.body.error,
        message,
        data: {
          code: 'insufficient_scope',
          message,
          hint: 'A person can allow read and write when the client signs in again.',
        },
      });
      // The SDK client takes the 403 as a request for more scope (step-up), and the call does not happen.
      await expect(client.callTool({ name: 'service_create_upload', arguments: {} })).rejects.toThrow();
      expect(Number((await env.services.db('media').count({ n: '*' }).first())!.n)).toBe(0);
    });

    it('gives a Free workspace a read-only grant whatever was asked; a write tool is simply unknown', async () => {
      const { client, provider, page } = await authorizedClient(emails.free, { scope: 'read write' });
      expect(page).toContain('Free plan');
      expect(provider.saved!.scope).toBe('read');
      expect((await client.listTools()).tools).toHaveLength(11);
      const write = await rpc(origin, provider.saved!.access_token, callTool('service_create_upload'));
      expect(write.status).toBe(200);
      expect(write.body.error.code).toBe(-32602);
    });

    it('sends a denial back to the client as access_denied with its state', async () => {
      const provider = new MemoryProvider();
      const first = new Client({ name: 'oauth-test', version: '1.0.0' });
      await expect(
        first.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: provider })),
      ).rejects.toThrow();
      const path = provider.authorizationUrl!.pathname + provider.authorizationUrl!.search;
      const cookie = await signIn(path, emails.creator);
      const { location } = await consent(path, cookie, { decision: 'deny' });
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('code')).toBeNull();
      expect(location.searchParams.get('state')).toBe(provider.authorizationUrl!.searchParams.get('state'));
    });
  });

  describe('the rules of the authorization server', () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    let clientId: string;
    let cookie: string;

    function authorizePath(extra: Record<string, string> = {}) {
      return (
        '/oauth/authorize?' +
        new URLSearchParams({
          response_type: 'code',
          client_id: clientId,
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state: 's1',
          scope: 'read write',
          ...extra,
        })
      );
    }

    beforeAll(async () => {
      const reg = await request(env.app)
        .post('/oauth/register')
        .send({ client_name: 'Raw Client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
      expect(reg.status).toBe(201);
      clientId = reg.body.client_id;
      cookie = await signIn(authorizePath(), emails.creator);
    });

    it('accepts any port on a loopback redirect, but not another path or host', async () => {
      const { location } = await consent(authorizePath({ redirect_uri: 'http://127.0.0.1:6001/callback' }), cookie);
      expect(location.port).toBe('6001');
      for (const uri of [
        'http://127.0.0.1:5555/other',
        'http://localhost:5555/callback',
        'https://evil.example.com/callback',
      ]) {
        const res = await request(env.app)
          .get(authorizePath({ redirect_uri: uri }))
          .set('Cookie', cookie);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('invalid_request');
      }
    });

    it('refuses plain http redirect URIs off loopback at registration', async () => {
      const res = await request(env.app)
        .post('/oauth/register')
        .send({ redirect_uris: ['http://example.com/cb'] });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_client_metadata');
    });

    it('needs PKCE S256: plain is refused, a wrong verifier gets nothing', async () => {
      const plain = await request(env.app)
        .get(authorizePath({ code_challenge_method: 'plain' }))
        .set('Cookie', cookie);
      expect(plain.status).toBe(302);
      expect(new URL(plain.headers.location!).searchParams.get('error')).toBe('invalid_request');
      const { location } = await consent(authorizePath(), cookie);
      const wrong = await tokenRequest({
        grant_type: 'authorization_code',
        code: location.searchParams.get('code')!,
        code_verifier: 'x'.repeat(43),
        client_id: clientId,
        redirect_uri: REDIRECT,
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('invalid_grant');
    });

    it('keeps state and iss on every error redirect and says in a sentence what to send instead', async () => {
      const cases: [Record<string, string | null>, string, RegExp][] = [
        [{ code_challenge_method: 'plain' }, 'invalid_request', /code_challenge_method "plain" is not supported/],
        [{ code_challenge_method: null }, 'invalid_request', /code_challenge_method is missing/],
        [{ code_challenge: null }, 'invalid_request', /code_challenge is missing/],
        [{ code_challenge: 'short' }, 'invalid_request', /not a PKCE challenge/],
        [{ response_type: 'token' }, 'unsupported_response_type', /response_type "token" is not supported/],
        [{ response_type: null }, 'invalid_request', /response_type is missing/],
        [{ scope: 'admin' }, 'invalid_scope', /"admin" is not offered/],
        [{ scope: 'read admin' }, 'invalid_scope', /"admin" is not offered/],
        [{ resource: 'https://other.example.com/mcp' }, 'invalid_target', /only for/],
      ];
      for (const [change, error, description] of cases) {
        const url = new URL(authorizePath(), origin);
        for (const [name, value] of Object.entries(change)) {
          if (value === null) url.searchParams.delete(name);
          else url.searchParams.set(name, value);
        }
        const res = await request(env.app)
          .get(url.pathname + url.search)
          .set('Cookie', cookie);
        const label = JSON.stringify(change);
        expect(res.status, label).toBe(302);
        const back = new URL(res.headers.location!);
        expect(back.origin + back.pathname, label).toBe(REDIRECT);
        expect(Object.fromEntries(back.searchParams), label).toEqual({
          error,
          error_description: expect.stringMatching(description),
          state: 's1',
          iss: env.config.publicUrl,
        });
        expect(back.searchParams.get('error_description'), label).toMatch(/^[^[{]*\.$/);
      }
      // Until the client and its redirect URI are known, nothing is redirected: the answer comes back here.
      const unknown = await request(env.app).get(authorizePath({ client_id: 'nobody' }));
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ error: 'invalid_client', code: 'invalid_client' });
    });

    it('defaults to client_secret_basic at registration, says so, and takes the secret either way', async () => {
      const discovery = await request(env.app).get('/.well-known/oauth-authorization-server');
      expect(discovery.body.token_endpoint_auth_methods_supported).toContain('client_secret_basic');
      const reg = await request(env.app)
        .post('/oauth/register')
        .send({ client_name: 'Confidential Client', redirect_uris: [REDIRECT] });
      expect(reg.status).toBe(201);
      expect(reg.body).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic' });
      const { client_id: id, client_secret: secret } = reg.body as { client_id: string; client_secret: string };
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      const code = async () =>
        (await consent(authorizePath({ client_id: id }), cookie)).location.searchParams.get('code')!;
      const exchange = { grant_type: 'authorization_code', code_verifier: verifier, redirect_uri: REDIRECT };
      const basic = (user: string, password: string) =>
        `Basic ${Buffer.from(`${encodeURIComponent(user)}:${encodeURIComponent(password)}`).toString('base64')}`;

      const byHeader = await request(env.app)
        .post('/oauth/token')
        .set('Authorization', basic(id, secret))
        .type('form')
        .send({ ...exchange, code: await code() });
      expect(byHeader.status).toBe(200);
      expect(byHeader.body.access_token).toEqual(expect.any(String));
      const byForm = await tokenRequest({ ...exchange, code: await code(), client_id: id, client_secret: secret });
      expect(byForm.status).toBe(200);
      const wrong = await request(env.app)
        .post('/oauth/token')
        .set('Authorization', basic(id, 'wrong'))
        .type('form')
        .send({ ...exchange, code: await code() });
      expect(wrong.status).toBe(401);
      expect(wrong.headers['www-authenticate']).toMatch(/^Basic /);
      expect(wrong.body).toMatchObject({ error: 'invalid_client', code: 'invalid_client' });
      for (const header of ['Basic !!', `Basic ${Buffer.from('no colon').toString('base64')}`]) {
        const malformed = await request(env.app)
          .post('/oauth/token')
          .set('Authorization', header)
          .type('form')
          .send({ ...exchange, code: 'x' });
        expect(malformed.status, header).toBe(401);
        expect(malformed.body, header).toMatchObject({ error: 'invalid_client', code: 'invalid_client' });
      }
      const twice = await request(env.app)
        .post('/oauth/token')
        .set('Authorization', basic(id, secret))
        .type('form')
        .send({ ...exchange, code: 'x', client_secret: secret });
      expect(twice.status).toBe(400);
      expect(twice.body).toMatchObject({ error: 'invalid_request', code: 'invalid_request' });
      const nul = await request(env.app)
        .post('/oauth/token')
        .set('Authorization', basic('cl_\u0000', 'x'))
        .type('form')
        .send({ ...exchange, code: 'x' });
      expect(nul.status).toBe(400);
      expect(nul.body.code).toBe('invalid_request');
      const revoked = await request(env.app)
        .post('/oauth/revoke')
        .set('Authorization', basic(id, secret))
        .type('form')
        .send({ token: byHeader.body.refresh_token });
      expect(revoked.status).toBe(200);
      const jwt = await request(env.app)
        .post('/oauth/register')
        .send({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' });
      expect(jwt.status).toBe(400);
      expect(jwt.body.error).toBe('invalid_client_metadata');
    });

    it('issues tokens only for this resource (RFC 8707)', async () => {
      const asked = await request(env.app)
        .get(authorizePath({ resource: 'https://other.example.com/mcp' }))
        .set('Cookie', cookie);
      expect(new URL(asked.headers.location!).searchParams.get('error')).toBe('invalid_target');
      const { location } = await consent(authorizePath({ resource: `${env.config.publicUrl}/mcp` }), cookie);
      const token = await tokenRequest({
        grant_type: 'authorization_code',
        code: location.searchParams.get('code')!,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: REDIRECT,
        resource: 'https://other.example.com/mcp',
      });
      expect(token.body.error).toBe('invalid_target');
    });

    it('uses a code once: a replay gets nothing and revokes what the code gave', async () => {
      const { location } = await consent(authorizePath(), cookie);
      const form = {
        grant_type: 'authorization_code',
        code: location.searchParams.get('code')!,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: REDIRECT,
      };
      const first = await tokenRequest(form);
      expect(first.status).toBe(200);
      const replay = await tokenRequest(form);
      expect(replay.status).toBe(400);
      expect(replay.body.error).toBe('invalid_grant');
      expect((await rpc(origin, first.body.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(
        401,
      );
    });

    it('refuses a consent without the session, without the CSRF token, or with a forged request', async () => {
      const page = await request(env.app).get(authorizePath()).set('Cookie', cookie);
      const fields = {
        request: hidden(page.text, 'request'),
        csrf: hidden(page.text, 'csrf'),
        decision: 'allow',
        scope: 'read write',
      };
      expect((await request(env.app).post('/oauth/consent').type('form').send(fields)).status).toBe(401);
      expect(
        (
          await request(env.app)
            .post('/oauth/consent')
            .set('Cookie', cookie)
            .type('form')
            .send({ ...fields, csrf: 'forged' })
        ).status,
      ).toBe(403);
      expect(
        (
          await request(env.app)
            .post('/oauth/consent')
            .set('Cookie', cookie)
            .type('form')
            .send({ ...fields, request: fields.request.replace(/^./, 'x') })
        ).status,
      ).toBe(400);
    });

    it('answers a wrong password on its own form with 401, and never redirects outside /oauth/authorize', async () => {
      const wrong = await request(env.app)
        .post('/oauth/sign-in')
        .type('form')
        .send({ email: emails.creator, password: 'nope', next: authorizePath() });
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain('The email or password is wrong.');
      const open = await request(env.app)
        .post('/oauth/sign-in')
        .type('form')
        .send({ email: emails.creator, password: PASSWORD, next: 'https://evil.example.com/' });
      expect(open.status).toBe(400);
      expect(open.headers['set-cookie']).toBeUndefined();
    });

    it('signs no one in from a form on another site (login CSRF), but does from its own page', async () => {
      // Free's person: each sign-in counts against the per-email limit, which Olga's other tests use up.
      const form = { email: emails.free, password: PASSWORD, next: authorizePath() };
      for (const headers of [
        { Origin: 'https://evil.example.com' },
        { Origin: 'null' },
        { Origin: `http://127.0.0.1:${new URL(origin).port}0` },
        { 'Sec-Fetch-Site': 'cross-site' },
      ]) {
        const res = await request(env.app).post('/oauth/sign-in').set(headers).type('form').send(form);
        expect(res.status, JSON.stringify(headers)).toBe(403);
        expect(res.body.code).toBe('csrf_failed');
        expect(res.headers['set-cookie']).toBeUndefined();
        const page = await request(env.app)
          .post('/oauth/sign-in')
          .set({ ...headers, Accept: 'text/html' })
          .type('form')
          .send(form);
        expect(page.text).toContain('sent from another site');
        expect(page.headers['set-cookie']).toBeUndefined();
      }
      for (const headers of [{ Origin: origin, 'Sec-Fetch-Site': 'same-origin' }, {}]) {
        const res = await request(env.app).post('/oauth/sign-in').set(headers).type('form').send(form);
        expect(res.status, JSON.stringify(headers)).toBe(303);
        expect(res.headers['set-cookie']).toHaveLength(1);
      }
    });

    it("gives every OAuth error Herald's {code, message, hint} beside the OAuth fields; refuses NUL", async () => {
      const token = await tokenRequest({
        grant_type: 'authorization_code',
        code: 'nope',
        code_verifier: verifier,
        client_id: clientId,
      });
      expect(token.status).toBe(400);
      expect(token.body).toMatchObject({
        error: 'invalid_grant',
        code: 'invalid_grant',
        message: token.body.error_description,
      });
      expect(typeof token.body.hint).toBe('string');
      const nul = await request(env.app)
        .post('/oauth/register')
        .send({ client_name: 'Bad\u0000Name', redirect_uris: [REDIRECT] });
      expect(nul.status).toBe(400);
      expect(nul.body.code).toBe('invalid_request');
      const grant = await request(env.app).delete('/auth/mcp-grants/grt_%00').set('Cookie', cookie);
      expect(grant.status).toBeLessThan(500);
    });

    it('serves its pages unframeable and uncached', async () => {
      const page = await request(env.app).get(authorizePath()).set('Cookie', cookie);
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['cache-control']).toBe('no-store');
    });
  });

  describe('GET /auth/mcp-grants and DELETE /auth/mcp-grants/{grantId}', () => {
    it("lists the person's clients and revokes one, whose tokens stop working at once", async () => {
      const { provider, cookie } = await authorizedClient(emails.creator);
      const session = await request(env.app).get('/auth/session').set('Cookie', cookie);
      const list = await request(env.app).get('/auth/mcp-grants').set('Cookie', cookie);
      expect(list.status).toBe(200);
      const grant = list.body.grants[0];
      expect(grant).toMatchObject({ clientName: 'Test Agent', scopes: ['read', 'write'] });
      expect(Object.keys(grant).sort()).toEqual(['clientName', 'createdAt', 'id', 'lastUsedAt', 'scopes']);
      const del = await request(env.app)
        .delete(`/auth/mcp-grants/${grant.id}`)
        .set('Cookie', cookie)
        .set('X-CSRF-Token', session.body.csrfToken);
      expect(del.status).toBe(204);
      expect(
        (await rpc(origin, provider.saved!.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status,
      ).toBe(401);
      const after = await request(env.app).get('/auth/mcp-grants').set('Cookie', cookie);
      expect(after.body.grants.map((g: { id: string }) => g.id)).not.toContain(grant.id);
    });

    it("refuses API keys and tokens, needs the CSRF token, answers not_found for another person's grant", async () => {
      const { provider, cookie } = await authorizedClient(emails.creator);
      expect(
        (await request(env.app).get('/auth/mcp-grants').set('Authorization', `Bearer ${creator.writeKey}`)).status,
      ).toBe(401);
      expect(
        (await request(env.app).get('/auth/mcp-grants').set('Authorization', `Bearer ${provider.saved!.access_token}`))
          .status,
      ).toBe(401);
      const grantId = (await request(env.app).get('/auth/mcp-grants').set('Cookie', cookie)).body.grants[0].id;
      const noCsrf = await request(env.app).delete(`/auth/mcp-grants/${grantId}`).set('Cookie', cookie);
      expect(noCsrf.status).toBe(403);
      expect(noCsrf.body.code).toBe('csrf_failed');
      const other = await request(env.app).post('/auth/sign-in').send({ email: emails.free, password: PASSWORD });
      const otherCookie = other.headers['set-cookie']![0]!.split(';')[0]!;
      const foreign = await request(env.app)
        .delete(`/auth/mcp-grants/${grantId}`)
        .set('Cookie', otherCookie)
        .set('X-CSRF-Token', other.body.csrfToken);
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('not_found');
      expect(
        (await rpc(origin, provider.saved!.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status,
      ).toBe(200);
    });
  });

  it('still accepts an API key as bearer at /mcp', async () => {
    const client = await mcpClient(origin, creator.readKey);
    clients.push(client);
    expect((await client.listTools()).tools).toHaveLength(11);
  });
});
