// Posts that failed for their account's token or permissions, queued again when the account is reconnected.
import type { Knex } from 'knex';
import { storedStatus, systemMove } from '../domain/postStates.ts';
import type { Platform } from '../networks/rules.ts';
import type { SentAgain } from '../domain/sentAgain.ts';
import type { JobScheduler } from './jobs.ts';
import { insertPostEvents } from './postEvents.ts';

/**
 * The spec's promise for token and permission failures, "the post retries once the token works": when
 * accounts are reconnected, their posts that failed for that reason (and that nobody retried, cancelled
 * or rescheduled since: those are not `failed` any more) are queued again, at their time or now if it
 * passed, each with a `retried` event. Answers which, each with the time it was meant for.
 */
export async function requeueAfterReconnect(
  trx: Knex,
  workspaceId: string,
  platform: Platform,
  accountIds: string[],
  jobs: JobScheduler | undefined,
  now: string,
): Promise<SentAgain[]> {
  if (!accountIds.length) return [];
  const { from, to } = systemMove('reconnect');
  const failed = await trx('posts')
    .where({ workspace_id: workspaceId })
    .whereIn('status', from)
    .whereIn('account_id', accountIds)
    .whereIn('error_code', [`${platform}_token_rejected`, `${platform}_permission_missing`])
    .select('id', 'status', 'publish_at', 'error_code');
  for (const post of failed) {
    const dueAt = post.publish_at && post.publish_at > now ? post.publish_at : now;
    await trx('posts')
      .where({ id: post.id, status: post.status })
      .update({
        status: storedStatus(to),
        publish_at: dueAt,
        due_at: dueAt,
        worker_retries: 0,
        error_code: null,
        error_message: null,
        error_hint: null,
        error_network_message: null,
        updated_at: now,
      });
    await insertPostEvents(
      trx,
      workspaceId,
      post.id,
      [
        {
          kind: 'retried',
          publishAt: dueAt,
          message: `Sent again by itself: the account was reconnected after the post failed with ${post.error_code}.`,
        },
      ],
      now,
    );
    await jobs?.schedule(trx, post.id, dueAt);
  }
  return failed.map((post) => ({ postId: post.id as string, publishAt: (post.publish_at as string | null) ?? null }));
}
