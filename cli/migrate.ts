// `herald migrate [--dry-run]`: applies the pending migrations, or lists them without touching anything.
import { openDatabase } from '../db/connect.ts';
import { migrate, migrationPlan } from '../db/migrate.ts';
import { loadConfig } from '../runtime/config.ts';
import { operatorOptions, printOutcome } from './output.ts';

export function migrateCommand(args: string[]): Promise<number> {
  return printOutcome(async () => {
    const o = operatorOptions(args, { 'dry-run': 'boolean' });
    const db = openDatabase(loadConfig());
    try {
      if (o['dry-run']) return { dryRun: true, ...(await migrationPlan(db)) };
      return { migrated: true, applied: await migrate(db) };
    } finally {
      await db.destroy();
    }
  });
}
