// Herald's version, from package.json: shown at start-up, by the doctor and in backup manifests.
import fs from 'node:fs';

export const HERALD_VERSION: string = JSON.parse(
  fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;
