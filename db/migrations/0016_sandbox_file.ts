// On SQLite the sandbox networks' tables move into their own file (sandbox.sqlite, attached as `sandbox` by
// db/connect.ts), so a simulator serving in a process of its own never waits for Herald's write lock, nor
// Herald for its. Tables, indexes and rows move as they are; queries keep naming the tables unqualified.
// PostgreSQL locks rows, not the database: its tables stay where they are.
import type { Knex } from 'knex';
import { isPostgres } from '../connect.ts';

const TABLES = ['sandbox_items', 'sandbox_failures', 'sandbox_accounts'];

/** `create table "t"` or `create [unique] index "i" on "t"` as written in `from`, made in schema `to`. */
function inSchema(sql: string, to: string): string {
  return sql.replace(/^create (table|unique index|index) [`"]?(\w+)[`"]?/i, `create $1 ${to}."$2"`);
}

async function move(db: Knex, from: string, to: string): Promise<void> {
  for (const table of TABLES) {
    // An earlier copy in `to` (a file left beside a database made anew) is replaced by the live one.
    await db.raw(`drop table if exists ${to}."${table}"`);
    const objects: { sql: string }[] = await db.raw(
      // 'table' sorts after 'index': the table first, then its indexes.
      `select sql from ${from}.sqlite_master where tbl_name = ? and sql is not null order by type desc`,
      [table],
    );
    for (const { sql } of objects) await db.raw(inSchema(sql, to));
    await db.raw(`insert into ${to}."${table}" select * from ${from}."${table}"`);
    await db.raw(`drop table ${from}."${table}"`);
  }
}

export async function up(db: Knex): Promise<void> {
  if (!isPostgres(db)) await move(db, 'main', 'sandbox');
}

export async function down(db: Knex): Promise<void> {
  if (!isPostgres(db)) await move(db, 'sandbox', 'main');
}
