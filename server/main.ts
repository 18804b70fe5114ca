// `herald serve`: migrate, listen, and on SIGTERM or SIGINT stop taking connections, let in-flight
// requests finish, then close the database.
import type { Server } from 'node:http';
import { migrate } from '../db/migrate.ts';
import type { Config } from '../runtime/config.ts';
import { createServices } from '../runtime/services.ts';
import { startWorker } from '../worker/worker.ts';
import { publicUrlProblem } from '../domain/publicAddress.ts';
import { createApp } from './app.ts';
import { guardConnections } from './connections.ts';

const DRAIN_TIMEOUT_MS = 10_000;

export async function serve(config: Config): Promise<number> {
  const services = createServices(config);
  // The second wall behind api.ts: a promise some request left rejected is logged, and the process keeps
  // serving every other workspace rather than exit.
  process.on('unhandledRejection', (err) => {
    services.logger.error({ err }, 'unhandled promise rejection; the server keeps serving');
  });
  await migrate(services.db);
  const app = await createApp(services);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  guardConnections(server);
  services.logger.info({ app: `${config.publicUrl}/app`, api: `${config.publicUrl}/v1`, database: config.databaseUrl ? 'postgresql' : 'sqlite',
    networks: config.networks }, `Herald is listening on ${config.host}:${config.port}: dashboard ${config.publicUrl}/app, API ${config.publicUrl}/v1, ` +
    `MCP ${config.publicUrl}/mcp, docs ${config.publicUrl}/docs`);
  const problem = config.networks === 'live' ? publicUrlProblem(config.publicUrl) : undefined;
  if (problem) {
    services.logger.warn({ publicUrl: config.publicUrl }, `PUBLIC_URL ${problem}: Instagram, Threads and Facebook fetch media from it and will fail to. Set PUBLIC_URL to this server's public https address.`);
  }
  // On SQLite this process is the one publishing worker; on PostgreSQL `herald worker` processes are.
  const worker = config.databaseUrl ? undefined : await startWorker(services);
  services.logger.flush();

  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      services.logger.info({ signal }, 'draining in-flight requests');
      services.logger.flush();
      const force = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS).unref();
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
