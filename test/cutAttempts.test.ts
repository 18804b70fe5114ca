// A publish attempt cut midway (issue 28's chaos run) is settled from what the network says: live if the post is
// there, sent again if it is not; never failed as "outcome unknown", never published twice. Cuts of the database
// connection are real: a trigger on `posts` terminates the worker's own connection in the middle of the statement
// that records the step, the first `times` times it runs. A network answer lost is the sandbox's chaos knob
// (SANDBOX_ANSWER_LOST_PERCENT): the simulator commits the post, then cuts the connection before answering. The
// worker runs in-process against the sandbox over HTTP, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueFailure } from '../networks/sandbox/state.ts';
import { startWorker, type RunningWorker } from '../worker/worker.ts';
import { call, seedWorkspace, type Seeded } from './support/harness.ts';
import { listeningHerald, sandboxAccount, until } from './support/network.ts';

type Env = Awaited<ReturnType<typeof listeningHerald>>;

describe('publish attempts whose database connection is cut midway, on postgres', () => {
  let env: Env;
  let ws: Seeded;
  let worker: RunningWorker;

  beforeAll(async () => {
    env = await listeningHerald('postgres');
    ws = await seedWorkspace(env, { plan: 'agency' });
    worker = await startWorker(env.services, { retryDelaysMs: [300, 300, 300], watchEveryMs: 200 });
  });
  afterAll(async () => {
    await worker.stop();
    await env.close();
  });

  let cutters = 0;
  /**
   * The next `times` updates of the post with `text` that match `condition` (SQL over `old` and `new`) have their
   * connection terminated mid-statement; a sequence counts them, since the cut rolls back everything else.
   */
  async function cutUpdates(text: string, condition: string, times: number): Promise<() => Promise<number>> {
    const name = `cut_${++cutters}`;
    const { db } = env.services;
    await db.raw(`create sequence ${name}`);
    await db.raw(`create function ${name}() returns trigger language plpgsql as $$
      begin
        if new.text = '${text}' and (${condition}) and nextval('${name}') <= ${times} then
          perform pg_terminate_backend(pg_backend_pid());
        end if;
        return new;
      end $$`);
    await db.raw(`create trigger ${name} before update on posts for each row execute function ${name}()`);
    return async () => Math.min(times, Number((await db.raw(`select last_value from ${name}`)).rows[0].last_value));
  }

  async function postNow(accountId: string, text: string): Promise<string> {
    const res = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: { targets: { accountIds: [accountId] }, mediaIds: [], text, when: 'now', confirm: true },
    });
    expect(res.status).toBe(201);
    return res.body.posts[0].id;
  }
  const readPost = (id: string) => call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey }).then((r) => r.body);
  const ended = (id: string) =>
    until(
      () => readPost(id),
      (p) => p.status === 'live' || p.status === 'failed',
    );
  const kinds = async (id: string) =>
    (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events.map(
      (e: { kind: string }) => e.kind,
    );
  const onNetwork = async (externalId: string) =>
    Number(
      (
        await env.services
          .db('sandbox_items')
          .where({ network: 'facebook', account: externalId })
          .whereNotNull('published_ms')
          .count({ n: '*' })
          .first()
      )?.n,
    );

  it('goes live once when recording it live is cut, twice (the settle that follows included)', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'facebook');
    const text = 'Published, then the record of it cut twice.';
    const cuts = await cutUpdates(text, `new.status = 'live'`, 2);
    const id = await postNow(account.id, text);
    const post = await ended(id);
    expect(post).toMatchObject({ status: 'live' });
    expect(post.error).toBeUndefined();
    expect(await cuts()).toBe(2);
    expect(await onNetwork(account.externalId)).toBe(1);
    expect(await kinds(id)).not.toContain('failed');
  });

  it('is sent again, once, when the record of a temporary failure is cut and the network shows no post', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'facebook');
    // The first publish call answers Facebook's temporary error; recording the retry is cut.
    await queueFailure(env.services.db, {
      network: 'facebook',
      account: account.externalId,
      scenario: 'unavailable',
      times: 1,
    });
    const text = 'Refused for now, and the record of it cut.';
    const cuts = await cutUpdates(text, 'new.worker_retries > old.worker_retries', 1);
    const id = await postNow(account.id, text);
    const post = await ended(id);
    expect(post).toMatchObject({ status: 'live' });
    expect(await cuts()).toBe(1);
    expect(await onNetwork(account.externalId)).toBe(1);
    expect(await kinds(id)).not.toContain('failed');
  });

  it('goes live once when Facebook takes the post and its answer is lost', async () => {
    const account = await sandboxAccount(env, ws.workspaceId, 'facebook');
    const lostBefore = (await (await fetch(`${env.base}/sandbox/faults`)).json()).answersLost;
    // Every POST to a simulator loses its answer: the feed call that makes the post is the only one a text post sends.
    env.config.sandboxAnswerLostPercent = 100;
    try {
      const id = await postNow(account.id, 'Taken by Facebook, the answer lost on the way.');
      const post = await ended(id);
      expect(post).toMatchObject({ status: 'live' });
      expect(await onNetwork(account.externalId)).toBe(1);
      expect(await kinds(id)).toEqual(['created', 'queued', 'publishing', 'retriedByWorker', 'live']);
    } finally {
      env.config.sandboxAnswerLostPercent = 0;
    }
    expect((await (await fetch(`${env.base}/sandbox/faults`)).json()).answersLost).toBe(lostBefore + 1);
  });
});
