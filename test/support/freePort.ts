// A TCP port free on 127.0.0.1 right now, for a server a test starts by port number. No other test
// module is imported here, so vitest's globalSetup (test/support/prismProxy.ts) can use it too.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export async function freePort(): Promise<number> {
  const probe = http.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
