// vitest globalSetup for the Prism pass (TEST_PRISM=1, `make test` runs it once): one `prism proxy` of the
// contracts (openapi.yaml under /v1, auth.yaml under /auth) in front of every test server. Prism forwards to one
// upstream, so the upstream is a small router that sends each request on to the test server named by its
// `x-herald-upstream` port. The harness's call() then goes through Prism and fails on any response violation
// (sl-violations).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startPrism } from '../../scripts/prism.ts';
import { freePort } from './freePort.ts';

/** The header that tells the router which test server a request is for. */
export const UPSTREAM_HEADER = 'x-herald-upstream';

declare module 'vitest' {
  export interface ProvidedContext {
    prismUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!process.env.TEST_PRISM) return undefined;
  const router = http.createServer((req, res) => {
    const port = Number(req.headers[UPSTREAM_HEADER]);
    const forward = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', (err) => res.writeHead(502).end(err.message));
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => router.listen(0, '127.0.0.1', resolve));
  const port = await freePort();
  const prism = await startPrism(
    [
      'proxy',
      `http://127.0.0.1:${(router.address() as AddressInfo).port}`,
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '--validate-request=false',
    ],
    { withAuth: true },
  );
  project.provide('prismUrl', `http://127.0.0.1:${port}`);
  return async () => {
    prism.kill();
    router.closeAllConnections();
    await new Promise((resolve) => router.close(resolve));
  };
}
