// The dashboard's live updates: GET /auth/events, a server-sent-events stream of the workspace's events, so a
// page refetches what changed instead of polling. Session only (API keys read GET /v1/events). Each process polls
// the events table once a second for every open stream together (EventTail), so any number of tabs cost one
// query a second, and every process on a shared PostgreSQL delivers what any process or worker wrote. The same poll
// reads which open streams' sessions are still in their workspace: a stream whose person was removed from it, whose
// session switched to another workspace, signed out or expired ends before the poll sends anything, on every process.
import type { Request, RequestHandler, Response } from 'express';
import { headPosition, isAfter, readEvents, type EventPosition, type StoredEvent } from '../db/events.ts';
import type { Db } from '../db/connect.ts';
import { sessionWorkspaces } from '../db/identity.ts';
import { ApiError, errorBody, unauthenticated } from '../domain/errors.ts';
import { readEventCursor, writeEventCursor } from '../handlers/events.ts';
import type { Services } from '../runtime/services.ts';
import type { Logger } from '../runtime/logger.ts';
import { send as answer } from './apiResponse.ts';
import { sessionFrom } from '../signin/session.ts';

/** How often the one shared poll reads new events. */
export const TAIL_EVERY_MS = 1000;
/** A comment line this often keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 25_000;
/** Open streams one session may hold in one process (a few tabs), and one address. */
export const STREAMS_PER_SESSION = 6;
export const STREAMS_PER_ADDRESS = 30;
/** Events a resuming stream catches up at most; past that it tells the page to refetch everything. */
const RESUME_LIMIT = 500;
const PAGE = 1000;

/** An event as the stream sends it: a post's event carries its state now, so a page shows it without a request. */
type LiveEvent = StoredEvent & { post?: { status: string; publishAt: string | null } };
/** An open stream as the tail knows it: the session that opened it, where its events go, and its ending. */
interface Listener {
  sessionId: string;
  send(events: LiveEvent[]): void;
  /** Its session is no longer in the stream's workspace: the stream ends. */
  end(): void;
}

/** The current state of the posts the events name, in one read for the whole batch. */
async function withPostStates(db: Db, events: StoredEvent[]): Promise<LiveEvent[]> {
  const ids = [...new Set(events.filter((e) => e.type.startsWith('post.')).map((e) => e.objectId))];
  if (!ids.length) return events;
  const rows: { id: string; status: string; publish_at: string | null }[] = await db('posts')
    .whereIn('id', ids)
    .select('id', 'status', 'publish_at');
  const states = new Map(rows.map((r) => [r.id, { status: r.status, publishAt: r.publish_at ?? null }]));
  return events.map((e) =>
    e.type.startsWith('post.') && states.has(e.objectId) ? { ...e, post: states.get(e.objectId) } : e,
  );
}

/** One poll per process, fanned out by workspace to the streams that listen. */
export function eventTail(db: Db, logger: Logger, everyMs = TAIL_EVERY_MS) {
  const listeners = new Map<string, Set<Listener>>();
  let position: EventPosition | undefined;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;

  async function poll(): Promise<void> {
    if (!position) {
      position = await headPosition(db);
      return;
    }
    for (;;) {
      const read = await readEvents(db, { after: position, limit: PAGE });
      // After the read and before any send: what was read reaches no stream whose session left its workspace.
      await endDeparted();
      if (!read.length) return;
      position = read.at(-1)!.position;
      const events = await withPostStates(db, read);
      const byWorkspace = new Map<string, LiveEvent[]>();
      for (const e of events) {
        const theirs = byWorkspace.get(e.workspaceId);
        if (theirs) theirs.push(e);
        else byWorkspace.set(e.workspaceId, [e]);
      }
      for (const [workspaceId, theirs] of byWorkspace) for (const l of listeners.get(workspaceId) ?? []) l.send(theirs);
      if (events.length < PAGE) return;
    }
  }

  /** Ends the streams whose session is gone or now in another workspace (or no longer a member of it). */
  async function endDeparted(): Promise<void> {
    const open = [...listeners].flatMap(([workspaceId, set]) => [...set].map((l) => ({ workspaceId, l })));
    if (!open.length) return;
    const current = await sessionWorkspaces(db, [...new Set(open.map(({ l }) => l.sessionId))]);
    for (const { workspaceId, l } of open) if (current.get(l.sessionId) !== workspaceId) l.end();
  }

  const tick = () => {
    polling ??= poll()
      .catch((err) => logger.warn({ err }, 'reading new events for the live streams failed; trying again'))
      .finally(() => {
        polling = undefined;
      });
  };

  return {
    listen(workspaceId: string, listener: Listener): () => void {
      const set = listeners.get(workspaceId) ?? new Set();
      listeners.set(workspaceId, set.add(listener));
      if (!timer) {
        timer = setInterval(tick, everyMs).unref();
        tick();
      }
      return () => {
        set.delete(listener);
        if (!set.size) listeners.delete(workspaceId);
        if (!listeners.size && timer) {
          clearInterval(timer);
          timer = undefined;
          position = undefined;
        }
      };
    },
    /** Polls now (tests drive it without waiting for the timer). */
    poll: async () => {
      tick();
      await polling;
    },
  };
}

export type EventTail = ReturnType<typeof eventTail>;

