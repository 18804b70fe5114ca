// Structured logs with pino. Secrets never reach a log line: request lines carry no headers or query
// strings, and these paths are redacted wherever an object is logged whole.
import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie',
        '*.token', '*.accessToken', '*.refreshToken', '*.password', '*.key', '*.secret'],
      censor: '[redacted]',
    },
  });
}

export type { Logger };
