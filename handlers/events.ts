// GET /events: the workspace's events, oldest first from a cursor, each with its object as the API answers it now.
import type { components } from '../generated/api.d.ts';
import { EVENT_DAYS, START, type EventPosition, type StoredEvent } from '../db/events.ts';
import type { WorkspaceData } from '../db/workspaceData.ts';
import { readCursor, writeCursor } from '../domain/cursor.ts';
import type { Storage } from '../storage/storage.ts';
import { toMediaBody } from './media.ts';
import { wirePost } from './posts/wire.ts';
import type { Handler } from './types.ts';

type Event = components['schemas']['Event'];

/**
 * The bytes of events one page carries at most (besides its first event, which it always carries): events of one
 * post each carry the whole post, so a page of 100 once answered 99 MB and held the process for over half a second.
 */
export const EVENT_PAGE_BYTES = 1024 * 1024;

const eventPosition = (position: unknown): EventPosition | undefined => {
  const { t, s } = (position ?? {}) as { t?: unknown; s?: unknown };
  return typeof t === 'string' && /^\d{1,20}$/.test(t) && Number.isSafeInteger(s) && (s as number) >= 0
    ? { tx: t, seq: s as number }
    : undefined;
};

export const writeEventCursor = (p: EventPosition) => writeCursor({ t: p.tx, s: p.seq });
export const readEventCursor = (text: string) => readCursor(text, eventPosition);

/**
 * The events with their objects, each object read and built once however many events name it (the events share
 * it): the feed's answer, and the `data` of a webhook delivery. A deleted post is the one its `post.deleted`
 * event keeps, for its earlier events too.
 */
export async function withObjects(data: WorkspaceData, storage: Storage, zone: string, events: StoredEvent[]) {
  const idsOf = (prefix: string) => [
    ...new Set(events.filter((e) => e.type.startsWith(prefix)).map((e) => e.objectId)),
  ];
  const postIds = idsOf('post.');
  const posts = new Map<string, Event['post']>(
    (await Promise.all(postIds.map((id) => data.posts.get(id)))).flatMap((p) => (p ? [[p.id, wirePost(p, zone)]] : [])),
  );
  const gone = postIds.filter((id) => !posts.has(id));
  for (const [id, post] of await data.events.deletedPosts(gone)) posts.set(id, post as Event['post']);
  const media = new Map(
    await Promise.all(
      (await data.media.getMany(idsOf('media.'))).map(async (m) => [m.id, await toMediaBody(storage, m)] as const),
    ),
  );
  const accounts = new Map((await data.accounts.list()).map((a) => [a.id, a]));
  return events.map((e): Event => {
    const base = { id: e.id, type: e.type, objectId: e.objectId, createdAt: e.createdAt };
    const object = e.type.startsWith('post.')
      ? { post: posts.get(e.objectId) }
      : e.type.startsWith('media.')
        ? { media: media.get(e.objectId) }
        : { account: accounts.get(e.objectId) };
    return Object.values(object)[0] ? { ...base, ...object } : base;
  });
}

/**
 * The longest run of events, from the first, within EVENT_PAGE_BYTES (the first always): each shared object's
 * JSON is measured once, so measuring costs what one copy of each object does.
 */
export function withinBudget(events: Event[], budget = EVENT_PAGE_BYTES): Event[] {
  const sizes = new Map<object, number>();
  const sizeOf = (value: object | undefined) => {
    if (!value) return 0;
    const size = sizes.get(value) ?? Buffer.byteLength(JSON.stringify(value));
    sizes.set(value, size);
    return size;
  };
  let used = 0;
  for (const [i, e] of events.entries()) {
    const { post, media, account, ...base } = e;
    used += Buffer.byteLength(JSON.stringify(base)) + sizeOf(post ?? media ?? account) + 10;
    if (used > budget && i > 0) return events.slice(0, i);
  }
  return events;
}

export const listEvents: Handler<'listEvents'> = async ({ cred, data, query, services }) => {
  const after = query.cursor ? readEventCursor(query.cursor) : START;
  const limit = query.limit ?? 50;
  const read = await data.events.list({
    after,
    types: query.types,
    since: new Date(services.clock.now() - EVENT_DAYS * 86400_000).toISOString(),
    limit: limit + 1,
  });
  const page = read.slice(0, limit);
  const events = withinBudget(await withObjects(data, services.storage, cred.workspace.tz, page));
  return {
    status: 200,
    body: {
      events,
      nextCursor: writeEventCursor(page[events.length - 1]?.position ?? after),
      hasMore: read.length > events.length,
    },
  };
};
