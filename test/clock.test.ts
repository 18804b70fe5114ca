// One clock: a post's createdAt, updatedAt and every timeline event carry the injected clock's time,
// not the machine's, through HTTP on both databases. The clock is set far from real time, so a stamp
// taken from the machine's clock cannot pass by accident.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { manualClock } from './support/manualClock.ts';

const HOUR = 3600_000;
const START = Date.parse('2031-03-04T08:15:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(DATABASES)('the injected clock stamps posts on %s', (kind) => {
  const clock = manualClock(START);
  let env: TestEnv;
  let ws: Seeded;
  let accountId: string;

  beforeAll(async () => {
    env = await startHerald(kind, {}, { clock });
    ws = await seedWorkspace(env, { plan: 'agency', tz: 'Europe/Berlin' });
    accountId = await addAccount(env, ws.workspaceId, 'threads', 'Acme Threads');
  });
  afterAll(() => env.close());

  const read = async (id: string) => (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
  const events = async (id: string): Promise<{ kind: string; at: string; publishAt?: string }[]> =>
    (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events;

  it('stamps creation, each change and its event, and reads "now" from the clock', async () => {
    clock.set(START);
    const created = await call(env, 'post', '/v1/posts', {
      key: ws.writeKey,
      body: { targets: { accountIds: [accountId] }, mediaIds: [], text: 'On the clock.', when: 'now', confirm: true },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id: string = created.body.posts[0].id;
    // `now` is the clock's now: the post is due at the clock's time, and counted in its month.
    expect(await read(id)).toMatchObject({ publishAt: iso(START), createdAt: iso(START), updatedAt: iso(START) });

    clock.advance(HOUR);
    const cancelled = await call(env, 'post', `/v1/posts/${id}/cancel`, { key: ws.writeKey, body: { confirm: true } });
    expect(cancelled.status).toBe(200);
    clock.advance(HOUR);
    const rescheduled = await call(env, 'patch', `/v1/posts/${id}`, {
      key: ws.writeKey,
      body: { when: 'now', confirm: true },
    });
    expect(rescheduled.status, JSON.stringify(rescheduled.body)).toBe(200);
    expect(rescheduled.body).toMatchObject({
      status: 'queued',
      publishAt: iso(START + 2 * HOUR),
      createdAt: iso(START),
      updatedAt: iso(START + 2 * HOUR),
    });

    expect((await events(id)).map((e) => [e.kind, e.at])).toEqual([
      ['created', iso(START)],
      ['queued', iso(START)],
      ['cancelled', iso(START + HOUR)],
      ['rescheduled', iso(START + 2 * HOUR)],
      ['queued', iso(START + 2 * HOUR)],
    ]);
    const usage = (await call(env, 'get', '/v1/whoami', { key: ws.readKey })).body.usage;
    expect(usage).toMatchObject({ period: '2031-03', posts: { used: 1 } });
  });
});
