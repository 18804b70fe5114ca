// How operator commands speak: one JSON object on stdout, or {code, message, hint} on stderr and a
// non-zero exit (docs/guides/operating.md, Operator commands).
import { parseArgs } from 'node:util';
import { isDatabaseBusy } from '../db/connect.ts';
import { ApiError, errorBody } from '../domain/errors.ts';
import { loadConfig } from '../runtime/config.ts';

/** Parses --name value and --flag options; unknown or missing ones are a 400 invalid_request. */
export function operatorOptions(
  args: string[],
  spec: Record<string, 'string' | 'boolean' | 'required'>,
): Record<string, string | boolean | undefined> {
  const usage = `Options: ${Object.keys(spec)
    .map((o) => '--' + o)
    .join(', ')}.`;
  let values;
  try {
    values = parseArgs({
      args,
      strict: true,
      options: Object.fromEntries(
        Object.entries(spec).map(([name, kind]) => [
          name,
          { type: kind === 'boolean' ? ('boolean' as const) : ('string' as const) },
        ]),
      ),
    }).values;
  } catch (err) {
    throw new ApiError(400, 'invalid_request', (err as Error).message, usage);
  }
  for (const [name, kind] of Object.entries(spec)) {
    if (kind === 'required' && !values[name])
      throw new ApiError(400, 'invalid_request', `--${name} is required.`, usage);
  }
  return values;
}

/**
 * What a command's failure is, said for its operator: SQLite locked past the command's wait (another process held
 * its write lock) is a busy database, never the SQL that waited. Any other error is itself.
 */
export function commandFailure(err: unknown): unknown {
  if (!isDatabaseBusy(err)) return err;
  return new ApiError(
    503,
    'database_busy',
    'The database is busy: another Herald process held its write lock for longer than this command waits, so ' +
      'the command gave up.',
    'Run the same command again in a moment (SQLITE_BUSY_TIMEOUT_MS sets how long a command waits).',
  );
}

/** {code, message, hint} on stderr; the exit status: 2 for a usage error, 1 otherwise. */
export function reportFailure(failure: unknown): number {
  const err = commandFailure(failure);
  let publicUrl = 'http://localhost:8080';
  try {
    publicUrl = loadConfig().publicUrl;
  } catch {
    // The configuration itself may be what failed.
  }
  const body =
    err instanceof ApiError
      ? errorBody(err, publicUrl)
      : {
          code: 'internal',
          message: (err as Error).message,
          hint: 'Check the environment variables (docs/guides/configuration.md), DATABASE_URL and DATA_DIR.',
        };
  process.stderr.write(JSON.stringify(body) + '\n');
  return err instanceof ApiError && err.status === 400 ? 2 : 1;
}

/** Runs a command that answers one JSON object on stdout. */
export async function printOutcome(run: () => Promise<object>): Promise<number> {
  try {
    process.stdout.write(JSON.stringify(await run()) + '\n');
    return 0;
  } catch (err) {
    return reportFailure(err);
  }
}

/** `herald serve` and `herald worker` run until stopped; a failure to start is reported like any command's. */
export async function failsCleanly(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    return reportFailure(err);
  }
}
