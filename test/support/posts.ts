// Fixtures for post tests: media records with chosen metadata (as processing would leave them), and
// the next clock changes of a zone, so time tests never depend on today's date.
import { DateTime } from 'luxon';
import { findWorkspace } from '../../db/identity.ts';
import { nowIso } from '../../db/rows.ts';
import { workspaceData } from '../../db/workspaceData.ts';
import { newId } from '../../domain/ids.ts';
import { reservePosts, startAttempts } from '../../db/publishing/attempts.ts';
import { markFailed, markLiveMany } from '../../db/publishing/outcomes.ts';
import type { ErrorBody } from '../../domain/errors.ts';
import type { Platform } from '../../networks/rules.ts';
import type { TestEnv } from './harness.ts';

export interface MediaShape {
  kind?: 'image' | 'video';
  status?: 'uploading' | 'processing' | 'ready' | 'failed';
  width?: number;
  height?: number;
  durationSeconds?: number | null;
  size?: number;
  mime?: string;
  bytesDeletedAt?: string | null;
}

export async function seedMedia(env: TestEnv, workspaceId: string, shape: MediaShape = {}): Promise<string> {
  const db = env.services.db;
  const root = await db('folders').where({ workspace_id: workspaceId, is_root: 1 }).first('id');
  const kind = shape.kind ?? 'image';
  const id = newId('med');
  const size = shape.size ?? 500_000;
  await db('media').insert({
    id,
    workspace_id: workspaceId,
    folder_id: root.id,
    status: shape.status ?? 'ready',
    filename: `${id}.${kind === 'image' ? 'jpg' : 'mp4'}`,
    mime: shape.mime ?? (kind === 'image' ? 'image/jpeg' : 'video/mp4'),
    size,
    stored_bytes: size,
    kind,
    width: shape.width ?? (kind === 'image' ? 1080 : 1080),
    height: shape.height ?? (kind === 'image' ? 1080 : 1920),
    duration_seconds: kind === 'video' ? (shape.durationSeconds === undefined ? 30 : shape.durationSeconds) : null,
    bytes_deleted_at: shape.bytesDeletedAt ?? null,
    created_at: nowIso(),
    updated_at: nowIso(),
  });
  return id;
}

/** `count` queued posts already counted toward this month, made through the real repository. */
export async function fillMonth(
  env: TestEnv,
  workspaceId: string,
  accountId: string,
  platform: Platform,
  count: number,
): Promise<void> {
  const ws = (await findWorkspace(env.services.db, workspaceId))!;
  const month = DateTime.fromMillis(env.services.clock.now(), { zone: ws.tz }).toFormat('yyyy-MM');
  const data = workspaceData(env.services.db, ws, env.services.clock);
  await data.posts.create({
    createdVia: 'api',
    month,
    guard: () => undefined,
    posts: Array.from({ length: count }, () => ({
      accountId,
      platform,
      status: 'queued' as const,
      publishAt: new Date(Date.now() + 86400_000).toISOString(),
      text: 'x',
      title: null,
      tags: [],
      mediaIds: [],
      perPlatform: {},
    })),
  });
}

/** How a post ends when the publishing worker sends it: live (at `liveAt`), or failed with `error`. */
export type PublishEnd =
  | { status: 'live'; externalUrl?: string; liveAt?: string }
  | { status: 'failed'; error: ErrorBody };

/**
 * Moves a queued post as the publishing worker does, through the worker's own repository calls:
 * reserved, started, then live or failed; `liveAt` is the time the worker's clock reads then.
 */
export async function setPostState(env: TestEnv, workspaceId: string, postId: string, end: PublishEnd): Promise<void> {
  const now = (end.status === 'live' && end.liveAt) || new Date(env.services.clock.now()).toISOString();
  const ws = (await findWorkspace(env.services.db, workspaceId))!;
  const posts = workspaceData(env.services.db, ws, env.services.clock, env.services.jobs).posts;
  // A draft is queued first, as a person's reschedule does: only a queued post is ever sent.
  if ((await posts.get(postId))?.status === 'draft') {
    await posts.transition(postId, 'reschedule', () => ({ patch: { publishAt: now }, events: [] }));
  }
  const [attempt] = await reservePosts(env.services.db, [postId], 'wkr_test', '9999-12-31T00:00:00.000Z');
  if (!attempt) throw new Error(`post ${postId} is not queued, or another worker holds it`);
  await startAttempts(env.services.db, [{ attempt, message: 'Sending.' }], now);
  if (end.status === 'failed') await markFailed(env.services.db, attempt, end.error, now);
  else {
    const externalUrl = end.externalUrl ?? `https://example.com/${postId}`;
    const outcome = { attempt, published: { externalId: postId, externalUrl }, message: 'Published.' };
    await markLiveMany(env.services.db, [outcome], now);
  }
}

export interface ClockChange {
  /** A local wall time that does not exist (gap) or occurs twice (overlap), YYYY-MM-DDTHH:mm. */
  local: string;
  kind: 'gap' | 'overlap';
  /** For an overlap, the earlier of its two instants. */
  earlierUtc?: string;
}

/** The clock changes of `zone` within the next year, found from the zone's rules. */
export function nextClockChanges(zone: string, from = DateTime.utc()): ClockChange[] {
  const changes: ClockChange[] = [];
  const wall = (dt: DateTime) => dt.toFormat("yyyy-MM-dd'T'HH:mm");
  let prev = from.plus({ days: 2 }).startOf('hour');
  // Day by day (reading a zone's offset is slow), then the hour and the exact minute of a change.
  for (let t = prev.plus({ days: 1 }); t < from.plus({ days: 360 }); t = t.plus({ days: 1 })) {
    const before = prev.setZone(zone).offset;
    if (t.setZone(zone).offset !== before) {
      // The exact minute of the change, then the middle of the skipped or repeated wall time.
      let change = prev;
      while (change.plus({ hours: 1 }).setZone(zone).offset === before) change = change.plus({ hours: 1 });
      while (change.setZone(zone).offset === before) change = change.plus({ minutes: 1 });
      const after = change.setZone(zone).offset;
      const half = Math.abs(after - before) / 2;
      if (after > before) {
        changes.push({ kind: 'gap', local: wall(change.setZone(`UTC${offsetText(before)}`).plus({ minutes: half })) });
      } else {
        const middle = change.plus({ minutes: half });
        changes.push({
          kind: 'overlap',
          local: wall(middle.setZone(`UTC${offsetText(after)}`)),
          earlierUtc: middle
            .minus({ minutes: 2 * half })
            .toUTC()
            .toISO()!,
        });
      }
    }
    prev = t;
  }
  return changes;
}

function offsetText(minutes: number): string {
  const sign = minutes >= 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}