/** What a page needs to refetch or patch: the object, what happened to it, a post's state. The feed has the rest. */
const frame = (e: LiveEvent) => {
  const data = JSON.stringify({ type: e.type, objectId: e.objectId, createdAt: e.createdAt, post: e.post });
  return `id: ${writeEventCursor(e.position)}\ndata: ${data}\n\n`;
};

const tooMany = (what: string, limit: number) =>
  new ApiError(
    429,
    'too_many_streams',
    `${what} already has ${limit} live update streams open.`,
    'Close other dashboard tabs; each tab holds one stream.',
  );

/** Counts of open streams by key, for the per-session and per-address bounds. */
function counter() {
  const open = new Map<string, number>();
  return {
    get: (key: string) => open.get(key) ?? 0,
    add: (key: string, n: number) => {
      const next = (open.get(key) ?? 0) + n;
      if (next) open.set(key, next);
      else open.delete(key);
    },
  };
}

export function eventStreams(services: Services, tail = eventTail(services.db, services.logger)) {
  const { db, config } = services;
  const bySession = counter();
  const byAddress = counter();
  /** Each open stream's ending (`destroy` drops its connection too) and its heartbeat. */
  const ends = new Set<(destroy?: boolean) => void>();
  const beats = new Set<() => void>();
  let heartbeat: NodeJS.Timeout | undefined;

  const route: RequestHandler = async (req: Request, res: Response) => {
    try {
      if (req.headers.authorization !== undefined)
        throw new ApiError(
          401,
          'unauthenticated',
          'Live updates are for the signed-in dashboard; API keys and OAuth tokens are refused.',
          'Read GET /v1/events with your key instead; send no Authorization header here.',
        );
      const cred = await sessionFrom(db, req);
      if (!cred) throw unauthenticated();
      const address = req.ip ?? '';
      if (bySession.get(cred.sessionId) >= STREAMS_PER_SESSION) throw tooMany('This session', STREAMS_PER_SESSION);
      if (byAddress.get(address) >= STREAMS_PER_ADDRESS) throw tooMany('This address', STREAMS_PER_ADDRESS);
      await stream(req, res, cred.workspace.id, cred.sessionId, address);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      answer(res, { status: err.status, body: errorBody(err, config.publicUrl), headers: err.headers });
    }
  };

  async function stream(req: Request, res: Response, workspaceId: string, sessionId: string, address: string) {
    bySession.add(sessionId, 1);
    byAddress.add(address, 1);
    let last: EventPosition | undefined;
    let held: LiveEvent[] | undefined = [];
    const send = (events: LiveEvent[]) => {
      if (held) return void held.push(...events);
      if (!ends.has(end)) return;
      for (const e of events)
        if (!last || isAfter(e.position, last)) {
          res.write(frame(e));
          last = e.position;
        }
    };
    // Ended by the tail when the session leaves the workspace; the page's next request learns why.
    const unlisten = tail.listen(workspaceId, { sessionId, send, end: () => end() });
    const beat = () => {
      if (ends.has(end)) res.write(': ping\n\n');
    };
    const end = (destroy = false) => {
      if (!ends.delete(end)) return;
      beats.delete(beat);
      if (!beats.size) heartbeat = void clearInterval(heartbeat);
      unlisten();
      bySession.add(sessionId, -1);
      byAddress.add(address, -1);
      res.end();
      if (destroy) res.once('finish', () => res.socket?.destroy());
    };
    ends.add(end);
    beats.add(beat);
    heartbeat ??= setInterval(() => {
      for (const beat of beats) beat();
    }, HEARTBEAT_MS).unref();
    // The response's close, not the request's: a GET's request closes as soon as it was read.
    res.once('close', () => end());
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
    // The browser waits this long before reconnecting after a cut.
    res.write('retry: 3000\n\n');
    // A page that was away resumes after the last event it saw; events meanwhile wait in `held`.
    const resumeFrom = lastEventId(req);
    if (resumeFrom) {
      const missed = await readEvents(db, { workspaceId, after: resumeFrom, limit: RESUME_LIMIT + 1 })
        .then((events) => withPostStates(db, events))
        .catch(() => []);
      if (missed.length > RESUME_LIMIT) res.write('event: reset\ndata: {}\n\n');
      else {
        last = resumeFrom;
        const waiting = held;
        held = undefined;
        send(missed);
        send(waiting);
        return;
      }
    }
    // A new stream starts with what the tail reads next: the page fetched its data as it opened the stream.
    const waiting = held;
    held = undefined;
    send(waiting);
  }

  return {
    route,
    tail,
    /** Ends every open stream and drops its connection: the server is stopping. */
    endAll: () => {
      for (const end of [...ends]) end(true);
    },
  };
}

function lastEventId(req: Request): EventPosition | undefined {
  const sent = req.headers['last-event-id'];
  if (typeof sent !== 'string' || !sent) return undefined;
  try {
    return readEventCursor(sent);
  } catch {
    return undefined;
  }
}

export type EventStreams = ReturnType<typeof eventStreams>;

/** The app's streams, for the server's shutdown: open streams never finish by themselves. */
export const streamsOf = (app: { locals: Record<string, unknown> }) => app.locals.eventStreams as EventStreams;
