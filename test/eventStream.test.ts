// The dashboard's live update stream (GET /auth/events): session only, one shared poll per process for every open
// stream, its workspace's events only, resumed after Last-Event-ID, bounded per session, ended on sign-out, on
// removal from the workspace, on a switch to another workspace and on shutdown. The test's streams are served by a
// server of their own, apart from env.app, where people are removed and switch: two instances on one database. The
// tail is polled by the test (tail.poll), so nothing here waits on a timer. Both databases.
import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents, type EventType } from '../db/events.ts';
import { findWorkspace, workspaceOwner } from '../db/identity.ts';
import { acceptInvite, createInvite } from '../db/members.ts';
import { eventStreams, eventTail, STREAMS_PER_SESSION, type EventStreams } from '../server/eventStream.ts';
import { addAccount, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import { postingCalls } from './support/network.ts';
import { addPerson, asPerson, signedIn, type Person } from './support/people.ts';

interface Frame {
  id?: string;
  event?: string;
  data?: { type: string; objectId: string; post?: { status: string; publishAt: string | null } };
}

/** An open stream as a browser's EventSource sees it: its frames, in order, and whether it ended. */
class Stream {
  frames: Frame[] = [];
  ended = false;
  private text = '';
  private waiters: (() => void)[] = [];
  constructor(readonly res: http.IncomingMessage) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      this.text += chunk;
      let cut = this.text.indexOf('\n\n');
      while (cut >= 0) {
        const block = this.text.slice(0, cut);
        this.text = this.text.slice(cut + 2);
        const frame: Frame = {};
        for (const line of block.split('\n')) {
          const [field, ...rest] = line.split(': ');
          const value = rest.join(': ');
          if (field === 'id') frame.id = value;
          if (field === 'event') frame.event = value;
          if (field === 'data') frame.data = JSON.parse(value);
        }
        if (frame.data) this.frames.push(frame);
        cut = this.text.indexOf('\n\n');
      }
      this.wake();
    });
    res.on('close', () => {
      this.ended = true;
      this.wake();
    });
  }
  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }
  /** Resolves once `done` holds (a frame arrived, the stream ended). */
  async until(done: () => boolean): Promise<void> {
    while (!done()) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
  objects = () => this.frames.map((f) => f.data!.objectId);
  close = () => this.res.destroy();
}

