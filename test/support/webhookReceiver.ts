// A webhook receiver on a loopback port, as an integrator writes one: it verifies every request with the
// standardwebhooks package against every secret it is given (during a rotation, the old and the new), then answers
// what `answer` says; an answer can be a promise, to hold a request open (a sender killed mid-delivery).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  body: { type: string; timestamp: string; data: Record<string, any> };
  signatures: string[];
  headers: Record<string, string>;
  /** When it arrived (the wall clock). */
  at: number;
}

export type WebhookReceiver = Awaited<ReturnType<typeof webhookReceiver>>;

export async function webhookReceiver() {
  /** Every request answered 2xx. */
  const got: Received[] = [];
  /** Every request's webhook-id, answered 2xx or not, and every signature that did not verify. */
  const attempts: string[] = [];
  const failures: string[] = [];
  const state = {
    secrets: [] as string[],
    /** Secrets for requests to one path (a receiver for several webhooks), in place of `secrets`. */
    secretsByPath: new Map<string, string[]>(),
    answer: (_webhookId: string): number | Promise<number> => 200,
    /** Requests read and not yet answered. */
    open: 0,
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString('utf8')));
    req.on('end', async () => {
      const headers = req.headers as Record<string, string>;
      attempts.push(headers['webhook-id']!);
      for (const secret of state.secretsByPath.get(req.url!) ?? state.secrets) {
        try {
          new Webhook(secret).verify(raw, headers);
        } catch (err) {
          failures.push(`${headers['webhook-id']}: ${(err as Error).message}`);
          res.writeHead(401).end();
          return;
        }
      }
      state.open += 1;
      const status = await state.answer(headers['webhook-id']!);
      state.open -= 1;
      // A sender that died while the request was held never reads the answer: nothing was delivered.
      if (req.socket.destroyed) return;
      if (status < 300)
        got.push({
          id: headers['webhook-id']!,
          body: JSON.parse(raw),
          signatures: headers['webhook-signature']!.split(' '),
          headers,
          at: Date.now(),
        });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'thanks' : 'x'.repeat(5000));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    attempts,
    failures,
    state,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
