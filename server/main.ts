// `herald serve`: migrate, listen, and on SIGTERM or SIGINT stop taking connections, let in-flight
// requests finish, then close the database.
import type { Server } from 'node:http';
import { whenDatabaseAnswers } from '../db/databaseWait.ts';
import { migrate } from '../db/migrate.ts';
import type { Config } from '../runtime/config.ts';
import { keepRunningOnUnhandledRejection } from '../runtime/logger.ts';
import { createServices } from '../runtime/services.ts';
import { startWorker, type ProcessOptions } from '../worker/worker.ts';
import { publicUrlProblem } from '../domain/publicAddress.ts';
import { createApp } from './app.ts';
import { streamsOf } from './eventStream.ts';
import { FIRST_BY_CLI, startupBanner } from './banner.ts';
import { guardConnections } from './connections.ts';

const DRAIN_TIMEOUT_MS = 10_000;

export async function serve(config: Config, options: ProcessOptions = {}): Promise<number> {
  const services = createServices(config, { checkpointThread: true, clock: options.clock });
  // The second wall behind api.ts: a promise some request left rejected is logged, and the process keeps
  // serving every other workspace rather than exit.
  keepRunningOnUnhandledRejection(services.logger, 'unhandled promise rejection; the server keeps serving');
  try {
    await whenDatabaseAnswers(services.logger, 'checking its migrations', () => migrate(services.db));
  } catch (err) {
    // Refused (a database newer than this Herald) or unreachable: nothing was started, so close and report.
    await services.close();
    throw err;
  }
  const app = await createApp(services);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  guardConnections(server);
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  let firstUser: boolean;
  try {
    // One process is a whole instance on either database; on PostgreSQL `herald worker` processes add more.
    worker = config.worker ? await startWorker(services, options.worker) : undefined;
    // A fresh instance: the first person signs up in the dashboard.
    firstUser = await whenDatabaseAnswers(
      services.logger,
      'looking for its first user',
      async () => !(await services.db('users').first('id')),
    );
  } catch (err) {
    // A half-started server would go on listening and never say so: close it, so the failure is the process's.
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await worker?.stop();
    await services.close();
    throw err;
  }
  if (!worker && !config.databaseUrl)
    services.logger.warn('WORKER=off on SQLite: nothing publishes (only `herald serve` can run the worker).');
  if (config.logFormat === 'pretty') {
    process.stdout.write(startupBanner(config, { firstUser, worker: Boolean(worker) }));
  } else {
    const base = config.publicUrl;
    services.logger.info(
      {
        app: `${base}/app`,
        api: `${base}/v1`,
        mcp: `${base}/mcp`,
        docs: `${base}/docs`,
        database: config.databaseUrl ? 'postgresql' : 'sqlite',
        storage: config.storage.kind,
        networks: config.networks,
        worker: Boolean(worker),
      },
      `Herald is listening on ${config.host}:${config.port}: dashboard ${base}/app, API ${base}/v1`,
    );
    if (firstUser && config.signUp === 'invite') services.logger.info(`No one has signed up yet: ${FIRST_BY_CLI}.`);
    else if (firstUser) {
      const signUp = `${base}/app/sign-up`;
      services.logger.info({ signUp }, `No one has signed up yet: open ${signUp} to create the first account.`);
    }
  }
  const problem = config.networks === 'live' ? publicUrlProblem(config.publicUrl) : undefined;
  if (problem) {
    services.logger.warn(
      { publicUrl: config.publicUrl },
      `PUBLIC_URL ${problem}: Instagram, Threads and Facebook fetch media from it and will fail to. Set ` +
        `PUBLIC_URL to this server's public https address.`,
    );
  }
  services.logger.flush();

  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      services.logger.info({ signal }, 'draining in-flight requests');
      services.logger.flush();
      const force = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS).unref();
      // Live update streams stay open until ended: end them, and the pages reconnect to another process.
      streamsOf(app).endAll();
      server.close(async () => {
        clearTimeout(force);
        await worker?.stop();
        await services.close();
        services.logger.info('stopped');
        services.logger.flush();
        resolve(0);
      });
      server.closeIdleConnections();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
