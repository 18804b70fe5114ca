// A timeline row's facts as fields (why a post was cancelled, what an edit changed, who decided an approval and
// their comment), and a failed post's quote of the network's own words, so no reader parses a sentence.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('post_events', (t) => {
    // JSON: the event's facts (PostEvent's `reason`, `changed`, `by`, `comment`); null for rows written before.
    t.text('facts');
  });
  await db.schema.alterTable('posts', (t) => {
    t.text('error_network_message');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => {
    t.dropColumn('error_network_message');
  });
  await db.schema.alterTable('post_events', (t) => {
    t.dropColumn('facts');
  });
}
