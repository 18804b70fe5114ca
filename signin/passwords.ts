// What a new password and an email address must be, for every route that takes one, and how a password is kept.
import { hash } from '@node-rs/argon2';
import { invalidRequest } from '../domain/errors.ts';

/** The argon2id hash stored for a password (the library's defaults). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export const PASSWORD_MIN = 10;
const PASSWORD_MAX = 200;

export function checkedPassword(value: unknown, field = 'password'): string {
  if (typeof value !== 'string' || value.length < PASSWORD_MIN || value.length > PASSWORD_MAX) {
    throw invalidRequest(
      `${field} must be a string of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`,
      'Choose a longer password; a few unrelated words make a good one.',
      { field },
    );
  }
  return value;
}

/**
 * name@host.tld: no spaces, one @, a dot inside the host. The length is checked first, and the host's first dot
 * is the one tried: `[^\s@]+\.[^\s@]+$` tried every dot, each time scanning to the end ("a@" + "a."×150,000 +
 * "@" took 78 s).
 */
export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/.test(text);
}

export function checkedEmail(value: unknown, field = 'email'): string {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!isEmailAddress(email)) {
    throw invalidRequest(`${field} must be an email address.`, 'Send it as name@example.com.', { field });
  }
  return email;
}
