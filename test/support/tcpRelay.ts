// A TCP relay to another address that a test can cut: every connection through it dropped and new ones refused
// until it is restored. Herald reaches PostgreSQL through it to meet its database going away. With `cutFirst`, each
// of the first connections is cut when its client sends its second chunk (after PostgreSQL's start-up exchange, the
// first query), before the query reaches the database.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpRelay {
  port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function tcpRelay(host: string, port: number, opts: { cutFirst?: number } = {}): Promise<TcpRelay> {
  const open = new Set<net.Socket>();
  let cut = false;
  let toCut = opts.cutFirst ?? 0;
  const server = net.createServer((client) => {
    if (cut) return client.destroy();
    const upstream = net.connect(port, host);
    if (toCut > 0) {
      toCut--;
      let chunks = 0;
      client.on('data', () => {
        if (++chunks === 2) {
          client.unpipe(upstream);
          client.destroy();
          upstream.destroy();
        }
      });
    }
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        open.delete(a);
        b.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      cut = false;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
