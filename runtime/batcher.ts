// Group commit: calls made in the same turn of the event loop run as one batch. When thousands of
// posts fall due in the same second, one statement for a few hundred rows costs about what one row
// costs, and the database stops being the queue.

/**
 * A function whose calls are collected until the current turn ends (or `maxSize` are waiting) and
 * handed to `run` together; `run` answers one result per item, in order. If `run` throws, every call
 * of that batch rejects with its error.
 */
export function batcher<T, R>(run: (items: T[]) => Promise<R[]>, maxSize = 500): (item: T) => Promise<R> {
  let waiting: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];

  function flush(): void {
    const batch = waiting;
    waiting = [];
    run(batch.map((w) => w.item)).then(
      (results) => batch.forEach((w, i) => w.resolve(results[i]!)),
      (err) => batch.forEach((w) => w.reject(err)),
    );
  }

  return (item) => new Promise<R>((resolve, reject) => {
    if (waiting.length === 0) setImmediate(() => waiting.length && flush());
    waiting.push({ item, resolve, reject });
    if (waiting.length >= maxSize) flush();
  });
}
