// `herald sandbox serve`: the sandbox simulators and their consent pages in a process of their own, on
// SANDBOX_PORT over the same database, so load on them never shares Herald's event loop. Herald's
// processes find them through SANDBOX_URL (http://<host>:<SANDBOX_PORT>/sandbox).
import type { Server } from 'node:http';
import express from 'express';
import { openDatabase } from '../db/connect.ts';
import { whenDatabaseAnswers } from '../db/databaseWait.ts';
import { migrate } from '../db/migrate.ts';
import { ApiError } from '../domain/errors.ts';
import { sandboxBase } from '../networks/sandbox/address.ts';
import { sandboxRoutes } from '../networks/sandbox/index.ts';
import type { Config } from '../runtime/config.ts';
import { createLogger } from '../runtime/logger.ts';
import { guardConnections } from '../server/connections.ts';

export async function sandboxServe(config: Config): Promise<number> {
  if (config.networks !== 'sandbox') {
    throw new ApiError(
      409,
      'sandbox_only',
      'The sandbox networks exist only when NETWORKS=sandbox.',
      'Unset NETWORKS to serve them.',
    );
  }
  const logger = createLogger(config.logLevel, config.logFormat);
  const db = openDatabase(config);
  try {
    await whenDatabaseAnswers(logger, 'checking its migrations', () => migrate(db));
  } catch (err) {
    await db.destroy();
    throw err;
  }
  // The address the simulators give out (permalinks, upload addresses): SANDBOX_URL, or this process's own.
  const own = { ...config, sandboxUrl: config.sandboxUrl ?? `http://${config.host}:${config.sandboxPort}/sandbox` };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use('/sandbox', await sandboxRoutes({ db, config: own }));
  app.use((req, res) => {
    res.status(404).json({
      code: 'not_found',
      message: `Nothing is served at ${req.path}.`,
      hint: 'The sandbox networks live under /sandbox/<network>.',
    });
  });
  let server: Server;
  try {
    server = await new Promise((resolve, reject) => {
      const s = app.listen(config.sandboxPort, config.host, () => resolve(s));
      s.once('error', reject);
    });
  } catch (err) {
    await db.destroy();
    throw err;
  }
  guardConnections(server);
  const base = own.sandboxUrl;
  logger.info(
    { sandboxUrl: base, facebook: sandboxBase(own, 'facebook') },
    `Sandbox networks listening on ` +
      `${config.host}:${config.sandboxPort}: set SANDBOX_URL=${base} for herald serve and herald worker`,
  );
  logger.flush();

  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  const force = setTimeout(() => server.closeAllConnections(), 10_000).unref();
  await new Promise((resolve) => server.close(resolve));
  clearTimeout(force);
  await db.destroy();
  logger.info('stopped');
  logger.flush();
  return 0;
}
