// Mail for invitations and password resets: through SMTP when SMTP_URL is set, otherwise written to the
// log, where a self-hosting operator finds the link (the inviter also sees invitation links on screen).
import type { Transporter } from 'nodemailer';
import type { Logger } from './logger.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** `smtp` or `log`: where mail goes, which answers may mention. */
  readonly via: 'smtp' | 'log';
  send(mail: Mail): Promise<void>;
}

export function createMailer(opts: { smtpUrl: string | undefined; from: string }, logger: Logger): Mailer {
  if (!opts.smtpUrl) {
    return {
      via: 'log',
      send: async (mail) => {
        logger.info(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          'mail (SMTP_URL is unset, so it is logged here)',
        );
        // Someone waits for this link: it goes out now, not once other lines fill the log's buffer.
        logger.flush();
      },
    };
  }
  // nodemailer loads with the first mail: loaded at start, it cost every process 30 ms of CPU, most never mail.
  let transport: Promise<Transporter> | undefined;
  return {
    via: 'smtp',
    send: async (mail) => {
      transport ??= import('nodemailer').then((module) => module.default.createTransport(opts.smtpUrl));
      await (await transport).sendMail({ from: opts.from, ...mail });
    },
  };
}

/** Sends each mail; one that cannot be sent is logged, never a failure of the change it reports (already committed). */
export async function sendEach(mailer: Mailer, logger: Logger, mails: Mail[], what: string): Promise<void> {
  for (const mail of mails) {
    await mailer.send(mail).catch((err: unknown) => logger.warn({ err }, `${what} could not be sent`));
  }
}
