// PostgreSQL's list indexes order the publish time as `coalesce(publish_at, '')`, so that every cursor, a
// draft's too, is one row comparison the index seeks to: with a plain `publish_at`, a cursor among the drafts
// (no publish time) could only be `id > ?` behind a column PostgreSQL does not know is constant, which read
// every earlier draft of the workspace. SQLite seeks on row comparisons of plain columns only: it keeps 0013's
// indexes, and db/postReads.ts states its cursors in their terms.
import type { Knex } from 'knex';
import { isPostgres } from '../connect.ts';

const INDEXES = {
  posts_list_order: 'workspace_id',
  posts_list_status_order: 'workspace_id, status',
};

async function remake(db: Knex, publishTime: string): Promise<void> {
  if (!isPostgres(db)) return;
  for (const [name, leading] of Object.entries(INDEXES)) {
    await db.raw(`drop index ${name}`);
    await db.raw(`create index ${name} on posts (${leading}, (publish_at is null), ${publishTime}, id)`);
  }
}

export const up = (db: Knex) => remake(db, "coalesce(publish_at, '')");
export const down = (db: Knex) => remake(db, 'publish_at');
