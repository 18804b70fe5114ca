// Shared by the benchmarks: the process helpers of test/support/processes.ts, a `bin/herald` command's JSON answer,
// and a load run with autocannon.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
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

/** CPU time (user and system) a process has used so far, in ms (Linux /proc; 100 clock ticks a second). */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Every PostgreSQL server process on the machine, by pid (its backends come and go with connections). */
function postgresPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false; // ended meanwhile
      }
    });
}

/**
 * CPU used by named processes (and, with `postgres`, by all of PostgreSQL's) from now until the answer's
 * `end()` is called: where a measured run's time went, in ms. `bench` is this process (autocannon's load).
 */
export function cpuMeter(processes: { name: string; pid: number }[], postgres: boolean) {
  const pgStart = new Map(postgres ? postgresPids().map((pid) => [pid, cpuMs(pid)]) : []);
  const start = processes.map((p) => cpuMs(p.pid));
  const own = process.cpuUsage();
  return {
    end(): Record<string, number> {
      const used: Record<string, number> = {};
      processes.forEach((p, i) => (used[p.name] = cpuMs(p.pid) - start[i]!));
      const bench = process.cpuUsage(own);
      used.bench = Math.round((bench.user + bench.system) / 1000);
      if (postgres)
        used.postgresql = postgresPids().reduce((sum, pid) => {
          try {
            return sum + cpuMs(pid) - (pgStart.get(pid) ?? 0);
          } catch {
            return sum;
          }
        }, 0);
      return used;
    },
  };
}

/** CPU per unit of work, process by process: `sandbox 0.21 ms, worker 0.18 ms, ...`. */
export const cpuPer = (used: Record<string, number>, count: number) =>
  Object.entries(used)
    .map(([name, ms]) => `${name} ${(ms / Math.max(count, 1)).toFixed(3)} ms`)
    .join(', ');
