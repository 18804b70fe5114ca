// SQLite's checkpoints (copying the write-ahead log back into the database file) in a thread of their own. By
// default the commit that grows the log past 1,000 pages runs one, fsyncs included, with the event loop stopped:
// in a burst of publishing that was a fifth of the server's busy time. `herald serve` turns its connection's
// automatic checkpoints off (openDatabase's `checkpoints: 'thread'`) and this thread runs a passive checkpoint
// of each file four times a second; a passive one never waits for a writer or a reader, and does nothing when
// the log holds nothing new. Other processes (the CLI, `herald sandbox serve`) keep SQLite's automatic ones.
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { SANDBOX_FILE, SQLITE_FILE } from './connect.ts';

const EVERY_MS = 250;

// CommonJS run by the thread (eval), so that it needs no file of its own in src/ or dist/. A file not there yet
// (the connection that creates it is still opening) is tried again at the next turn; a failure is reported
// once until it changes, not four times a second.
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const open = new Map();
const failed = new Map();
setInterval(() => {
  for (const file of workerData.files) {
    try {
      if (!open.has(file)) open.set(file, new Database(file, { fileMustExist: true }));
      open.get(file).pragma('wal_checkpoint(PASSIVE)');
      failed.delete(file);
    } catch (err) {
      if (open.has(file) && failed.get(file) !== err.message) parentPort.postMessage(file + ': ' + err.message);
      failed.set(file, err.message);
    }
  }
}, workerData.everyMs);
`;

/** Starts the thread for the SQLite files of `dataDir`; it never keeps the process alive. */
export function checkpointInThread(dataDir: string, onError: (message: string) => void): { stop(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const files = [SQLITE_FILE, SANDBOX_FILE].map((file) => path.join(dataDir, file));
  const worker = new Worker(THREAD, { eval: true, workerData: { driver, files, everyMs: EVERY_MS } });
  worker.on('message', onError);
  worker.on('error', (err) => onError(err.message));
  worker.unref();
  return { stop: async () => void (await worker.terminate()) };
}
