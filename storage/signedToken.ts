// Self-contained, expiring capabilities for addresses that carry no credential: the upload PUT and
// the public address of a file's bytes. A token is `<base64url JSON>.<HMAC>`; the label keeps a
// token made for one kind of address from being accepted by another.
import type { Keyring } from '../runtime/crypto.ts';

export type TokenLabel = 'upload' | 'media-file';

interface Expiring {
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export function signToken<T extends Expiring>(keyring: Keyring, label: TokenLabel, payload: T): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${keyring.sign(`${label}.${body}`, 'uploads')}`;
}

/** The payload of a token signed for `label`, or undefined when it was not (tampered, truncated, other label). */
export function readToken<T extends Expiring>(keyring: Keyring, label: TokenLabel, token: string): T | undefined {
  const [body, signature, ...rest] = token.split('.');
  if (!body || !signature || rest.length || !keyring.verify(`${label}.${body}`, signature, 'uploads')) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
    return typeof payload?.exp === 'number' ? payload : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Expiry of an address valid for at least `ttlSeconds`, rounded up to the quarter hour so that the
 * same file gets the same address for a while (browsers and networks can cache it).
 */
export function roundedExpiry(ttlSeconds: number, nowMs = Date.now()): number {
  return Math.ceil((nowMs / 1000 + ttlSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
}

export const EXPIRY_STEP_SECONDS = 900;
