// Shared by the benchmarks: the process helpers of test/support/processes.ts, and a load run with autocannon.
import autocannon from 'autocannon';

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
