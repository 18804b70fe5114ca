// The configuration reference (docs/guides/configuration.md, written by `make generate`) names every environment
// variable the code reads, and the defaults it states are the ones the code takes.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, VARIABLES } from '../runtime/config.ts';

const root = path.resolve(import.meta.dirname, '..');
const reference = fs.readFileSync(path.join(root, 'docs/guides/configuration.md'), 'utf8');

/** The folders of the programs an operator runs (bin/herald, the stdio MCP package). */
const SOURCES = ['runtime', 'server', 'db', 'cli', 'networks', 'worker', 'media', 'storage', 'mcp', 'handlers'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && /\.(ts|js)$/.test(entry.name) && !file.includes('node_modules') ? [file] : [];
  });
}

describe('the configuration reference', () => {
  it('names every variable the code reads from the environment, and the networks name in their connectors', () => {
    const read = new Set<string>();
    for (const file of SOURCES.flatMap(sourceFiles)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const [, name] of text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) read.add(name!);
      for (const [, name] of text.matchAll(/(?:id|secret|configIdEnv): '([A-Z][A-Z0-9]*_[A-Z0-9_]+)'/g))
        read.add(name!);
    }
    // The scan finds the reads it must: config.ts's, the secret's, the networks' and the stdio package's.
    for (const name of ['PORT', 'HERALD_SECRET', 'TIKTOK_CLIENT_KEY', 'FACEBOOK_CONFIG_ID', 'HERALD_API_KEY'])
      expect(read).toContain(name);
    for (const name of read) expect(reference, name).toContain(`| \`${name}\` |`);
  });

  it('states as a default the value that, set, changes nothing', () => {
    let checked = 0;
    for (const [name, { default: stated }] of Object.entries(VARIABLES)) {
      const literal = /^`([^`]+)`$/.exec(stated)?.[1];
      if (!literal || literal.includes('$') || name.startsWith('HERALD_API_')) continue;
      // The S3 variables are read only with S3 storage.
      const base = name.startsWith('S3_') ? { STORAGE: 's3', S3_BUCKET: 'media' } : {};
      expect(loadConfig({ ...base, [name]: literal }), name).toEqual(loadConfig(base));
      checked++;
    }
    expect(checked).toBeGreaterThan(15);
  });
});
