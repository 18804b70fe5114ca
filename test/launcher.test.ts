// The launcher that starts prepared attempts at their due time: due order, the concurrency limit, and a slot
// given back before the attempt ends (its network calls are over, only its record remains to be written) or while it
// waits on the network, taken again after.
import { describe, expect, it } from 'vitest';
import { createLauncher, STARTED_PER_SLOT, type Slot } from '../worker/launcher.ts';
import { manualClock } from './support/manualClock.ts';

/** An attempt the test finishes by hand: `slot` is its hold on the concurrency, `finish` ends it. */
interface Attempt {
  name: string;
  /** When the post was promised: attempts past their time start in this order. */
  promisedMs?: number;
  slot?: Slot;
  finish?: () => void;
}

function launcherOf(concurrency: number, rankOf?: (attempt: Attempt) => number) {
  const clock = manualClock(1_000);
  const started: string[] = [];
  const running = new Map<string, Attempt>();
  const launcher = createLauncher<Attempt>(
    clock,
    concurrency,
    (attempt, slot) =>
      new Promise<void>((finish) => {
        started.push(attempt.name);
        running.set(attempt.name, Object.assign(attempt, { slot, finish }));
      }),
    rankOf,
  );
  const finish = async (name: string) => {
    running.get(name)!.finish!();
    running.delete(name);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { clock, launcher, started, running, finish };
}

describe('the launcher', () => {
  it('starts attempts in due order once the clock reaches them', async () => {
    const { clock, launcher, started, finish } = launcherOf(10);
    launcher.add(1_300, { name: 'late' });
    launcher.add(1_100, { name: 'early' });
    launcher.add(5_000, { name: 'tomorrow' });
    launcher.add(1_000, { name: 'now' });
    expect(started).toEqual(['now']);
    clock.set(1_300);
    // The launcher compares waiting attempts with the clock every few milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toEqual(['now', 'early', 'late']);
    for (const name of started) await finish(name);
    expect((await launcher.stop()).map((a) => a.name)).toEqual(['tomorrow']);
  });

  it('of the attempts past their time, starts the one ranked first: a retry promised before a burst', async () => {
    const { clock, launcher, started, finish } = launcherOf(1, (a) => a.promisedMs!);
    launcher.add(1_000, { name: 'running', promisedMs: 1_000 });
    // A burst due at 1 100, and a post promised for 900 whose retry is due at 1 200.
    launcher.add(1_100, { name: 'burst a', promisedMs: 1_100 });
    launcher.add(1_100, { name: 'burst b', promisedMs: 1_100 });
    launcher.add(1_200, { name: 'retried', promisedMs: 900 });
    clock.set(1_300);
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const name of ['running', 'retried', 'burst a']) await finish(name);
    expect(started).toEqual(['running', 'retried', 'burst a', 'burst b']);
    await finish('burst b');
    await launcher.idle();
  });

  it('runs at most `concurrency` attempts holding a slot; the next starts when one ends', async () => {
    const { launcher, started, finish } = launcherOf(2);
    for (const name of ['a', 'b', 'c', 'd']) launcher.add(1_000, { name });
    expect(started).toEqual(['a', 'b']);
    await finish('a');
    expect(started).toEqual(['a', 'b', 'c']);
    await finish('b');
    await finish('c');
    await finish('d');
    await launcher.idle();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
  });

  it('starts the next attempt when one gives its slot back, and still waits for that one to end', async () => {
    const { launcher, started, running, finish } = launcherOf(1);
    launcher.add(1_000, { name: 'a' });
    launcher.add(1_000, { name: 'b' });
    expect(started).toEqual(['a']);
    running.get('a')!.slot!.release();
    // Given back twice (by the attempt, then by its end) it still counts once.
    running.get('a')!.slot!.release();
    expect(started).toEqual(['a', 'b']);
    let idle = false;
    const waiting = launcher.idle().then(() => (idle = true));
    await finish('b');
    expect(idle).toBe(false);
    await finish('a');
    await waiting;
    expect(idle).toBe(true);
  });

  it('lets another attempt run while one waits, and gives the slot back to the waiting one first', async () => {
    const { launcher, started, running, finish } = launcherOf(1);
    for (const name of ['a', 'b', 'c']) launcher.add(1_000, { name });
    // `a` waits for the network to process its file: `b` takes its slot meanwhile.
    running.get('a')!.slot!.release();
    expect(started).toEqual(['a', 'b']);
    let back = false;
    const retaken = running
      .get('a')!
      .slot!.take()
      .then(() => (back = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(back).toBe(false);
    // `b` ends: its slot goes to `a`, back from its wait, not to `c`, which was never started.
    await finish('b');
    await retaken;
    expect(started).toEqual(['a', 'b']);
    // Taking a slot it holds is nothing; its end lets `c` start.
    await running.get('a')!.slot!.take();
    await finish('a');
    expect(started).toEqual(['a', 'b', 'c']);
    await finish('c');
    await launcher.idle();
  });

  it(`starts at most ${STARTED_PER_SLOT} attempts per slot, those waiting included`, async () => {
    const { launcher, started, running, finish } = launcherOf(2);
    const most = STARTED_PER_SLOT * 2;
    for (let i = 0; i <= most; i++) launcher.add(1_000, { name: `post ${i}` });
    // Each started attempt waits at once, giving its slot to the next, until as many are started as allowed.
    for (let i = 0; i < most; i++) running.get(`post ${i}`)!.slot!.release();
    expect(started).toHaveLength(most);
    // One ends: the last one starts.
    await finish('post 0');
    expect(started).toHaveLength(most + 1);
    for (const name of [...running.keys()]) await finish(name);
    await launcher.idle();
  });

  it('on stop, waits for the running attempts and answers those never started', async () => {
    const { launcher, started, finish } = launcherOf(1);
    launcher.add(1_000, { name: 'a' });
    launcher.add(1_000, { name: 'b' });
    let unstarted: string[] | undefined;
    const stopping = launcher.stop().then((items) => (unstarted = items.map((i) => i.name)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(unstarted).toBeUndefined();
    await finish('a');
    await stopping;
    expect(unstarted).toEqual(['b']);
    expect(started).toEqual(['a']);
  });

  it('has room while fewer than 100 attempts past their time wait (or `concurrency`); closed, it refuses', async () => {
    const { launcher, started, finish } = launcherOf(1);
    launcher.add(1_000, { name: 'running' });
    // Attempts not yet due do not count: a burst is prepared ahead whatever its size.
    for (let i = 0; i < 300; i++) launcher.add(60_000, { name: `tomorrow ${i}` });
    for (let i = 0; i < 99; i++) launcher.add(1_000, { name: `waiting ${i}` });
    expect(launcher.freeRoom()).toBe(1);
    expect(await launcher.room()).toBe(true);
    launcher.add(1_000, { name: 'waiting 99' });
    // A full room: the caller waits until an attempt starts, in the order callers came.
    const answers: string[] = [];
    const first = launcher.room().then((granted) => answers.push(`first ${granted}`));
    const second = launcher.room().then((granted) => answers.push(`second ${granted}`));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answers).toEqual([]);
    await finish('running');
    expect(started).toEqual(['running', 'waiting 0']);
    await first;
    // The first caller has room but has not added its attempt yet (it is reserving its post): the launcher's own
    // ticks meanwhile give the second caller nothing.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answers).toEqual(['first true']);
    launcher.add(1_000, { name: 'waiting 100' });
    launcher.close();
    await second;
    expect(answers).toEqual(['first true', 'second false']);
    expect(await launcher.room()).toBe(false);
  });
});
