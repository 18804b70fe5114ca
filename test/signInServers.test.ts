// The server a person names when connecting a Bluesky account (POST /auth/connect/bluesky) in the sandbox: only
// the sandbox's own PDS (SANDBOX_PDS) is reached over plain http on loopback, never another port of its host (no
// port scan through Herald); a server's own words are quoted at most 300 characters long; a silent server is given
// up after 10 seconds of the injected clock. The PDS here is a plain HTTP server on 127.0.0.1. Both databases.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_WAIT_MS } from '../networks/bluesky/connect.ts';
import { DATABASES, seedWorkspace, startHerald, type TestEnv } from './support/harness.ts';
import { manualClock } from './support/manualClock.ts';
import { asPerson, signedIn, type Person } from './support/people.ts';

/** A server on 127.0.0.1 that counts what reaches it and answers as `answer` says (or never, for undefined). */
async function listening(answer: (identifier: string) => { status: number; body: object } | undefined) {
  const seen: string[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const identifier = String((JSON.parse(text || '{}') as { identifier?: string }).identifier);
      seen.push(identifier);
      for (const wake of waiters.splice(0)) wake();
      const reply = answer(identifier);
      if (reply) res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    /** Resolves once a request from `identifier` arrived. */
    async arrived(identifier: string) {
      while (!seen.includes(identifier)) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

const LONG_WORDS = 'the server says a great deal '.repeat(7000);

describe.each(DATABASES)('the servers a Bluesky sign-in reaches in the sandbox, on %s', (kind) => {
  const clock = manualClock(Date.now());
  let env: TestEnv;
  let owner: Person;
  let pds: Awaited<ReturnType<typeof listening>>;
  let neighbour: Awaited<ReturnType<typeof listening>>;

  beforeAll(async () => {
    pds = await listening((identifier) => {
      if (identifier === 'silent.test') return undefined;
      if (identifier === 'loud.test')
        return { status: 401, body: { error: 'AuthenticationRequired', message: LONG_WORDS } };
      return { status: 500, body: { error: 'InternalServerError', message: LONG_WORDS } };
    });
    // Another service on the PDS's host, on a port of its own.
    neighbour = await listening(() => ({ status: 500, body: { error: 'Neighbour', message: 'reached' } }));
    env = await startHerald(kind, { networks: 'sandbox', sandboxPds: pds.origin }, { clock });
    const ws = await seedWorkspace(env, { plan: 'agency' });
    owner = await signedIn(env, ws.userId, ws.workspaceId);
  });
  afterAll(async () => {
    await env.close();
    await pds.close();
    await neighbour.close();
  });

  const connect = (server: string, identifier: string) =>
    asPerson(env, owner, 'post', '/auth/connect/bluesky', { server, identifier, password: 'abcd-efgh-ijkl-mnop' });

  it("refuses every other port of SANDBOX_PDS's host, closed or open, and sends nothing there", async () => {
    for (const server of ['http://127.0.0.1:1', neighbour.origin, 'http://127.0.0.1:6379', 'http://localhost:1']) {
      const res = await connect(server, 'probe.test');
      expect(res.status, server).toBe(400);
      expect(res.body, server).toMatchObject({ code: 'server_not_allowed', hint: expect.any(String) });
      expect(res.body.message, server).not.toMatch(/refused|reset|reached/);
    }
    expect(neighbour.seen).toEqual([]);
    expect(pds.seen).toEqual([]);
  });

  it('quotes at most 300 characters of what the server answered', async () => {
    for (const [identifier, code] of [
      ['loud.test', 'app_password_refused'],
      ['broken.test', 'connect_failed'],
    ]) {
      const res = await connect(pds.origin, identifier!);
      expect(res.body.code, identifier).toBe(code);
      expect(res.body.message).toContain('the server says a great deal');
      expect(res.body.message.length, identifier).toBeLessThan(400);
      expect(JSON.stringify(res.body).length, identifier).toBeLessThan(1000);
    }
  });

  it(`gives a silent server up after ${SIGN_IN_WAIT_MS / 1000} seconds`, async () => {
    const answer = connect(pds.origin, 'silent.test').then((res) => res);
    await pds.arrived('silent.test');
    clock.advance(SIGN_IN_WAIT_MS);
    const res = await answer;
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      code: 'connect_failed',
      message: expect.stringContaining(`gave no answer within ${SIGN_IN_WAIT_MS / 1000} seconds`),
    });
  });
});
