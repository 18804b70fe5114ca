// A queued post the network took and is still reviewing (TikTok's moderation, which can take hours):
// since when, for its status line. Set when the worker first finds the post in review, cleared when the
// post goes live or fails.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => {
    t.string('review_since');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => {
    t.dropColumn('review_since');
  });
}
