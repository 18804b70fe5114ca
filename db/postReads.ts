// Reading one workspace's posts: one, a page of the list, the approvals waiting, a timeline, the month's count.
import type { PostStatus } from '../domain/statusLine.ts';
import { isPostgres, SQLITE_LOWER, type Db } from './connect.ts';
import { toEvent, type PostEventRecord } from './postEvents.ts';
import { COLUMNS, toPost, workspacePosts, type PostRecord } from './postRecords.ts';
import { usageCounter } from './usage.ts';

export interface PostFilter {
  status?: PostStatus;
  accountId?: string;
  from?: string;
  to?: string;
  /** Words the text or the title contains, ignoring case. */
  q?: string;
  cursor?: { publishAt: string | null; id: string };
  limit: number;
}

/** `text` as a LIKE pattern matching it literally: its wildcards and the escape character escaped. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The SQL function that lowers a column's case as JavaScript lowers the pattern's: PostgreSQL's own; on SQLite
 * (whose lower() knows only A to Z) the one connect.ts registers.
 */
const lowered = (db: Db) => (isPostgres(db) ? 'lower' : SQLITE_LOWER);

/** Reads of one workspace's posts. */
export function postReads(db: Db, wsId: string) {
  const posts = () => workspacePosts(db, wsId);

  return {
    monthUsed: (month: string) => usageCounter(db, wsId, 'posts', month),

    get: async (id: string): Promise<PostRecord | undefined> => {
      const row = await posts().where('posts.id', id).first(COLUMNS);
      return row ? toPost(row) : undefined;
    },

    /** Stable order: by publish time (drafts last), then id; the cursor is the last row of the previous page. */
    list: async (filter: PostFilter): Promise<PostRecord[]> => {
      const q = posts().select(COLUMNS);
      if (filter.status) q.where('posts.status', filter.status);
      if (filter.accountId) q.where('posts.account_id', filter.accountId);
      if (filter.q) {
        const pattern = `%${likeEscaped(filter.q.toLowerCase())}%`;
        q.where((w) =>
          w
            .whereRaw(`${lowered(db)}(posts.text) like ? escape '\\'`, [pattern])
            .orWhereRaw(`${lowered(db)}(posts.title) like ? escape '\\'`, [pattern]),
        );
      }
      // Each bound and the cursor in the list indexes' own terms (migrations 0013 and 0018), so that a range
      // is one stretch of them and a page deep behind a cursor seeks to its first row. Drafts sort last.
      const at = isPostgres(db) ? "coalesce(posts.publish_at, '')" : 'posts.publish_at';
      if (filter.from)
        q.where('posts.publish_at', '>=', filter.from).whereRaw(`((posts.publish_at is null), ${at}) >= (false, ?)`, [
          filter.from,
        ]);
      if (filter.to)
        q.where('posts.publish_at', '<', filter.to).whereRaw(`((posts.publish_at is null), ${at}) < (false, ?)`, [
          filter.to,
        ]);
      const c = filter.cursor;
      if (c && c.publishAt === null && !isPostgres(db)) {
        // Among SQLite's drafts: the publish time is stated null, so the index seeks by id, and in id order.
        q.whereRaw('(posts.publish_at is null) = true and posts.publish_at is null and posts.id > ?', [c.id]);
        return (await q.orderBy('posts.id').limit(filter.limit)).map(toPost);
      }
      if (c) {
        const after = c.publishAt === null ? `(true, '', ?)` : '(false, ?, ?)';
        q.whereRaw(
          `((posts.publish_at is null), ${at}, posts.id) > ${after}`,
          c.publishAt === null ? [c.id] : [c.publishAt, c.id],
        );
      }
      q.orderByRaw(`(posts.publish_at is null), ${at}, posts.id`).limit(filter.limit);
      return (await q).map(toPost);
    },

    /** Drafts awaiting approval, oldest request first (the approvals page). */
    pendingApprovals: async (limit: number): Promise<PostRecord[]> =>
      (
        await posts()
          .where('posts.approval_state', 'pending')
          .orderBy([{ column: 'posts.approval_requested_at' }, { column: 'posts.id' }])
          .limit(limit)
          .select(COLUMNS)
      ).map(toPost),

    events: async (postId: string): Promise<PostEventRecord[]> =>
      (await db('post_events').where({ post_id: postId, workspace_id: wsId }).orderBy('seq')).map(toEvent),
  };
}
