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
    );
  }
  return value;
}

export function checkedEmail(value: unknown, field = 'email'): string {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw invalidRequest(`${field} must be an email address.`, 'Send it as name@example.com.');
  }
  return email;
}
