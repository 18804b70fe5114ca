// One small request must not stop the whole server: text, emails and links far beyond any
// limit are answered in one pass over them, a network's settings must be an object, and a body nested 10,000
// levels deep is a 400 on every JSON door. Each input here would take a quadratic pass from half a minute
// to hours, so a regression fails by the test's timeout; none of these tests measures time.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, DATABASES, seedWorkspace, type Seeded, type TestEnv } from './support/harness.ts';
import { startListening } from './support/mcp.ts';

/** A JSON body `levels` objects deep, written as text (JSON.stringify would recurse as deep). */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe.each(DATABASES)('requests that froze or faulted the server, on %s', (kind) => {
  let env: TestEnv;
  let origin: string;
  let close: () => Promise<void>;
  let ws: Seeded;
  let free: Seeded;
  const accounts: Record<string, string> = {};

  beforeAll(async () => {
    ({ env, origin, close } = await startListening(kind));
    ws = await seedWorkspace(env);
    free = await seedWorkspace(env, { plan: 'free' });
    for (const platform of ['threads', 'facebook'] as const)
      accounts[platform] = await addAccount(env, ws.workspaceId, platform, `Acme ${platform}`);
    accounts.freeThreads = await addAccount(env, free.workspaceId, 'threads', 'Free threads');
  });
  afterAll(() => close());

  /** Any method with any body text over the socket (fetch sends no body with a GET). */
  function send(method: string, path: string, body: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = http.request(
        `${origin}${path}`,
        {
          method,
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            Accept: 'application/json, text/event-stream',
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
  const withKey = (key: string) => ({ Authorization: `Bearer ${key}` });
  const plan = (fields: Record<string, unknown>, account = accounts.threads!, key = ws.readKey) =>
    send(
      'POST',
      '/v1/posts/plan',
      JSON.stringify({ targets: { accountIds: [account] }, mediaIds: [], when: 'draft', ...fields }),
      withKey(key),
    );
  const issuesOf = (res: { body: any }) =>
    (res.body.rows as { issues: { code: string; message: string }[] }[]).flatMap((row) => row.issues);
  const postCount = async () => Number((await env.services.db('posts').count({ n: '*' }))[0]!.n);

  it('counts Threads text only as far as its limit needs (👍🏽 × 30,000 and é × 65,536, the most it takes)', async () => {
    for (const text of ['👍🏽'.repeat(30_000), 'é'.repeat(65_536)]) {
      const res = await plan({ text });
      expect(res.status).toBe(200);
      expect(issuesOf(res)).toContainEqual(
        expect.objectContaining({
          code: 'caption_too_long',
          message: expect.stringMatching(/^text counts more than 5000 on threads/),
          hint: expect.any(String),
          field: 'text',
          limit: 500,
        }),
      );
    }
  });

  it('counts it the same way for service_plan_post, with a Free workspace key', async () => {
    const args = {
      targets: { accountIds: [accounts.freeThreads] },
      mediaIds: [],
      when: 'draft',
      text: '👍🏽'.repeat(30_000),
    };
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'service_plan_post', arguments: args },
    };
    const res = await send('POST', '/mcp', JSON.stringify(call), withKey(free.readKey));
    expect(res.status).toBe(200);
    expect(res.body.result.content[0].text).toMatch(/text counts more than 5000 on threads/);
  });

  it('finds the links of hostile text in one pass (")" × 50,000, "." × 65,000)', async () => {
    for (const hostile of [`https://a${')'.repeat(50_000)}`, `https://a${'.'.repeat(65_000)}b`]) {
      const res = await plan({ text: `${hostile} https://b.example https://c.example https://d.example` });
      expect(res.status).toBe(200);
      // Four different links, under the five Threads allows: the hostile one counted as one link.
      expect(issuesOf(res).map((i) => i.code)).not.toContain('links_too_many');
    }
  });

  it('checks perPlatform.facebook.link in one pass ("a." × 65,000 then a space)', async () => {
    const link = `https://${'a.'.repeat(65_000)} x`;
    const res = await plan({ text: 'Hello', perPlatform: { facebook: { link } } }, accounts.facebook);
    expect(res.status).toBe(200);
    expect(issuesOf(res)).toContainEqual(
      expect.objectContaining({ code: 'setting_invalid', message: expect.stringContaining('is not an https address') }),
    );
  });

  it('refuses an email of "a@" + "a." × 150,000 + "@" at sign-up and password reset, before any pattern', async () => {
    const email = `a@${'a.'.repeat(150_000)}@`;
    for (const path of ['/auth/sign-up', '/auth/password-reset']) {
      const res = await send('POST', path, JSON.stringify({ email, name: 'Ana', password: 'long enough pass' }));
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/email/) });
    }
  });

  it('answers 400 naming perPlatform.<network> when it is not an object, and creates nothing', async () => {
    const before = await postCount();
    for (const value of ['x'.repeat(100_000), ['x'], 7, null]) {
      for (const confirm of [undefined, true]) {
        const res = await send(
          'POST',
          confirm ? '/v1/posts' : '/v1/posts/plan',
          JSON.stringify({
            targets: { accountIds: [accounts.facebook] },
            mediaIds: [],
            text: 'Hello',
            when: 'draft',
            perPlatform: { facebook: value },
            confirm,
          }),
          withKey(ws.writeKey),
        );
        expect(res.status, JSON.stringify(value).slice(0, 20)).toBe(400);
        expect(res.body).toMatchObject({
          code: 'invalid_request',
          message: expect.stringContaining('perPlatform.facebook'),
        });
      }
    }
    expect(await postCount()).toBe(before);
  });

  it('answers 400 invalid_request to a body nested 10,000 levels deep on every JSON door', async () => {
    const deepSettings = (accountId: string) =>
      `{"targets":{"accountIds":["${accountId}"]},"mediaIds":[],"text":"Hi","when":"draft",` +
      `"perPlatform":{"facebook":{"link":${nested(10_000)}}}}`;
    const doors: [string, string, string, Record<string, string>][] = [
      ['GET', '/v1/openapi.json', nested(10_000), {}],
      ['POST', '/v1/posts/plan', deepSettings(accounts.facebook!), withKey(ws.readKey)],
      ['POST', '/auth/sign-in', nested(10_000), {}],
      ['POST', '/oauth/register', nested(10_000), {}],
      [
        'POST',
        '/mcp',
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service_plan_post","arguments":` +
          `${deepSettings(accounts.facebook!)}}}`,
        withKey(ws.readKey),
      ],
    ];
    for (const [method, path, body, headers] of doors) {
      const res = await send(method, path, body, headers);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual({
        code: 'invalid_request',
        message: 'The request body is nested more than 64 levels deep.',
        hint: expect.any(String),
      });
    }
    // Herald's own bodies nest a few levels: 64 are taken.
    expect((await send('GET', '/v1/openapi.json', nested(63), {})).status).toBe(200);
  });
});
