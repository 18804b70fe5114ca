// `make lint` step: no line of code over 120 characters. Biome's formatter wraps code, but not the strings,
// comments and template literals that only a person can break, so this finds those.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const MAX = 120;
const CODE = /\.(ts|tsx|js|mjs|cjs|json|jsonc|css|html|sh)$|(^|\/)Makefile$|^bin\/herald$|^\.ci\/run$/;
const SKIP = /^generated\/|(^|\/)package-lock\.json$/;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => CODE.test(file) && !SKIP.test(file) && fs.existsSync(file));

let long = 0;
for (const file of files) {
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const width = [...line].length;
      if (width <= MAX) return;
      long += 1;
      console.log(`${file}:${i + 1}: ${width} characters`);
    });
}
if (long > 0) {
  console.error(`${long} line(s) over ${MAX} characters: wrap them (Biome's formatter wraps code, not text).`);
  process.exit(1);
}
