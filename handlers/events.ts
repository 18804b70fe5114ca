// GET /events: the workspace's events, oldest first from a cursor, each with its object as the API answers it now.
import type { components } from '../generated/api.d.ts';
import { EVENT_DAYS, START, type EventPosition, type StoredEvent } from '../db/events.ts';
import type { WorkspaceData } from '../db/workspaceData.ts';
import { readCursor, writeCursor } from '../domain/cursor.ts';
import type { Storage } from '../storage/storage.ts';
import { toMediaBody } from './media.ts';
import { wirePost } from './posts.ts';
import type { Handler } from './types.ts';

type Event = components['schemas']['Event'];

const eventPosition = (position: unknown): EventPosition | undefined => {
  const { t, s } = (position ?? {}) as { t?: unknown; s?: unknown };
  return typeof t === 'string' && /^\d{1,20}$/.test(t) && Number.isSafeInteger(s) && (s as number) >= 0
    ? { tx: t, seq: s as number }
    : undefined;
};

export const writeEventCursor = (p: EventPosition) => writeCursor({ t: p.tx, s: p.seq });
export const readEventCursor = (text: string) => readCursor(text, eventPosition);

/**
 * The events with their objects, each object read once however many events name it: the feed's answer, and the
 * `data` of a webhook delivery.
 */
export async function withObjects(data: WorkspaceData, storage: Storage, zone: string, events: StoredEvent[]) {
  const idsOf = (prefix: string) => [
    ...new Set(events.filter((e) => e.type.startsWith(prefix)).map((e) => e.objectId)),
  ];
  const posts = new Map(
    (await Promise.all(idsOf('post.').map((id) => data.posts.get(id)))).flatMap((p) => (p ? [[p.id, p]] : [])),
  );
  const media = new Map((await data.media.getMany(idsOf('media.'))).map((m) => [m.id, m]));
  const accounts = new Map((await data.accounts.list()).map((a) => [a.id, a]));
  return Promise.all(
    events.map(async (e): Promise<Event> => {
      const base = { id: e.id, type: e.type, objectId: e.objectId, createdAt: e.createdAt };
      const post = posts.get(e.objectId);
      if (e.type.startsWith('post.'))
        return post
          ? { ...base, post: wirePost(post, zone) }
          : e.payload
            ? { ...base, post: e.payload as never }
            : base;
      const file = media.get(e.objectId);
      if (e.type.startsWith('media.')) return file ? { ...base, media: await toMediaBody(storage, file) } : base;
      const account = accounts.get(e.objectId);
      return account ? { ...base, account } : base;
    }),
  );
}

export const listEvents: Handler<'listEvents'> = async ({ cred, data, query, services }) => {
  const after = query.cursor ? readEventCursor(query.cursor) : START;
  const page = await data.events.list({
    after,
    types: query.types,
    since: new Date(services.clock.now() - EVENT_DAYS * 86400_000).toISOString(),
    limit: query.limit ?? 50,
  });
  return {
    status: 200,
    body: {
      events: await withObjects(data, services.storage, cred.workspace.tz, page),
      nextCursor: writeEventCursor(page.at(-1)?.position ?? after),
    },
  };
};
