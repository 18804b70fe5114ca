// Where a worker runs (runtime/processHost.ts): a worker whose process is gone from the machine another worker runs
// on has its reservations taken at once, not after SILENT_WORKER_MS of silence.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('workers', (t) => {
    t.string('host');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('workers', (t) => {
    t.dropColumn('host');
  });
}
