// Starts prepared attempts at their due time. Attempts are prepared ahead (reserved, loaded,
// credentials read, files signed) so that at the due second only the network calls remain; at most
// `concurrency` hold a slot at once, and the rest wait their turn in due order. An attempt may give its
// slot back before it ends (its network calls are over, only the record of their outcome remains).
import type { Clock } from '../runtime/clock.ts';

/** How often waiting attempts are compared with the clock (a controllable clock moves in jumps). */
const TICK_MS = 10;

export interface Launcher<T> {
  /** Runs `item` once the clock reaches `atMs`. */
  add(atMs: number, item: T): void;
  /** Resolves once every attempt whose time has come (by the clock now) has ended; later ones keep waiting. */
  idle(): Promise<void>;
  /** Stops starting attempts: waits for the running ones and answers those never started. */
  stop(): Promise<T[]>;
}

export function createLauncher<T>(
  clock: Clock,
  concurrency: number,
  run: (item: T, release: () => void) => Promise<void>,
): Launcher<T> {
  // Kept sorted by time; most attempts arrive in due order, so insertion is near the end.
  const waiting: { atMs: number; item: T }[] = [];
  const running = new Set<Promise<void>>();
  /** Slots held: running attempts that have not given theirs back. */
  let held = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  function tick(): void {
    const now = clock.now();
    while (!stopped && waiting.length && waiting[0]!.atMs <= now && held < concurrency) {
      const { item } = waiting.shift()!;
      held++;
      let holding = true;
      const release = () => {
        if (!holding) return;
        holding = false;
        held--;
        tick();
      };
      const execution = run(item, release).finally(() => {
        running.delete(execution);
        release();
      });
      running.add(execution);
    }
    if (!waiting.length && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  return {
    add(atMs, item) {
      let i = waiting.length;
      while (i > 0 && waiting[i - 1]!.atMs > atMs) i--;
      waiting.splice(i, 0, { atMs, item });
      timer ??= setInterval(tick, TICK_MS);
      if (atMs <= clock.now()) tick();
    },
    async idle() {
      tick();
      // A finished attempt ticks again (see above), so the running set also holds what was due behind it.
      while (running.size) await Promise.race(running);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      timer = undefined;
      await Promise.all(running);
      return waiting.splice(0).map((w) => w.item);
    },
  };
}
