// A list's position, handed to the client as opaque text (base64url JSON) and read back from it. The text is not
// signed, so what it decodes to is checked like any input; one holding a NUL character (which PostgreSQL cannot
// compare) is not a cursor this API wrote.
import { invalidRequest } from './errors.ts';

export function writeCursor(position: unknown): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position in a cursor, when `accept` recognises it (else undefined); otherwise invalid_request. */
export function readCursor<T>(text: string, accept: (position: unknown) => T | undefined): T {
  let position: T | undefined;
  try {
    const json = Buffer.from(text, 'base64url').toString('utf8');
    // JSON text holds a NUL only escaped, as \u0000.
    position = json.includes('\\u0000') ? undefined : accept(JSON.parse(json));
  } catch {
    position = undefined;
  }
  if (position !== undefined) return position;
  throw invalidRequest(
    '`cursor` is not a cursor this list returned (query parameter).',
    'Pass nextCursor from the previous page unchanged, or leave it out for the first page.',
  );
}
