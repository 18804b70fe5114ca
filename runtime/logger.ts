// Structured logs with pino. Secrets never reach a log line: request lines carry no headers or query
// strings, and these paths are redacted wherever an object is logged whole.
import { Logger as GraphileLogger } from 'graphile-worker';
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger } from 'pino';

/** `json`: one JSON line per event (for machines); `pretty`: readable lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

function prettyDestination(): DestinationStream {
  // Synchronous: a person reading a terminal does not need the buffering, and nothing is lost on exit.
  const out = pino.destination({ dest: 1, sync: true });
  // Loaded only for a person's terminal: a service logging JSON saves the 20 ms of CPU it costs to load.
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  const format = prettyFactory({
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
  });
  return { write: (line: string) => out.write(format(line)) };
}

/**
 * Buffered, asynchronous writes: a log line per request must not cost a system call per request. Warnings and
 * errors (what an operator watches for, and rare) go out at once, and so does whatever a caller flushes (mailer.ts,
 * a mail line: the link someone waits for), rather than waiting in the buffer for other traffic. `herald serve`
 * flushes on shutdown; pino flushes on a normal exit itself.
 */
function bufferedDestination(): DestinationStream & { flush(cb?: (err?: Error) => void): void } {
  const out = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  // A write already under way takes only what it had: the lines after it go once it has ended (its drain).
  const flush = (cb?: (err?: Error) => void) => out.flush(() => out.flush(cb));
  // One flush for warnings at a time (each waits on a listener of the stream's): lines that come meanwhile take the
  // next, started when it ends. A burst of warnings (a database gone) would otherwise pile up thousands of listeners.
  let flushing = false;
  let again = false;
  const flushUrgent = () => {
    if (flushing) {
      again = true;
      return;
    }
    flushing = true;
    flush(() => {
      flushing = false;
      if (again) {
        again = false;
        flushUrgent();
      }
    });
  };
  return {
    write(line: string) {
      out.write(line);
      if (/^\{"level":(40|50|60),/.test(line)) flushUrgent();
    },
    flush,
  };
}

export function createLogger(level: string, format: LogFormat = 'json'): Logger {
  const destination = format === 'pretty' ? prettyDestination() : bufferedDestination();
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          'headers.cookie',
          '*.token',
          '*.accessToken',
          '*.refreshToken',
          '*.password',
          '*.key',
          '*.secret',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

export type { Logger };

/** graphile-worker's log lines, through pino like everything else. */
export function graphileLogger(logger: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    // Its "Completed task" line per job (carrying the whole job) is debug here: each post's own events record
    // its attempts, and at thousands of posts a second the lines cost more than the publishing.
    const perJob = level === 'info' && (meta as { success?: unknown } | undefined)?.success === true;
    const method =
      level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' && !perJob ? 'info' : 'debug';
    if (logger.isLevelEnabled(method)) logger[method]({ component: 'graphile-worker', ...scope, ...meta }, message);
  });
}

/**
 * Logs a promise some part of the process left rejected, and keeps the process running: a request's leftover in
 * `herald serve`; in `herald worker`, graphile-worker's own shutdown after it gave up on its queue (its promise is
 * left unhandled), which Herald restarts (worker/queues.ts). Exiting would strand every attempt in flight.
 */
export function keepRunningOnUnhandledRejection(logger: Logger, sentence: string): void {
  process.on('unhandledRejection', (err) => {
    logger.error({ err }, sentence);
  });
}
