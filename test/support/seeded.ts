// Seeded randomness for tests that draw many cases (the fuzz run, the chaos run's faults, a flaky receiver): one seed
// gives the same draws on every run, so a failure found once is found again.

/** mulberry32: a tiny generator of numbers in [0, 1) from a 32-bit seed, with helpers over it. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /** An integer in [0, n). */
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}

export type Random = ReturnType<typeof seeded>;
