// A Db that becomes one transaction at its first write. Repositories write inside `db.transaction(...)`; through
// this Db, the first such call opens an outer transaction, runs its work as a savepoint in it, and every query
// after that joins the outer transaction, which stays open until its owner commits it. So reads before the first
// write (and any slow work there, such as fetching a remote file) hold no connection, while everything from the
// first write on commits together with what the owner adds last (an idempotency key's answer).
import type { Knex } from 'knex';
import type { Db } from './connect.ts';

export interface DeferredTransaction {
  /** The Db to hand to repositories. */
  db: Db;
  /** The outer transaction, once a write opened it. */
  opened(): Knex.Transaction | undefined;
}

export function deferredTransaction(db: Db): DeferredTransaction {
  let outer: Knex.Transaction | undefined;
  let opening: Promise<Knex.Transaction> | undefined;
  const current = (): Knex => outer ?? db;
  const begin = () =>
    (opening ??= db.transaction().then((trx) => {
      outer = trx;
      return trx;
    }));
  const transaction = async <T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> =>
    (await begin()).transaction(work);
  const proxy = new Proxy(db, {
    apply: (_target, thisArg, args) => Reflect.apply(current() as never, thisArg, args),
    get(_target, prop) {
      if (prop === 'transaction') return transaction;
      const target = current();
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: proxy, opened: () => outer };
}
