// No import cycles among Herald's own modules: the arrows point one way (design.md). Type imports and dynamic
// import() count too (test/support/importCycles.ts says why).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles } from './support/importCycles.ts';

const SOURCE_FOLDERS = [
  'billing',
  'cli',
  'db',
  'domain',
  'handlers',
  'mcp',
  'media',
  'networks',
  'runtime',
  'server',
  'signin',
  'storage',
  'worker',
];
const ROOT = path.resolve(import.meta.dirname, '..');

function sourceFiles(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.parentPath.includes('node_modules'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

describe('imports', () => {
  it('form no cycle among Herald’s own modules', () => {
    const files = SOURCE_FOLDERS.flatMap(sourceFiles);
    expect(files).toContain(path.join('signin', 'passwordSignIn.ts'));
    expect(importCycles(files)).toEqual([]);
  });
});
