// Test fixture for tools that cannot send a bearer (the MCP conformance suite 0.1.16): an HTTP proxy that adds
// `Authorization: Bearer <key>` to each request and forwards everything else unchanged, Host and Origin
// included, so Herald's own checks (DNS rebinding) see what the tool sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startBearerProxy(
  target: string,
  bearer: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${bearer}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
