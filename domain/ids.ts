// Opaque, unguessable ids prefixed by kind (acc_, pst_, ...), and the random secrets of keys and sessions.
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Bytes from the system's CSPRNG, drawn 4 KiB at a time and each handed out once: a call of randomBytes per id
 * cost more than the rest of writing an event (as crypto.randomUUID, which keeps a cache of its own).
 */
const pool = Buffer.alloc(4096);
let used = pool.length;
function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]!;
}

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    // 248 = 62 * 4: rejecting larger bytes keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export type IdKind =
  | 'ws'
  | 'usr'
  | 'key'
  | 'ses'
  | 'acc'
  | 'grp'
  | 'fld'
  | 'med'
  | 'pst'
  | 'bat'
  | 'evt'
  | 'wev'
  | 'att'
  | 'inv'
  | 'rst'
  | 'aud'
  | 'grt'
  | 'whk'
  | 'whd';

export function newId(kind: IdKind): string {
  return `${kind}_${randomBase62(16)}`;
}
