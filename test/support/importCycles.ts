// The project's own import graph, read from the sources, to find cycles. Static, type-only and dynamic imports all
// count: each ties the two modules' edits together, and a runtime cycle leaves one of them half-loaded.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// `from '…'` (imports and re-exports), `import('…')` and bare `import '…'`, relative specifiers only.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** A relative specifier to the file it names (a `.js` name may stand for a `.ts` source). */
function resolve(from: string, specifier: string): string | undefined {
  const target = path.resolve(path.dirname(from), specifier);
  const candidates = [target, target.replace(/\.js$/, '.ts')];
  return candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile());
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(SPECIFIER)].map((m) => resolve(file, m[1]!)).filter((f): f is string => f !== undefined);
}

/**
 * The groups of modules that import each other, directly or through others (strongly connected components of the
 * graph reachable from `entries`, by Tarjan's algorithm); each group as paths relative to the project, sorted.
 */
export function importCycles(entries: string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of importsOf(file)) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(path.relative(ROOT, member));
    } while (member !== file);
    if (group.length > 1 || importsOf(file).includes(file)) cycles.push(group.sort());
  };
  for (const entry of entries) {
    const file = path.join(ROOT, entry);
    if (!index.has(file)) visit(file);
  }
  return cycles;
}
