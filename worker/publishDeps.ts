// What the publish task works with: the database and its jobs, keys, files, connectors, the clock and its limits.
import type { Db } from '../db/connect.ts';
import type { JobScheduler } from '../db/jobs.ts';
import type { Connector } from '../networks/connector.ts';
import type { Platform } from '../networks/rules.ts';
import type { Clock } from '../runtime/clock.ts';
import type { Keyring } from '../runtime/crypto.ts';
import type { Logger } from '../runtime/logger.ts';
import type { Storage } from '../storage/storage.ts';

export interface PublishDeps {
  db: Db;
  jobs: JobScheduler;
  keyring: Keyring;
  storage: Storage;
  logger: Logger;
  connectorFor(platform: Platform): Connector | undefined;
  clock: Clock;
  workerId: string;
  retryDelaysMs: number[];
  /** Attempts running at once in this worker (network calls in flight). */
  concurrency: number;
}
