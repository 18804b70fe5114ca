// The operator's maintenance commands, apart from the day-to-day ones in herald.ts because they must
// not open the instance the usual way: none may migrate first or create a secret, and restore starts
// from nothing.
import { backup, restore } from './backup.ts';
import { doctor } from './doctor.ts';
import { migrateCommand } from './migrate.ts';

export const OPERATOR_COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  migrate: migrateCommand,
  doctor,
  backup,
  restore,
};
