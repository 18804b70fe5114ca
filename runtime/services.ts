// The long-lived parts of one process, built from the configuration and closed together.
import { isPostgres, openDatabase, type Db } from '../db/connect.ts';
import { checkpointInThread } from '../db/walCheckpoints.ts';
import { createMediaWork, type MediaWork } from '../media/work.ts';
import { createStorage, type AnyStorage } from '../storage/index.ts';
import { graphileQueue, sqliteQueue, type JobQueue } from '../worker/queues.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { Keyring } from './crypto.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMailer, type Mailer } from './mailer.ts';
import { loadSecret } from './secret.ts';

export interface Services {
  config: Config;
  db: Db;
  keyring: Keyring;
  logger: Logger;
  /** Media bytes: local disk or S3. */
  storage: AnyStorage;
  /** Background media work: processing, downloads, the retention sweep (started by the app). */
  media: MediaWork;
  /** Publish jobs: graphile-worker on PostgreSQL, a jobs table on SQLite. */
  jobs: JobQueue;
  /** The one clock of the process: stamps, handlers' "now", the worker (tests pass a controllable one). */
  clock: Clock;
  /** Invitations and password resets: SMTP, or the log. */
  mailer: Mailer;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  /** SQLite's checkpoints in a thread of their own, off the commits: for the long-lived server process. */
  checkpointThread?: boolean;
}

export function createServices(config: Config, options: ServiceOptions = {}): Services {
  const clock = options.clock ?? systemClock;
  const logger = createLogger(config.logLevel, config.logFormat);
  const checkpointThread = options.checkpointThread && !config.databaseUrl;
  const db = openDatabase({ ...config, checkpoints: checkpointThread ? 'thread' : 'commit', logger });
  const checkpoints = checkpointThread
    ? checkpointInThread(config.dataDir, (message) => logger.error({ message }, 'SQLite checkpoint failed'))
    : undefined;
  const keyring = new Keyring(loadSecret(config.dataDir));
  const storage = createStorage(config, keyring);
  const media = createMediaWork({
    db,
    storage,
    logger,
    sweepEveryMs: config.mediaSweepMs,
    downloadTimeoutMs: config.fromUrl.timeoutMs,
  });
  const jobs = isPostgres(db) ? graphileQueue(db, config.databaseUrl!, logger) : sqliteQueue(db, clock, logger);
  return {
    config,
    db,
    keyring,
    logger,
    storage,
    media,
    jobs,
    clock,
    mailer: createMailer(config.mail, logger),
    close: async () => {
      await media.stop();
      await storage.close();
      // The thread first: the server's connection, closing last, folds the logs into the files and removes them.
      await checkpoints?.stop();
      await db.destroy();
    },
  };
}
