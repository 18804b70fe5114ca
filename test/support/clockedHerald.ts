// `herald serve` or `herald worker` (the argument) as a child process whose clock the test moves: the clock is the
// wall clock plus an offset the test writes to TEST_CLOCK_FILE (read at start and every 20 ms), so every process of
// a run agrees on the time and a process started later starts at it. Webhook delivery looks for work every 100 ms.
// Started through processes.ts's startProcess with the `tsx` runner; SIGKILL it like any Herald process.
import fs from 'node:fs';
import type { Clock } from '../../runtime/clock.ts';
import { loadConfig } from '../../runtime/config.ts';
import { serve } from '../../server/main.ts';
import { runWorkerProcess } from '../../worker/main.ts';

const file = process.env.TEST_CLOCK_FILE!;
const readOffset = () => Number(fs.readFileSync(file, 'utf8'));
let offsetMs = readOffset();
setInterval(() => (offsetMs = readOffset()), 20).unref();

const clock: Clock = {
  now: () => Date.now() + offsetMs,
  // Only the watchdog and the publisher sleep, for short spans: real time is close enough.
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
// TEST_WATCH_EVERY_MS sets the watchdog's pace; TEST_HOLD_JOBS=on makes the worker hold every job it takes, before
// reserving the post, and TEST_HOLD_ATTEMPTS=on makes it reserve posts and never start them (no launch slots), so a
// test can kill it at that moment.
const options = {
  clock,
  worker: {
    webhookEveryMs: 100,
    watchEveryMs: process.env.TEST_WATCH_EVERY_MS ? Number(process.env.TEST_WATCH_EVERY_MS) : undefined,
    concurrency: process.env.TEST_HOLD_ATTEMPTS === 'on' ? 0 : undefined,
    jobTaken: process.env.TEST_HOLD_JOBS === 'on' ? () => new Promise<void>(() => undefined) : undefined,
  },
};
const run = process.argv[2] === 'worker' ? runWorkerProcess : serve;
process.exitCode = await run(loadConfig(), options);
