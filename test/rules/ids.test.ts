// Opaque ids: a kind prefix and 16 unguessable base62 characters.
import { describe, expect, it } from 'vitest';
import { newId, randomBase62 } from '../../domain/ids.ts';

describe('ids are opaque, prefixed by kind', () => {
  it('writes the kind, an underscore and 16 base62 characters', () => {
    for (const kind of ['acc', 'pst', 'med', 'ws'] as const)
      expect(newId(kind)).toMatch(new RegExp(`^${kind}_[0-9A-Za-z]{16}$`));
  });
  it('gives secrets of the asked length from the whole alphabet, never the same twice', () => {
    const secrets = Array.from({ length: 200 }, () => randomBase62(40));
    for (const s of secrets) expect(s).toMatch(/^[0-9A-Za-z]{40}$/);
    expect(new Set(secrets).size).toBe(200);
    expect(new Set(secrets.join('')).size).toBe(62);
    expect(randomBase62(0)).toBe('');
  });
  it('draws every character about equally often, across refills of its random pool', () => {
    const counts = new Map<string, number>();
    for (const c of randomBase62(62_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    // 1,000 expected each, with a standard deviation of about 31.
    for (const n of counts.values()) expect(n).toBeGreaterThan(850);
    for (const n of counts.values()) expect(n).toBeLessThan(1150);
  });
});
