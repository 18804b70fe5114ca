// The few places where SQLite and PostgreSQL differ in what a row holds.

/** Real time, for what deliberately stays on it (see runtime/clock.ts); everything else stamps the injected clock's. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** count(*) is a number on SQLite and a bigint string on PostgreSQL. */
export function toCount(value: unknown): number {
  return Number(value ?? 0);
}

export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}
