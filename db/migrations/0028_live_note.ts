// A live post the network shows to fewer people than the post chose (TikTok's private posts from an
// unaudited app): the sentence that says so, for its status line. Set when the post goes live.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => {
    t.text('live_note');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => {
    t.dropColumn('live_note');
  });
}
