// One address in front of several Herald servers, as a deployment's load balancer is: each request goes to the next
// server in turn, and to the one after it when a server refuses the connection (killed, restarting); while none is
// up, the request waits for one, up to QUEUE_MS (as HAProxy's `timeout queue` holds it), then answers 502. The chaos
// run gives it as PUBLIC_URL, the address the networks fetch a post's media from.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FailoverProxy {
  url: string;
  close(): Promise<void>;
}

const QUEUE_MS = 10_000;
const QUEUE_PAUSE_MS = 200;

export async function failoverProxy(upstreams: string[]): Promise<FailoverProxy> {
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const first = next++ % upstreams.length;
      const giveUpAt = Date.now() + QUEUE_MS;
      const attempt = (tried: number) => {
        if (tried > 0 && tried % upstreams.length === 0) {
          if (Date.now() > giveUpAt) {
            res.writeHead(502, { 'content-type': 'text/plain' }).end('No server answered.');
            return;
          }
          setTimeout(() => attempt(tried + 1), QUEUE_PAUSE_MS);
          return;
        }
        const target = new URL(req.url!, upstreams[(first + tried) % upstreams.length]);
        const out = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          // A server killed mid-answer: the client sees its connection cut, as it would behind a balancer.
          answer.on('error', () => res.destroy());
          answer.on('aborted', () => res.destroy());
        });
        out.on('error', () => {
          if (res.headersSent) res.destroy();
          else attempt(tried + 1);
        });
        out.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
