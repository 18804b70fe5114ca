// Group commit: while one batch is being written, the calls that arrive wait and go together in the
// next. When thousands of posts fall due in the same second, one statement for a few hundred rows
// costs about what one row costs, and the database stops being the queue; when few arrive, a call
// waits only for the end of the current turn of the event loop.

/**
 * A function whose calls are handed to `run` in batches of at most `maxSize`, one batch at a time;
 * `run` answers one result per item, in order. If `run` throws, every call of that batch rejects
 * with its error.
 */
export function batcher<T, R>(run: (items: T[]) => Promise<R[]>, maxSize = 500): (item: T) => Promise<R> {
  const waiting: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  let busy = false;

  function flush(): void {
    if (busy || !waiting.length) return;
    busy = true;
    const batch = waiting.splice(0, maxSize);
    run(batch.map((w) => w.item))
      .then(
        (results) => batch.forEach((w, i) => w.resolve(results[i]!)),
        (err) => batch.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        busy = false;
        flush();
      });
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      // The first call of a batch lets the rest of this turn join it.
      if (!busy && waiting.length === 1) setImmediate(flush);
    });
}
