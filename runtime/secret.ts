// HERALD_SECRET signs upload addresses and sessions and encrypts network tokens at rest.
// Without the variable, one is created in DATA_DIR on first start and reused afterwards.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function loadSecret(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.HERALD_SECRET) {
    if (env.HERALD_SECRET.length < 32) throw new Error('HERALD_SECRET must be at least 32 characters');
    return env.HERALD_SECRET;
  }
  const file = path.join(dataDir, 'secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw err;
  }
}
