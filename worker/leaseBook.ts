// The lease bookkeeping of a worker: the posts it holds in memory, and whether an attempt left a lease behind.
import { isDatabaseUnavailable } from '../db/connect.ts';
import type { Logger } from '../runtime/logger.ts';

export function leaseBook(logger: Logger) {
  /**
   * Posts this worker holds in memory (being reserved or taken over, prepared, running), counted: a lease of this
   * worker's on any other post was left behind by an attempt that could not record its end.
   */
  const inHand = new Map<string, number>();
  /** Set when an attempt ended without recording its end: the watchdog's next pass looks for stranded leases. */
  let stranded = false;
  return {
    hold(postIds: string[]): void {
      for (const id of postIds) inHand.set(id, (inHand.get(id) ?? 0) + 1);
    },
    letGo(postId: string): void {
      const n = (inHand.get(postId) ?? 1) - 1;
      if (n > 0) inHand.set(postId, n);
      else inHand.delete(postId);
    },
    holds: (postId: string): boolean => inHand.has(postId),
    /** An attempt that stopped on an error it could not record: its lease stays, for adoptStranded to take up. */
    strand(postId: string, err: unknown): void {
      stranded = true;
      if (isDatabaseUnavailable(err))
        logger.warn(
          { postId, err: (err as Error).message },
          'the database went out of reach during a publish attempt: it is settled again once the database answers',
        );
      else logger.error({ err, postId }, 'publish attempt failed; it is settled again by the watchdog');
    },
    /** A write whose answer was lost (a reservation, a takeover) may have been made: a lease may be stranded. */
    markStranded(): void {
      stranded = true;
    },
    /** Whether a lease may be stranded since the last call, which clears it (a failed pass marks it again). */
    takeStranded(): boolean {
      const all = stranded;
      stranded = false;
      return all;
    },
  };
}
