// Exactly once under crashes, at a small size: posts published while 20% of network calls fail
// temporarily and the worker is killed with SIGKILL every few seconds (bench/crash runs it at 1,000).
import { describe, expect, it } from 'vitest';
import { crashRun, killedWriteBurst } from './support/crashRun.ts';
import { DATABASES } from './support/harness.ts';

describe.each(DATABASES)('publishing through worker crashes on %s', (kind) => {
  it('publishes every post exactly once, none lost, none stuck past the watchdog', async () => {
    const result = await crashRun(kind, 40);
    expect(result.kills).toBeGreaterThan(0);
    expect(result.duplicates).toBe(0);
    expect(result).toMatchObject({ posts: 40, live: 40, failed: 0, queued: 0 });
  }, 240_000);
});

describe('SQLite killed in a burst of writes', () => {
  it('passes integrity_check and keeps every post whose creation was answered', async () => {
    const result = await killedWriteBurst();
    expect(result.acknowledged).toBeGreaterThanOrEqual(60);
    expect(result).toMatchObject({ missing: 0, integrity: 'ok' });
  }, 60_000);
});
