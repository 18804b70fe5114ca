// The workspace lock on PostgreSQL (db/locks.ts) against the publishing worker's writes: a cancel beside them is
// answered, never a 500 from a deadlock between the two.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPostEvents } from '../db/postEvents.ts';
import { isoNow } from '../runtime/clock.ts';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { postingCalls } from './support/network.ts';
import { until } from './support/waiting.ts';

describe.runIf(DATABASES.includes('postgres'))('the workspace lock on postgres', () => {
  let env: TestEnv;
  let ws: Seeded;
  let accountId: string;

  beforeAll(async () => {
    env = await startHerald('postgres');
    ws = await seedWorkspace(env);
    accountId = await addAccount(env, ws.workspaceId, 'threads', 'Threads');
  });
  afterAll(() => env?.close());

  /** Backends of this database waiting on a lock. */
  const waiting = async () =>
    (await env.services.db.raw(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )) as { rows: { n: number }[] };

  it("lets a worker record a post's end while a request holding the lock waits for that post", async () => {
    const { db } = env.services;
    const { id: postId } = await postingCalls(env, ws).postLater(accountId, 'Hello', 3);

    // A worker's transaction, as markFailed and retryLater write: the post's row first...
    const worker = await db.transaction();
    await worker('posts')
      .where({ id: postId })
      .update({ updated_at: isoNow(env.services.clock) });
    // ...while a cancel takes the workspace lock and waits for that row...
    const cancel = call(env, 'post', `/v1/posts/${postId}/cancel`, { key: ws.writeKey, body: { confirm: true } });
    await until(waiting, (found) => found.rows[0]!.n > 0);
    // ...then the timeline event, whose foreign key to the workspace a FOR UPDATE lock held by the cancel blocks.
    const recorded = insertPostEvents(worker, ws.workspaceId, postId, [{ kind: 'retried' }], isoNow(env.services.clock))
      .then(() => worker.commit())
      .then(
        () => 'recorded',
        (err: Error & { code?: string }) => `${err.code}: ${err.message}`,
      );

    expect(await recorded).toBe('recorded');
    const answer = await cancel;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.status).toBe('draft');
  });
});
