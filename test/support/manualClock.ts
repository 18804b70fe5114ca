// A clock the test moves by hand, injected as Services.clock: it stands still until `set` (or
// `advance`) moves it, and a sleeper wakes once the clock reaches its time.
import type { Clock } from '../../runtime/clock.ts';

export type ManualClock = Clock & { set(ms: number): void; advance(ms: number): void };

export function manualClock(startMs: number): ManualClock {
  let nowMs = startMs;
  let sleepers: { untilMs: number; wake: () => void }[] = [];
  const set = (ms: number) => {
    nowMs = ms;
    const woken = sleepers.filter((s) => s.untilMs <= ms);
    sleepers = sleepers.filter((s) => s.untilMs > ms);
    for (const s of woken) s.wake();
  };
  return {
    now: () => nowMs,
    sleep: (ms) => new Promise((wake) => sleepers.push({ untilMs: nowMs + ms, wake })),
    set,
    advance: (ms) => set(nowMs + ms),
  };
}
