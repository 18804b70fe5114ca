// The port between posts and the job queue: every write that leaves a post queued schedules its
// publish job in the same transaction (so the job and the post never disagree), and any other
// write removes it. One job per post, keyed by the post id. Adapters live in worker/.
import type { Knex } from 'knex';

export interface JobScheduler {
  /**
   * The post is due at `dueAt` (ISO instant): its job runs
   * PREPARE_AHEAD_MS before, replacing any earlier schedule of it.
   */
  schedule(trx: Knex, postId: string, dueAt: string): Promise<void>;
  /** The post has no job any more (a job already running finds the post changed and stops). */
  unschedule(trx: Knex, postId: string): Promise<void>;
  /**
   * Of these posts, those with no job waiting and none taken since `takenSince` (ISO instant): the watchdog
   * enqueues them again. A job taken earlier whose post is still unreserved died with the worker that took it.
   */
  postsWithoutJob(postIds: string[], takenSince: string): Promise<string[]>;
}

/**
 * A post's job runs this long before the post is due: the worker reserves and prepares the attempt
 * (reads the post, its account's credentials and its files) and starts it at the due second, so a
 * minute in which thousands of posts fall due is not spent reading them.
 */
export const PREPARE_AHEAD_MS = 30_000;
