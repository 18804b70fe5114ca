// `herald serve`: migrate, listen, and on SIGTERM or SIGINT stop taking connections, let in-flight
// requests finish, then close the database.
import type { Server } from 'node:http';
import { migrate } from '../db/migrate.ts';
import type { Config } from '../runtime/config.ts';
import { createServices } from '../runtime/services.ts';
import { createApp } from './app.ts';

const DRAIN_TIMEOUT_MS = 10_000;

export async function serve(config: Config): Promise<number> {
  const services = createServices(config);
  await migrate(services.db);
  const app = await createApp(services);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  services.logger.info({ app: `${config.publicUrl}/app`, api: `${config.publicUrl}/v1`, database: config.databaseUrl ? 'postgresql' : 'sqlite',
    networks: config.networks }, `Herald is listening on ${config.host}:${config.port}: dashboard ${config.publicUrl}/app, API ${config.publicUrl}/v1`);
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
