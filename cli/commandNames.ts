// The names of the day-to-day commands that cli/commands.ts runs, apart from it: bin/herald tells a command
// from a typo without loading what the commands need, and commands.ts need not import bin/herald's module.
export const COMMAND_NAMES = [
  'workspace create',
  'key create',
  'key list',
  'key revoke',
  'account add-sandbox',
  'sandbox fail',
  'user set-password',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export const isCommand = (name: string): name is CommandName => (COMMAND_NAMES as readonly string[]).includes(name);
