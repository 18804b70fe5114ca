// No import cycles among Herald's own modules: the arrows point one way (design.md), type imports included, since
// a cycle of types still ties two modules into one that cannot be read, tested or moved alone. Static imports and
// `export … from` only: a dynamic import() is a deliberate late edge.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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

/** Each module's relative static imports, as paths from the repository root. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of SOURCE_FOLDERS.flatMap(sourceFiles)) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const targets = [...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/gms)].map((m) =>
      path.normalize(path.join(path.dirname(file), m[1]!)),
    );
    graph.set(file, targets);
  }
  return graph;
}

/** One cycle per strongly tied group, as "a -> b -> a" (a depth-first walk finds a back edge in each). */
function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    trail.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') found.push([...trail.slice(trail.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    trail.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('imports', () => {
  it('form no cycle among Herald’s own modules', () => {
    const graph = importGraph();
    expect(graph.get(path.join('server', 'signIn.ts'))).toBeDefined();
    expect(cycles(graph)).toEqual([]);
  });
});
