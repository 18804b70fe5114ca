// bin/herald: the operator interface (docs/guides/operating.md, Operator commands). Each command prints exactly
// one JSON object on stdout, or {code, message, hint} on stderr with a non-zero exit. Each command loads only the
// modules it needs (dynamic imports), so `herald --help` and the quick commands start fast.

import { COMMAND_NAMES, isCommand } from './commandNames.ts';
import { OPERATOR_COMMANDS } from './operator.ts';

async function runWorker(): Promise<number> {
  const [{ loadConfig }, { ApiError, errorBody }, { runWorkerProcess }] = await Promise.all([
    import('../runtime/config.ts'),
    import('../domain/errors.ts'),
    import('../worker/main.ts'),
  ]);
  try {
    return await runWorkerProcess(loadConfig());
  } catch (err) {
    process.stderr.write(
      JSON.stringify(
        err instanceof ApiError
          ? errorBody(err, loadConfig().publicUrl)
          : { code: 'internal', message: (err as Error).message, hint: 'Check DATABASE_URL, then try again.' },
      ) + '\n',
    );
    return 1;
  }
}

async function main(argv: string[]): Promise<number> {
  const [first = '', second = '', ...rest] = argv;
  const known = ['serve', 'worker', 'sandbox serve', 'mcp', ...Object.keys(OPERATOR_COMMANDS), ...COMMAND_NAMES];
  if (first === '--help' || first === 'help') {
    process.stdout.write(JSON.stringify({ usage: 'herald <command> [--option value ...]', commands: known }) + '\n');
    return 0;
  }
  if (first === 'serve') {
    const [{ loadConfig }, { serve }, { failsCleanly }] = await Promise.all([
      import('../runtime/config.ts'),
      import('../server/main.ts'),
      import('./output.ts'),
    ]);
    return failsCleanly(() => serve(loadConfig()));
  }
  if (first === 'sandbox' && second === 'serve') {
    const [{ loadConfig }, { sandboxServe }, { failsCleanly }] = await Promise.all([
      import('../runtime/config.ts'),
      import('./sandboxServe.ts'),
      import('./output.ts'),
    ]);
    return failsCleanly(() => sandboxServe(loadConfig()));
  }
  if (OPERATOR_COMMANDS[first]) return OPERATOR_COMMANDS[first](argv.slice(1));
  // The stdio MCP package's own code: stdout carries only MCP messages.
  if (first === 'mcp') return (await import('../mcp/stdio/bridge.js')).runStdioBridge(process.env);
  if (first === 'worker') return runWorker();
  const name = isCommand(first) ? first : `${first} ${second}`;
  if (!isCommand(name)) {
    process.stderr.write(
      JSON.stringify({
        code: 'unknown_command',
        message: `Unknown command "${argv.join(' ')}".`,
        hint: `Commands: ${known.join(', ')}.`,
      }) + '\n',
    );
    return 2;
  }
  const args = isCommand(first) ? [second, ...rest].filter(Boolean) : rest;
  const { runCommand } = await import('./commands.ts');
  return runCommand(name, args);
}

process.exitCode = await main(process.argv.slice(2));
