// The long-lived parts of one process, built from the configuration and closed together.
import { openDatabase, type Db } from '../db/connect.ts';
import type { Config } from './config.ts';
import { Keyring } from './crypto.ts';
import { createLogger, type Logger } from './logger.ts';
import { loadSecret } from './secret.ts';

export interface Services {
  config: Config;
  db: Db;
  keyring: Keyring;
  logger: Logger;
  close(): Promise<void>;
}

export function createServices(config: Config): Services {
  const db = openDatabase(config);
  return {
    config,
    db,
    keyring: new Keyring(loadSecret(config.dataDir)),
    logger: createLogger(config.logLevel),
    close: () => db.destroy(),
  };
}
