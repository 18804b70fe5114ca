// The production build: compiles cli/herald.ts and everything it imports into dist/ (one ESM chunk per lazily
// imported command), with node_modules left as imports. Plain JavaScript so that it runs without tsx.
// Files read at run time are found with new URL('../x', import.meta.url) from modules one folder deep, which
// resolves to the same place from dist/. dist/sources lists the bundled files; bin/herald runs dist/ only while
// none of them is newer than dist/stamp.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');

function fresh() {
  try {
    const built = fs.statSync(path.join(dist, 'stamp')).mtimeMs;
    const sources = fs.readFileSync(path.join(dist, 'sources'), 'utf8').split('\n').filter(Boolean);
    return sources.every((file) => fs.statSync(path.join(root, file)).mtimeMs < built);
  } catch {
    return false;
  }
}

if (!fresh()) {
  // The stamp is taken before compiling, so an edit made during the build leaves dist/ stale.
  const stamp = path.join(root, `.dist-stamp-${process.pid}`);
  fs.writeFileSync(stamp, '');
  fs.rmSync(dist, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['cli/herald.ts'],
    outdir: 'dist',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
  });
  fs.writeFileSync(path.join(dist, 'sources'), Object.keys(result.metafile.inputs).join('\n') + '\n');
  fs.renameSync(stamp, path.join(dist, 'stamp'));
  process.stdout.write(`dist/: ${Object.keys(result.metafile.inputs).length} sources compiled\n`);
}
