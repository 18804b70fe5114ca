// Waiting in tests for what the server reaches on its own (a row, an answer, a file, a log line): read until it holds,
// and fail past a bound instead of going on with whatever was read last. A test that controls the clock moves it
// instead of waiting for time to pass, and waits here only for what the move sets off.

/** How often `until` reads again. */
const READ_EVERY_MS = 50;

/**
 * Reads until `done` holds of the value read (by default: until the value is truthy) and answers that value; after
 * `timeoutMs` it throws, naming the last value read.
 */
export async function until<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean = Boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`waited ${timeoutMs} ms in vain; the last value read: ${JSON.stringify(value)?.slice(0, 2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, READ_EVERY_MS));
  }
}
