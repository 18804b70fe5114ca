// Prism (@stoplight/prism-cli) over the contract. Prism 5 ignores the path of `servers` and then matches
// no route at all (every request is "Selected route not found"), so it gets a copy whose paths carry
// the /v1 base themselves and that has no `servers`: the mock and the proxy answer at /v1/... like Herald.
//   npx tsx scripts/prism.ts mock [port]   a mock of the contract for integrators (`make mock`)
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
export const PRISM_BIN = path.join(ROOT, 'node_modules/.bin/prism');

type Contract = { paths: Record<string, unknown>; components: Record<string, Record<string, unknown>> } & Record<
  string,
  unknown
>;
const read = (name: string): Contract => JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', name), 'utf8'));
const under = (base: string, paths: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(paths).map(([p, item]) => [`${base}${p}`, item]));

/**
 * Writes the copy of generated/openapi.json that Prism reads; answers its path. With `withAuth` (the test proxy),
 * the session-only auth.json joins it under /auth: its components are openapi.json's or its own (bundled by name),
 * and each of its operations names its security, as the joined document's default is /v1's.
 */
export function prismContract(withAuth = false): string {
  const contract = read('openapi.json');
  delete contract.servers;
  contract.paths = under('/v1', contract.paths);
  if (withAuth) {
    const auth = read('auth.json');
    for (const item of Object.values(auth.paths) as Record<string, { security?: unknown }>[])
      for (const op of Object.values(item))
        if (typeof op === 'object' && op && 'responses' in op) op.security ??= auth.security;
    Object.assign(contract.paths, under('/auth', auth.paths));
    for (const [kind, all] of Object.entries(auth.components))
      contract.components[kind] = { ...all, ...contract.components[kind] };
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-prism-')), 'contract.json');
  fs.writeFileSync(file, JSON.stringify(contract));
  return file;
}

/** Starts `prism <args>` on the contract copy; resolves once it listens. */
export function startPrism(
  args: string[],
  opts: { log?: (line: string) => void; withAuth?: boolean } = {},
): Promise<ChildProcess> {
  const contract = prismContract(opts.withAuth);
  const child = spawn(PRISM_BIN, [args[0]!, contract, ...args.slice(1)], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk;
      opts.log?.(String(chunk));
      if (output.includes('Prism is listening')) resolve(child);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`prism exited (${code}) before listening:\n${output}`)));
  });
}

if (process.argv[1] === new URL(import.meta.url).pathname && process.argv[2] === 'mock') {
  const port = process.argv[3] ?? '4010';
  const prism = await startPrism(['mock', '-h', '127.0.0.1', '-p', port], {
    log: (line) => process.stdout.write(line),
  });
  process.stdout.write(
    `The mock answers at http://127.0.0.1:${port}/v1 (examples of the contract; send Prefer: code=404 to ` +
      `pick an answer).\n`,
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => prism.kill(signal));
}
