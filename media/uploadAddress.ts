// The signed, one-hour address of a reservation's single PUT (outside /v1, no credential needed).
import type { Keyring } from '../runtime/crypto.ts';
import { readToken, signToken } from '../storage/signedToken.ts';

/** What an upload token carries: the media id and the expiry (seconds since the epoch). */
export interface UploadToken {
  m: string;
  exp: number;
}

const UPLOAD_TTL_SECONDS = 3600;

/** When an upload reserved now expires: `exp` for the address, `expiresAt` for the answer and the row. */
export function uploadExpiry(now = Date.now()): { exp: number; expiresAt: string } {
  const exp = Math.ceil(now / 1000) + UPLOAD_TTL_SECONDS;
  return { exp, expiresAt: new Date(exp * 1000).toISOString() };
}

export function uploadAddress(keyring: Keyring, publicUrl: string, mediaId: string, exp: number): string {
  return `${publicUrl}/uploads/${signToken<UploadToken>(keyring, 'upload', { m: mediaId, exp })}`;
}

export function readUploadToken(keyring: Keyring, token: string): UploadToken | undefined {
  return readToken<UploadToken>(keyring, 'upload', token);
}
