// Tokens of the links sent by mail (invitations, password resets): `<id>.<HMAC of the id>`. Only the
// server can make one, nothing secret is stored, and the row named by the id says whether it was used.
import type { Keyring } from '../runtime/crypto.ts';

type LinkPurpose = 'invites' | 'password-resets';

export function linkToken(keyring: Keyring, purpose: LinkPurpose, id: string): string {
  return `${id}.${keyring.sign(id, purpose)}`;
}

/** The id a token was made for, or undefined when it is malformed or its signature is wrong. */
export function idFromToken(keyring: Keyring, purpose: LinkPurpose, token: unknown): string | undefined {
  if (typeof token !== 'string' || token.length > 200) return undefined;
  const [id, signature, ...rest] = token.split('.');
  return id && signature && !rest.length && keyring.verify(id, signature, purpose) ? id : undefined;
}
