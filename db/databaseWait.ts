// Start-up steps that need the database (the migration check, the worker's first heartbeat): while PostgreSQL is
// out of reach (restarting, a connection cut under the step), a starting process waits for it, saying so in its
// log, instead of exiting; it gives up with the database's own error after STARTUP_WAIT_MS.
import type { Logger } from '../runtime/logger.ts';
import { isDatabaseUnavailable } from './connect.ts';

/** How long a starting process waits for its database before it gives up. */
export const STARTUP_WAIT_MS = 120_000;
const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 5000;

export async function whenDatabaseAnswers<T>(
  logger: Pick<Logger, 'warn' | 'flush'>,
  what: string,
  step: () => Promise<T>,
  waitMs = STARTUP_WAIT_MS,
): Promise<T> {
  const giveUpAt = Date.now() + waitMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(2 * pause, LONGEST_PAUSE_MS)) {
    try {
      return await step();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() + pause > giveUpAt) throw err;
      logger.warn(
        { err: (err as Error).message, retryInMs: pause },
        `The database is out of reach while ${what}: trying again in ${pause / 1000} s.`,
      );
      logger.flush();
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
