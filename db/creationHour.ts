// The workspace's hour of post creations (the spec's 60 creation requests an hour, all keys and people together):
// what the creation guard decides from, and what Settings shows of it.
import type { Knex } from 'knex';
import type { HourOfCreations } from '../domain/quotas.ts';
import { toCount } from './rows.ts';

/**
 * Creation requests since `now` minus an hour (post_creations, one row each), and who made them: the requests are
 * the batches of posts created in that hour, by API key or MCP client, or by a person in the dashboard. A request
 * whose posts were all deleted since is counted, but by no one.
 */
export async function hourOfCreations(q: Knex, wsId: string, now: string): Promise<HourOfCreations> {
  const hourAgo = new Date(Date.parse(now) - 3600_000).toISOString();
  const recent = await q('post_creations')
    .where('workspace_id', wsId)
    .where('at', '>', hourAgo)
    .count({ n: '*' })
    .min({ oldest: 'at' })
    .first();
  const batches: { created_via: string; n: number | string }[] = await q('posts')
    .where('workspace_id', wsId)
    .where('created_at', '>', hourAgo)
    .groupBy('created_via')
    .select('created_via')
    .countDistinct({ n: 'batch_id' });
  const by = (via: string[]) =>
    batches.filter((b) => via.includes(b.created_via)).reduce((sum, b) => sum + toCount(b.n), 0);
  return {
    createdLastHour: toCount(recent?.n),
    oldestLastHour: (recent?.oldest as string | null | undefined) ?? null,
    spentBy: { keys: by(['api', 'mcp']), people: by(['dashboard']) },
  };
}
