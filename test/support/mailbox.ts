// A real SMTP server (smtp-server) on a local port for tests that read the mail Herald sends with SMTP_URL set.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

interface Received {
  to: string;
  text: string;
}

/** A local SMTP server; `next()` resolves with the next mail it receives. */
export async function mailbox() {
  const waiting: ((mail: Received) => void)[] = [];
  const arrived: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      let text = '';
      stream.on('data', (d: Buffer) => (text += d.toString('utf8')));
      stream.on('end', () => {
        const mail = {
          to: session.envelope.rcptTo.map((r) => r.address).join(','),
          text: text.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
        };
        const waiter = waiting.shift();
        if (waiter) waiter(mail);
        else arrived.push(mail);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    /** Mails received that no `next()` took yet. */
    pending: () => arrived.length,
    next: () =>
      new Promise<Received>((resolve) => (arrived.length ? resolve(arrived.shift()!) : waiting.push(resolve))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
