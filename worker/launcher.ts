// Starts prepared attempts at their due time. Attempts are prepared ahead (reserved, loaded,
// credentials read, files signed) so that at the due second only the network calls remain; at most
// `concurrency` hold a slot at once, and the rest wait their turn: of those past their time, the one ranked first
// (the post promised earliest: a retried post is not kept behind a burst due after it was first due). An attempt
// gives its slot back while it waits (for the network to process its file, or before trying a step again) and takes
// one again after, ahead of attempts not started; and for good once its network calls are over (only the record of
// their outcome remains). At most STARTED_PER_SLOT x `concurrency` attempts are started and not ended, waits
// included. Past their time, no more attempts wait than the launcher's room (room()): a backlog stays in the job
// queue for any worker to take, so a worker that dies strands a few hundred attempts until they are taken over, not
// the whole backlog, and the workers share it. Attempts not yet due are not counted: a burst is prepared ahead,
// whatever its size.
import type { Clock } from '../runtime/clock.ts';

/** How often waiting attempts are compared with the clock (a controllable clock moves in jumps). */
const TICK_MS = 10;
/** Attempts past their time that may wait for a slot: at least this many (or `concurrency`, if larger). */
export const LEAST_WAITING_ROOM = 100;
/**
 * Attempts started and not ended, per slot: those waiting on the network hold no slot, so a minute in which many
 * videos are processed does not hold back the posts due beside them; bounded, as a worker that dies strands them.
 */
export const STARTED_PER_SLOT = 3;

/** An attempt's hold on the launcher's concurrency. */
export interface Slot {
  /** Gives the slot back (again: nothing): the attempt waits, or its network calls are over. */
  release(): void;
  /** Takes a slot again after a wait, ahead of the attempts not yet started. */
  take(): Promise<void>;
}

export interface Launcher<T> {
  /** Runs `item` once the clock reaches `atMs`. */
  add(atMs: number, item: T): void;
  /**
   * Resolves true once fewer attempts past their time wait than the launcher's room (the larger of `concurrency`
   * and LEAST_WAITING_ROOM), false once it is closed: the caller then leaves its post to the job queue.
   */
  room(): Promise<boolean>;
  /** How many more attempts past their time could wait now (for taking over others' attempts). */
  freeRoom(): number;
  /** Refuses room from now on (a stopping worker takes no more posts); waiting callers get false. */
  close(): void;
  /** Resolves once every attempt whose time has come (by the clock now) has ended; later ones keep waiting. */
  idle(): Promise<void>;
  /** Stops starting attempts: waits for the running ones and answers those never started. */
  stop(): Promise<T[]>;
}

/** `rankOf` orders attempts past their time (lowest first); by default, their time. */
export function createLauncher<T>(
  clock: Clock,
  concurrency: number,
  run: (item: T, slot: Slot) => Promise<void>,
  rankOf?: (item: T) => number,
): Launcher<T> {
  // Not yet due, kept sorted by time; most attempts arrive in due order, so insertion is near the end.
  const waiting: { atMs: number; item: T }[] = [];
  /** Past their time, kept sorted by rank. */
  const ready: { rank: number; item: T }[] = [];
  const running = new Set<Promise<void>>();
  /** Slots held: running attempts that have not given theirs back. */
  let held = 0;
  /** Running attempts back from a wait, wanting a slot again: served before waiting ones start. */
  const retaking: (() => void)[] = [];
  const mostStarted = STARTED_PER_SLOT * concurrency;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let closed = false;
  const waitingRoom = Math.max(concurrency, LEAST_WAITING_ROOM);
  const wantingRoom: ((granted: boolean) => void)[] = [];
  /** How many of `waiting` are due: it is sorted, so they come first. */
  function dueCount(now: number): number {
    let due = 0;
    for (let high = waiting.length; due < high; ) {
      const mid = (due + high) >> 1;
      if (waiting[mid]!.atMs <= now) due = mid + 1;
      else high = mid;
    }
    return due;
  }
  /** Places left for attempts past their time. */
  function freeRoom(): number {
    return Math.max(0, waitingRoom - ready.length - dueCount(clock.now()));
  }
  function grantRoom(): void {
    let free = closed ? wantingRoom.length : freeRoom();
    while (wantingRoom.length && free-- > 0) wantingRoom.shift()!(!closed);
  }
  function close(): void {
    closed = true;
    grantRoom();
  }

  function tick(): void {
    while (retaking.length && held < concurrency) {
      held++;
      retaking.shift()!();
    }
    const due = dueCount(clock.now());
    if (due) {
      for (const { atMs, item } of waiting.splice(0, due)) ready.push({ rank: rankOf ? rankOf(item) : atMs, item });
      ready.sort((a, b) => a.rank - b.rank);
    }
    let started = 0;
    while (!stopped && ready.length && held < concurrency && running.size < mostStarted) {
      const { item } = ready.shift()!;
      started++;
      held++;
      let holding = true;
      const slot: Slot = {
        release() {
          if (!holding) return;
          holding = false;
          held--;
          tick();
        },
        take() {
          if (holding) return Promise.resolve();
          return new Promise<void>((resolve) => {
            retaking.push(() => {
              holding = true;
              resolve();
            });
            tick();
          });
        },
      };
      const execution = run(item, slot).finally(() => {
        running.delete(execution);
        // Its slot, if it still holds one, and its place among the started go to the next.
        if (holding) slot.release();
        else tick();
      });
      running.add(execution);
    }
    if (!waiting.length && timer) {
      clearInterval(timer);
      timer = undefined;
    }
    // Only a start frees a place. Granting on every tick would grant a place already granted to a caller that has
    // not yet added its attempt (it is still reserving its post), and let the room overflow.
    if (started) grantRoom();
  }

  return {
    add(atMs, item) {
      let i = waiting.length;
      while (i > 0 && waiting[i - 1]!.atMs > atMs) i--;
      waiting.splice(i, 0, { atMs, item });
      timer ??= setInterval(tick, TICK_MS);
      if (atMs <= clock.now()) tick();
    },
    room() {
      if (closed) return Promise.resolve(false);
      if (!wantingRoom.length && freeRoom() > 0) return Promise.resolve(true);
      return new Promise((resolve) => wantingRoom.push(resolve));
    },
    freeRoom,
    close,
    async idle() {
      tick();
      // A finished attempt ticks again (see above), so the running set also holds what was due behind it.
      while (running.size) await Promise.race(running);
    },
    async stop() {
      stopped = true;
      close();
      clearInterval(timer);
      timer = undefined;
      await Promise.all(running);
      return [...ready.splice(0), ...waiting.splice(0)].map((w) => w.item);
    },
  };
}
