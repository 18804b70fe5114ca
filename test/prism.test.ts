// The Prism pass itself (TEST_PRISM=1): calls reach the test server through `prism proxy`, and a
// response that breaks the contract is reported in `sl-violations`, which call() turns into a failure.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { describe, expect, inject, it } from 'vitest';
import { UPSTREAM_HEADER } from './support/prismProxy.ts';

const prismUrl = inject('prismUrl');

describe.runIf(prismUrl)('the Prism pass', () => {
  it('flags a response that breaks the contract', async () => {
    const wrong = http.createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"workspace":5}'),
    );
    await new Promise<void>((resolve) => wrong.listen(0, '127.0.0.1', resolve));
    const res = await request(prismUrl)
      .get('/v1/whoami')
      .set('Authorization', 'Bearer hld_x')
      .set(UPSTREAM_HEADER, String((wrong.address() as AddressInfo).port));
    wrong.close();
    expect(res.status).toBe(200);
    const violations = JSON.parse(res.headers['sl-violations'] ?? '[]') as { location: string[] }[];
    expect(violations.filter((v) => v.location[0] === 'response').length).toBeGreaterThan(0);
  });
});