describe.each(DATABASES)('live update streams on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let person: Person;
  let streams: EventStreams;
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    env = await startHerald(kind);
    ws = await seedWorkspace(env, { plan: 'agency' });
    // A member, the least role: every person of the workspace sees its changes.
    person = await addPerson(env, ws.workspaceId, 'member');
    // A tail whose timer never fires within the test: the test polls it.
    streams = eventStreams(env.services, eventTail(env.services.db, env.services.logger, 3_600_000));
    const app = express();
    app.get('/auth/events', streams.route);
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    streams.endAll();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await env.close();
  });

  function open(headers: Record<string, string> = { Cookie: person.cookie }): Promise<Stream | http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      http
        .get(`${base}/auth/events`, { headers }, (res) => {
          if (res.statusCode === 200) return resolve(new Stream(res));
          res.resume();
          res.on('end', () => resolve(res));
        })
        .on('error', reject);
    });
  }
  const stream = async (headers?: Record<string, string>) => {
    const s = await open(headers);
    expect(s).toBeInstanceOf(Stream);
    return s as Stream;
  };
  let n = 0;
  /** Records an event as a change would, and answers its object id. */
  async function happen(workspaceId = ws.workspaceId, type: EventType = 'media.ready'): Promise<string> {
    const objectId = `med_stream${++n}`;
    await recordEvents(env.services.db, [{ workspaceId, type, objectId }], new Date().toISOString());
    return objectId;
  }

  it('refuses a request without a session, and an API key even beside a session cookie', async () => {
    expect(((await open({})) as http.IncomingMessage).statusCode).toBe(401);
    const withKey = await open({ Cookie: person.cookie, Authorization: `Bearer ${ws.readKey}` });
    expect((withKey as http.IncomingMessage).statusCode).toBe(401);
  });

  it("delivers its workspace's events to every open stream, from one read of the table per poll", async () => {
    const other = await seedWorkspace(env, { plan: 'agency' });
    const tabs = await Promise.all([stream(), stream(), stream()]);
    await streams.tail.poll();
    let reads = 0;
    const count = (q: { sql: string }) => {
      if (/^select\b.*\bevents\b/is.test(q.sql)) reads++;
    };
    env.services.db.on('query', count);
    const theirs = await happen(other.workspaceId);
    const mine = await happen();
    await streams.tail.poll();
    await streams.tail.poll();
    env.services.db.off('query', count);
    for (const tab of tabs) {
      await tab.until(() => tab.frames.length > 0);
      expect(tab.objects()).toEqual([mine]);
      expect(tab.frames[0]!.data!.type).toBe('media.ready');
    }
    expect(tabs.map((t) => t.objects())).not.toContainEqual([theirs]);
    // Two polls, three streams: two reads, not six.
    expect(reads).toBe(2);
    for (const tab of tabs) tab.close();
  });

  it("sends a post's state with its event, so a page shows it without asking", async () => {
    const tab = await stream();
    await streams.tail.poll();
    const accountId = await addAccount(env, ws.workspaceId, 'threads', 'Threads');
    const { id, publishAt } = await postingCalls(env, ws).postLater(accountId, 'Soon', 3);
    await streams.tail.poll();
    await tab.until(() => tab.frames.length >= 2);
    const post = { status: 'queued', publishAt: `${publishAt}:00.000Z` };
    expect(tab.frames.map((f) => f.data)).toEqual([
      expect.objectContaining({ type: 'post.created', objectId: id, post }),
      expect.objectContaining({ type: 'post.queued', objectId: id, post }),
    ]);
    tab.close();
  });

  it('resumes after Last-Event-ID with the events the page missed, in order', async () => {
    const first = await stream();
    await streams.tail.poll();
    const seen = await happen();
    await streams.tail.poll();
    await first.until(() => first.frames.length > 0);
    expect(first.objects()).toEqual([seen]);
    first.close();
    await first.until(() => first.ended);
    const missed = [await happen(), await happen()];
    const again = await stream({ Cookie: person.cookie, 'Last-Event-ID': first.frames[0]!.id! });
    await again.until(() => again.frames.length >= 2);
    expect(again.objects()).toEqual(missed);
    // What the tail reads later is not sent twice.
    await streams.tail.poll();
    const next = await happen();
    await streams.tail.poll();
    await again.until(() => again.frames.length >= 3);
    expect(again.objects()).toEqual([...missed, next]);
    again.close();
  });

  it(`holds at most ${STREAMS_PER_SESSION} streams for one session`, async () => {
    const cookie = { Cookie: (await signedIn(env, ws.userId, ws.workspaceId)).cookie };
    const held = await Promise.all(Array.from({ length: STREAMS_PER_SESSION }, () => stream(cookie)));
    const refused = (await open(cookie)) as http.IncomingMessage;
    expect(refused.statusCode).toBe(429);
    held[0]!.close();
    await held[0]!.until(() => held[0]!.ended);
    // The server sees the close as the socket goes: ask until the place is free.
    let again: Stream | http.IncomingMessage = await open(cookie);
    while (!(again instanceof Stream)) again = await open(cookie);
    for (const s of [...held, again]) s.close();
  });

  it('ends when its session is signed out, at the next poll', async () => {
    const other = await signedIn(env, ws.userId, ws.workspaceId);
    const s = await stream({ Cookie: other.cookie });
    await streams.tail.poll();
    expect(s.ended).toBe(false);
    const out = await request(env.app)
      .post('/auth/sign-out')
      .set('Cookie', other.cookie)
      .set('X-CSRF-Token', other.csrf);
    expect(out.status).toBe(204);
    await streams.tail.poll();
    await s.until(() => s.ended);
  });

  /** A member of this workspace who also belongs to another, whose session is in this one. */
  async function memberOfTwo(): Promise<{ person: Person; elsewhere: string }> {
    const { db } = env.services;
    const other = await seedWorkspace(env, { plan: 'agency' });
    const joined = await addPerson(env, ws.workspaceId, 'member');
    const invite = await createInvite(
      db,
      (await findWorkspace(db, other.workspaceId))!,
      { userId: (await workspaceOwner(db, other.workspaceId))!.id, role: 'owner' },
      joined.email,
      'member',
    );
    await acceptInvite(db, invite.id, { userId: joined.userId });
    return { person: joined, elsewhere: other.workspaceId };
  }
  const owner = () => signedIn(env, ws.userId, ws.workspaceId);

  it('ends when its person is removed from the workspace, before the next poll sends any of its events', async () => {
    const { person: leaving } = await memberOfTwo();
    const s = await stream({ Cookie: leaving.cookie });
    await streams.tail.poll();
    const before = await happen();
    await streams.tail.poll();
    await s.until(() => s.frames.length > 0);
    const removed = await asPerson(env, await owner(), 'delete', `/auth/members/${leaving.userId}`);
    expect(removed.status).toBe(200);
    const after = await happen();
    await streams.tail.poll();
    await s.until(() => s.ended);
    expect(s.objects()).toEqual([before]);
    expect(s.objects()).not.toContain(after);
    // Opened again, the stream is refused: the removed person's session here ended with the membership.
    expect(((await open({ Cookie: leaving.cookie })) as http.IncomingMessage).statusCode).toBe(401);
  });

  it('ends when its session switches to another workspace, sending none of the old one after the switch', async () => {
    const { person: switching, elsewhere } = await memberOfTwo();
    const s = await stream({ Cookie: switching.cookie });
    await streams.tail.poll();
    const switched = await asPerson(env, switching, 'post', '/auth/workspaces/switch', { workspaceId: elsewhere });
    expect(switched.status).toBe(200);
    const after = await happen();
    await streams.tail.poll();
    await s.until(() => s.ended);
    expect(s.objects()).not.toContain(after);
    // Opened again, it follows the session to the other workspace and sends only that one's events.
    const again = await stream({ Cookie: switching.cookie });
    await streams.tail.poll();
    const old = await happen();
    const theirs = await happen(elsewhere);
    await streams.tail.poll();
    await again.until(() => again.frames.length > 0);
    expect(again.objects()).toEqual([theirs]);
    expect(again.objects()).not.toContain(old);
    again.close();
  });

  it('ends every stream, connection and all, when the server stops', async () => {
    const cookie = { Cookie: (await signedIn(env, ws.userId, ws.workspaceId)).cookie };
    const tabs = await Promise.all([stream(cookie), stream(cookie)]);
    streams.endAll();
    for (const tab of tabs) await tab.until(() => tab.ended);
  });
});
