// The few places where SQLite and PostgreSQL differ in what a row holds.

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
