// `herald worker`: a publishing worker process for PostgreSQL, beside `herald serve`'s own (run as many as you
// like). SIGTERM or SIGINT lets the attempts in flight finish before it exits.
import { whenDatabaseAnswers } from '../db/databaseWait.ts';
import { migrate } from '../db/migrate.ts';
import { ApiError } from '../domain/errors.ts';
import type { Config } from '../runtime/config.ts';
import { keepRunningOnUnhandledRejection } from '../runtime/logger.ts';
import { createServices } from '../runtime/services.ts';
import { startWorker, type ProcessOptions } from './worker.ts';

export async function runWorkerProcess(config: Config, options: ProcessOptions = {}): Promise<number> {
  if (!config.databaseUrl) {
    throw new ApiError(
      409,
      'postgres_only',
      '`herald worker` runs on PostgreSQL; with SQLite, `herald serve` publishes by itself.',
      'Set DATABASE_URL to a postgres:// address, or just run `herald serve`.',
    );
  }
  const services = createServices(config, { clock: options.clock });
  keepRunningOnUnhandledRejection(services.logger, 'unhandled promise rejection; the worker keeps publishing');
  let worker: Awaited<ReturnType<typeof startWorker>>;
  try {
    await whenDatabaseAnswers(services.logger, 'checking its migrations', () => migrate(services.db));
    worker = await startWorker(services, options.worker);
  } catch (err) {
    await services.close();
    throw err;
  }
  services.logger.flush();
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await worker.stop();
  await services.close();
  services.logger.flush();
  return 0;
}
