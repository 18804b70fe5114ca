// Opaque, unguessable ids prefixed by kind (acc_, pst_, ...), and the random secrets of keys and sessions.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 62 * 4: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
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
  | 'evt'
  | 'att'
  | 'inv'
  | 'rst'
  | 'aud'
  | 'grt';

export function newId(kind: IdKind): string {
  return `${kind}_${randomBase62(16)}`;
}
