// Reads that many requests make at once (whoami's usage, the account list), each for its own workspace, go to
// the database together: while one query is out, the calls that arrive wait and share the next. Each caller's
// rows are read after it asked, so it sees every write committed before, as a query of its own would. On
// PostgreSQL a query is a round trip over the socket; under load most of a request's cost was these round trips.
import type { Db } from './connect.ts';
import { batcher } from '../runtime/batcher.ts';

/**
 * One batcher per database for `read`, which answers a batch of keys with one query. Each caller gets the rows
 * whose `rowGroup` is its key's `keyGroup` (the workspace, say), in the order `read` returned them.
 */
export function batchedRead<K, Row>(
  read: (db: Db, keys: K[]) => Promise<Row[]>,
  rowGroup: (row: Row) => string,
  keyGroup: (key: K) => string,
): (db: Db, key: K) => Promise<Row[]> {
  const perDb = new WeakMap<Db, (key: K) => Promise<Row[]>>();
  return (db, key) => {
    let load = perDb.get(db);
    if (!load) {
      load = batcher(async (keys: K[]) => {
        const groups = new Map<string, Row[]>();
        for (const row of await read(db, keys)) {
          const group = rowGroup(row);
          groups.get(group)?.push(row) ?? groups.set(group, [row]);
        }
        return keys.map((k) => groups.get(keyGroup(k)) ?? []);
      }, 200);
      perDb.set(db, load);
    }
    return load(key);
  };
}
