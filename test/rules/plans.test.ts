// The spec's plan table as data, and the order in which plans are offered as upgrades.
import { describe, expect, it } from 'vitest';
import { isPlanName, nextPlanWith, PLANS, planOf } from '../../domain/plans.ts';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

describe('Plans: the table of the service specification', () => {
  it.each([
    ['free', { month: 0, year: 0 }, 2, 20, 2 * GB, 500 * MB, 1],
    ['creator', { month: 12, year: 115 }, 6, 200, 15 * GB, 2 * GB, 1],
    ['studio', { month: 29, year: 278 }, 20, 600, 50 * GB, 4 * GB, 3],
    ['agency', { month: 59, year: 566 }, 50, 2000, 150 * GB, 4 * GB, 10],
  ] as const)(
    '%s: price, accounts, posts per month, storage, max per file, members',
    (name, price, accounts, posts, storage, perFile, members) => {
      expect(PLANS[name]).toMatchObject({
        priceUsd: price,
        accounts,
        postsPerMonth: posts,
        storageBytes: storage,
        maxFileBytes: perFile,
        members,
      });
    },
  );

  it('Free: MCP read-only and no API; groups from Creator; webhooks from Studio', () => {
    expect(PLANS.free).toMatchObject({ api: false, mcp: 'read', groups: false, webhooks: false });
    expect(PLANS.creator).toMatchObject({ api: true, mcp: 'full', groups: true, webhooks: false });
    expect(PLANS.studio.webhooks).toBe(true);
  });

  it('an internal plan named owner exists and is never sold', () => {
    expect(isPlanName('owner')).toBe(true);
    expect(PLANS.owner.priceUsd).toBeNull();
    expect(nextPlanWith('agency', () => true)).toBeUndefined();
    expect(nextPlanWith('free', (p) => p.accounts > 50)).toBeUndefined();
  });

  it('offers the cheapest sold plan that allows what is asked', () => {
    expect(nextPlanWith('free', (p) => p.api)).toBe('creator');
    expect(nextPlanWith('creator', (p) => p.members > 1)).toBe('studio');
    expect(nextPlanWith('studio', (p) => p.postsPerMonth > 600)).toBe('agency');
  });

  it('knows only its own plan names', () => {
    expect(isPlanName('enterprise')).toBe(false);
    expect(isPlanName('toString')).toBe(false);
    expect(() => planOf('enterprise')).toThrow('unknown plan enterprise');
    expect(planOf('studio')).toBe(PLANS.studio);
  });
});
