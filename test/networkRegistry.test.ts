// The network registry against the contract, and the worker's import path: a worker process loads the
// connectors but never express nor a simulator (those are loaded only where the sandbox is served).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NETWORKS, PLATFORMS } from '../networks/index.ts';
import { SETTINGS_SCHEMAS } from '../networks/settingsCheck.ts';
import { loadContract } from '../runtime/contract.ts';

const root = path.resolve(import.meta.dirname, '..');

/** The package files a fresh Node process has loaded after importing `entry` (through tsx, as bin/herald runs). */
function loadedPackages(entry: string): string[] {
  const script = `
    const { createRequire } = await import('node:module');
    await import(${JSON.stringify(path.join(root, entry))});
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    process.stdout.write(JSON.stringify(loaded));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[];
}

describe('the network registry', () => {
  it('has one module for each network of the contract, whose settings and overrides name the same networks', () => {
    type Schema = { enum?: string[]; properties?: Record<string, unknown> };
    const schemas = (loadContract().components as { schemas: Record<string, Schema> }).schemas;
    expect(PLATFORMS).toEqual(schemas.Platform!.enum);
    expect(Object.keys(schemas.PerPlatform!.properties!)).toEqual(PLATFORMS);
    expect(Object.keys(schemas.Overrides!.properties!)).toEqual(PLATFORMS);
    for (const platform of PLATFORMS) {
      expect(NETWORKS[platform].rules.platform).toBe(platform);
      expect(schemas[SETTINGS_SCHEMAS[platform]], platform).toBeDefined();
    }
  });

  it('the worker path loads no express and no simulator; the server path does', () => {
    const worker = loadedPackages('worker/main.ts');
    expect(worker.some((file) => file.includes(`${path.sep}node_modules${path.sep}graphile-worker${path.sep}`))).toBe(
      true,
    );
    expect(worker.filter((file) => file.includes(`${path.sep}node_modules${path.sep}express${path.sep}`))).toEqual([]);
    const server = loadedPackages('server/app.ts');
    expect(server.some((file) => file.includes(`${path.sep}node_modules${path.sep}express${path.sep}`))).toBe(true);
  });
});
