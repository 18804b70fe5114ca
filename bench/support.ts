// Shared by the benchmarks: the process helpers of test/support/processes.ts, a `bin/herald` command's JSON answer,
// and a load run with autocannon.
import { execFileSync } from 'node:child_process';
import autocannon from 'autocannon';
import { HERALD } from '../test/support/processes.ts';

export {
  createInstance,
  createPgDatabase,
  freePort,
  HERALD,
  ROOT,
  rssMb,
  startProcess,
  stopProcess,
  tempDataDir,
} from '../test/support/processes.ts';

/** Runs `bin/herald` with `args` under `env` and reads its JSON answer. */
export function herald(env: NodeJS.ProcessEnv, ...args: string[]): Record<string, string> {
  return JSON.parse(execFileSync(HERALD, args, { env, encoding: 'utf8' }));
}

/** A workspace on the agency plan in Europe/Berlin, a sandbox account on each of `platforms`, and a key. */
export function benchWorkspace(
  env: NodeJS.ProcessEnv,
  platforms: string[],
  scopes: string,
): { workspaceId: string; accountIds: string[]; key: string } {
  const ws = [
    '--workspace',
    herald(env, 'workspace', 'create', '--name', 'Bench', '--plan', 'agency', '--tz', 'Europe/Berlin').workspaceId!,
  ];
  const accountIds = platforms.map(
    (platform, i) =>
      herald(env, 'account', 'add-sandbox', ...ws, '--platform', platform, '--name', `Bench ${i}`).accountId!,
  );
  const { key } = herald(env, 'key', 'create', ...ws, '--name', 'bench', '--scopes', scopes);
  return { workspaceId: ws[1]!, accountIds, key: key! };
}

export interface Load {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(
  url: string,
  opts: {
    connections: number;
    seconds: number;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST';
    body?: string;
  },
): Promise<Load> {
  const result = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.seconds,
    headers: opts.headers,
    method: opts.method ?? 'GET',
    body: opts.body,
  });
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
