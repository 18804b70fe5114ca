// The signed, one-hour address of a reservation's single PUT (outside /v1, no credential needed).
import type { Keyring } from '../runtime/crypto.ts';
import { readToken, signToken } from '../storage/signedToken.ts';

/** What an upload token carries: the media id and the expiry (seconds since the epoch). */
export interface UploadToken {
  m: string;
  exp: number;
}

export const UPLOAD_TTL_SECONDS = 3600;

export function uploadAddress(keyring: Keyring, publicUrl: string, mediaId: string, now = Date.now()): { uploadUrl: string; expiresAt: string } {
  const exp = Math.ceil(now / 1000) + UPLOAD_TTL_SECONDS;
  const token = signToken<UploadToken>(keyring, 'upload', { m: mediaId, exp });
  return { uploadUrl: `${publicUrl}/uploads/${token}`, expiresAt: new Date(exp * 1000).toISOString() };
}

export function readUploadToken(keyring: Keyring, token: string): UploadToken | undefined {
  return readToken<UploadToken>(keyring, 'upload', token);
}
