// Publishing: each post's next attempt time and its attempt lease (who is sending it, since when, and
// how far it got), the SQLite job table (PostgreSQL uses graphile-worker's own), and worker heartbeats.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('posts', (t) => {
    /** When the next attempt is due: publish_at, or a worker retry's time. */
    t.string('due_at');
    t.string('attempt_id');
    t.string('attempt_worker');
    t.string('attempt_started_at');
    /** What the current (or a dead) attempt recorded before its network calls, as JSON. */
    t.text('checkpoint');
    t.integer('worker_retries').notNullable().defaultTo(0);
    t.index(['status', 'due_at']);
    t.index(['attempt_worker']);
  });
  await db('posts')
    .whereIn('status', ['queued'])
    .update({ due_at: db.ref('publish_at') });
  await db.schema.createTable('jobs', (t) => {
    t.increments('id');
    t.string('key').notNullable().unique();
    t.string('task').notNullable();
    t.string('run_at').notNullable();
    /** Bumped by every reschedule, so a finishing run never deletes the schedule that replaced it. */
    t.integer('version').notNullable().defaultTo(0);
    t.string('locked_at');
    t.string('locked_by');
    t.index(['locked_at', 'run_at']);
  });
  await db.schema.createTable('workers', (t) => {
    t.string('id').primary();
    t.string('started_at').notNullable();
    t.string('heartbeat_at').notNullable();
    t.integer('pid').notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('workers');
  await db.schema.dropTableIfExists('jobs');
  await db.schema.alterTable('posts', (t) => {
    for (const c of ['due_at', 'attempt_id', 'attempt_worker', 'attempt_started_at', 'checkpoint', 'worker_retries'])
      t.dropColumn(c);
  });
}
