// The HTTP layer: the served contract, unknown routes and methods, bad JSON, oversized bodies,
// faults, and the operator probes.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { call, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';

describe.each(DATABASES)('server on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;

  beforeAll(async () => {
    env = await startHerald(kind, { maxBodyBytes: 4096 });
    ws = await seedWorkspace(env);
  });
  afterAll(() => env.close());

  it('serves the contract at /v1/openapi.json without authentication, naming this instance in servers', async () => {
    const res = await call(env, 'get', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const generated = JSON.parse(fs.readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
    expect(res.body).toEqual({
      ...generated,
      servers: [{ url: `${env.config.publicUrl}/v1`, description: 'This Herald instance.' }],
    });
  });

  it('answers 404 not_found for an unknown route', async () => {
    const res = await call(env, 'get', '/v1/nothing-here', { key: ws.readKey });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await request(env.app).get('/elsewhere')).status).toBe(404);
  });

  it('answers 405 for a wrong method on a known route', async () => {
    const res = await call(env, 'put', '/v1/whoami', { key: ws.readKey });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe('method_not_allowed');
  });

  it('answers HEAD on a GET route as GET, without the body', async () => {
    for (const path of ['/v1/whoami', '/v1/accounts', '/v1/openapi.json']) {
      // The same Accept-Encoding for both: a large answer (the contract) is compressed alike.
      const asked = { Authorization: `Bearer ${ws.readKey}`, 'Accept-Encoding': 'gzip' };
      const get = await request(env.app).get(path).set(asked);
      const head = await request(env.app).head(path).set(asked);
      expect(head.status, path).toBe(200);
      expect(head.headers['content-length'], path).toBe(get.headers['content-length']);
      expect(head.text, path).toBeUndefined();
    }
    expect((await request(env.app).head('/v1/whoami')).status).toBe(401);
    // Outside /v1 too: the OAuth authorization endpoint answers HEAD as GET.
    const authorize = '/oauth/authorize?client_id=nobody';
    expect((await request(env.app).head(authorize)).status).toBe((await request(env.app).get(authorize)).status);
    const post = await request(env.app).head('/v1/groups/grp_1').set('Authorization', `Bearer ${ws.readKey}`);
    expect(post.status).toBe(405);
  });

  it('answers 400 invalid_request for malformed JSON', async () => {
    const res = await request(env.app)
      .post('/v1/groups')
      .set('Authorization', `Bearer ${ws.writeKey}`)
      .set('Content-Type', 'application/json')
      .send('{"name": "x",');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.message).toMatch(/not valid JSON/);
  });

  it('refuses an oversized body from its Content-Length with 413 payload_too_large', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(10_000), accountIds: ['acc_1'] });
    const res = await request(env.app)
      .post('/v1/groups')
      .set('Authorization', `Bearer ${ws.writeKey}`)
      .set('Content-Type', 'application/json')
      .send(big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      code: 'payload_too_large',
      message: `The request body is ${big.length} bytes; this server accepts at most 4096 bytes.`,
      hint: expect.any(String),
    });
  });

  it('answers every response with a request id, and reuses a sane incoming one', async () => {
    const res = await request(env.app).get('/v1/whoami').set('X-Request-Id', 'trace-12345678');
    expect(res.headers['x-request-id']).toBe('trace-12345678');
    expect((await request(env.app).get('/v1/whoami')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports health and readiness', async () => {
    expect((await request(env.app).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(env.app).get('/readyz')).body).toEqual({ status: 'ready' });
  });
});

describe('an unexpected fault', () => {
  it('answers 500 internal with a request id and leaks nothing internal; readiness turns 503', async () => {
    const env = await startHerald('sqlite');
    const ws = await seedWorkspace(env);
    // The background work stops first: a query of its own left waiting on the destroyed pool would never settle.
    await env.services.media.stop();
    await env.services.db.destroy();
    const res = await call(env, 'get', '/v1/accounts', { key: ws.readKey });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      code: 'internal',
      message: expect.any(String),
      hint: expect.stringContaining(res.body.requestId),
      requestId: res.headers['x-request-id'],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/knex|sqlite|stack|at /i);
    // The session routes answer the same, as auth.yaml declares (call() checks the answer against it).
    const signIn = await call(env, 'post', '/auth/sign-in', { body: { email: 'a@example.com', password: 'x' } });
    expect(signIn.status).toBe(500);
    expect(signIn.body).toMatchObject({ code: 'internal', requestId: signIn.headers['x-request-id'] });
    expect((await request(env.app).get('/readyz')).status).toBe(503);
    await env.close().catch(() => undefined);
  });
});
