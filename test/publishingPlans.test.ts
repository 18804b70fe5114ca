// The worker's batch statements on SQLite find each post by its primary key. Each one joins a batch of
// post ids (json_each) to posts; with a condition on an indexed column beside it, SQLite's planner would
// rather walk that index (every queued post) and scan the batch for each: quadratic when thousands fall
// due at once. PostgreSQL's form names the ids as an array too, and hides the same columns from its indexes.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onSqliteConnection } from '../db/connect.ts';
import { startWorker } from '../worker/worker.ts';
import { call, seedWorkspace } from './support/harness.ts';
import { listeningHerald, sandboxAccount } from './support/network.ts';
import { until } from './support/waiting.ts';

describe('the worker on SQLite', () => {
  let env: Awaited<ReturnType<typeof listeningHerald>>;
  /** The batch statements, as the connection prepared them (through knex or directly). */
  const statements = new Set<string>();

  beforeAll(async () => {
    env = await listeningHerald('sqlite');
  });
  afterAll(() => env.close());

  it('reserves, starts, checkpoints and records live posts by primary key', async () => {
    const ws = await seedWorkspace(env, { plan: 'agency' });
    const account = await sandboxAccount(env, ws.workspaceId, 'threads');
    const later = {
      publishAt: DateTime.now().setZone('Europe/Berlin').plus({ days: 30 }).toFormat("yyyy-MM-dd'T'09:00"),
      timezone: 'Europe/Berlin',
    };
    for (const [i, when] of ['now', later, later, 'now'].entries()) {
      const res = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: { targets: { accountIds: [account.id] }, mediaIds: [], text: `Plan check ${i}`, when, confirm: true },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    await onSqliteConnection(env.services.db, (conn) => {
      const prepare = conn.prepare.bind(conn);
      conn.prepare = ((sql: string) => {
        if (/^update posts set .* from \(select/s.test(sql)) statements.add(sql);
        return prepare(sql);
      }) as typeof conn.prepare;
    });
    const worker = await startWorker(env.services);
    try {
      await until(
        () => env.services.db('posts').where({ status: 'live' }).count({ n: '*' }).first(),
        (row) => Number(row?.n) === 2,
      );
    } finally {
      await worker.stop();
    }

    const shapes = new Set([...statements].map((sql) => sql.slice(0, 40)));
    expect(shapes.size).toBeGreaterThanOrEqual(4);
    for (const sql of statements) {
      // The plan does not depend on the values: each parameter is bound to null.
      const nulls = (sql.match(/\?/g) ?? []).map(() => null);
      const plan: { detail: string }[] = await env.services.db.raw(`explain query plan ${sql}`, nulls);
      const details = plan.map((p) => p.detail);
      expect(details, sql).toContainEqual(
        expect.stringMatching(/^SEARCH posts USING (INDEX sqlite_autoindex_posts_1|PRIMARY KEY) \(id=\?\)$/),
      );
    }
  });
});
