// The port between posts and the job queue: every write that leaves a post queued schedules its
// publish job in the same transaction (so the job and the post never disagree), and any other
// write removes it. One job per post, keyed by the post id. Adapters live in worker/.
import type { Knex } from 'knex';

export interface JobScheduler {
  /** The post's job runs at `runAt` (ISO instant), replacing any earlier schedule of it. */
  schedule(trx: Knex, postId: string, runAt: string): Promise<void>;
  /** The post has no job any more (a job already running finds the post changed and stops). */
  unschedule(trx: Knex, postId: string): Promise<void>;
  /** Whether the post has a job waiting or running (the watchdog re-enqueues posts without one). */
  hasJob(postId: string): Promise<boolean>;
}
