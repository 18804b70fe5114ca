// The operator's maintenance commands, apart from the day-to-day ones in herald.ts because they must
// not open the instance the usual way: none may migrate first or create a secret, and restore starts
// from nothing. Each module loads only when its command runs, so the other commands start no slower.
export const OPERATOR_COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  migrate: async (args) => (await import('./migrate.ts')).migrateCommand(args),
  doctor: async (args) => (await import('./doctor.ts')).doctor(args),
  backup: async (args) => (await import('./backup.ts')).backup(args),
  restore: async (args) => (await import('./backup.ts')).restore(args),
};
