// A Herald process whose database connection is cut while it starts (issue 28's chaos run: connections terminated
// every 5 s, PostgreSQL restarted) waits for the database with a clear log line and starts, instead of exiting.
// Real processes (bin/herald); each reaches PostgreSQL through a relay that cuts its first connections under their
// first query: the migration check's.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInstance, HERALD, stopProcess, type Instance } from './support/processes.ts';
import { tcpRelay, type TcpRelay } from './support/tcpRelay.ts';

/** Starts bin/herald with `args` and answers its output once it says `ready`, or once it exits. */
function started(args: string[], env: NodeJS.ProcessEnv, ready: string) {
  const child = spawn(HERALD, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const outcome = new Promise<{ ready: boolean; exitCode?: number | null }>((resolve) => {
    const read = (d: Buffer) => {
      output += d;
      if (output.includes(ready)) resolve({ ready: true });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => resolve({ ready: false, exitCode: code }));
  });
  return { child, outcome, output: () => output };
}

describe('processes starting while their database connection is cut, on postgres', () => {
  let instance: Instance;
  const relays: TcpRelay[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    instance = await createInstance('postgres', { WORKER: 'off' });
  });
  afterAll(async () => {
    for (const child of children) await stopProcess(child);
    for (const relay of relays) await relay.close();
    await instance.remove();
  });

  /** The instance's environment with its database reached through a relay that cuts the first `cuts` connections. */
  async function cutting(cuts: number): Promise<NodeJS.ProcessEnv> {
    const relay = await tcpRelay('127.0.0.1', 5432, { cutFirst: cuts });
    relays.push(relay);
    return { ...instance.env, DATABASE_URL: instance.env.DATABASE_URL!.replace(':5432/', `:${relay.port}/`) };
  }

  it.each([
    ['worker', 'publishing worker started'],
    ['serve', 'Herald is listening'],
  ])('herald %s waits for the database, saying so, instead of exiting', async (command, ready) => {
    const run = started([command], await cutting(2), ready);
    children.push(run.child);
    expect(await run.outcome, run.output()).toEqual({ ready: true });
    expect(run.output()).toContain('The database is out of reach while checking its migrations: trying again in');
  });
});
