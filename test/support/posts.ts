// Fixtures for post tests: media records with chosen metadata (as processing would leave them), and
// the next clock changes of a zone, so time tests never depend on today's date.
import { DateTime } from 'luxon';
import { findWorkspace } from '../../db/identity.ts';
import { nowIso } from '../../db/rows.ts';
import { workspaceData } from '../../db/workspaceData.ts';
import { newId } from '../../domain/ids.ts';
import type { PostPatch } from '../../db/postsData.ts';
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
    id, workspace_id: workspaceId, folder_id: root.id, status: shape.status ?? 'ready', filename: `${id}.${kind === 'image' ? 'jpg' : 'mp4'}`,
    mime: shape.mime ?? (kind === 'image' ? 'image/jpeg' : 'video/mp4'), size, stored_bytes: size, kind,
    width: shape.width ?? (kind === 'image' ? 1080 : 1080), height: shape.height ?? (kind === 'image' ? 1080 : 1920),
    duration_seconds: kind === 'video' ? (shape.durationSeconds === undefined ? 30 : shape.durationSeconds) : null,
    bytes_deleted_at: shape.bytesDeletedAt ?? null, created_at: nowIso(), updated_at: nowIso(),
  });
  return id;
}

/** `count` queued posts already counted toward this month, made through the real repository. */
export async function fillMonth(env: TestEnv, workspaceId: string, accountId: string, platform: Platform, count: number): Promise<void> {
  const ws = (await findWorkspace(env.services.db, workspaceId))!;
  await workspaceData(env.services.db, ws).posts.create({ createdVia: 'api', month: DateTime.now().setZone(ws.tz).toFormat('yyyy-MM'), guard: () => undefined,
    posts: Array.from({ length: count }, () => ({ accountId, platform, status: 'queued' as const, publishAt: new Date(Date.now() + 86400_000).toISOString(),
      text: 'x', title: null, tags: [], mediaIds: [], perPlatform: {} })) });
}

/** Moves a post as the publishing worker will, through the same repository transition. */
export async function setPostState(env: TestEnv, workspaceId: string, postId: string, patch: PostPatch): Promise<void> {
  const ws = (await findWorkspace(env.services.db, workspaceId))!;
  await workspaceData(env.services.db, ws).posts.transition(postId, () => ({ patch, events: [] }));
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
  for (let t = prev.plus({ hours: 1 }); t < from.plus({ days: 360 }); t = t.plus({ hours: 1 })) {
    const before = prev.setZone(zone).offset;
    if (t.setZone(zone).offset !== before) {
      // The exact minute of the change, then the middle of the skipped or repeated wall time.
      let change = prev;
      while (change.setZone(zone).offset === before) change = change.plus({ minutes: 1 });
      const after = change.setZone(zone).offset;
      const half = Math.abs(after - before) / 2;
      if (after > before) {
        changes.push({ kind: 'gap', local: wall(change.setZone(`UTC${offsetText(before)}`).plus({ minutes: half })) });
      } else {
        const middle = change.plus({ minutes: half });
        changes.push({ kind: 'overlap', local: wall(middle.setZone(`UTC${offsetText(after)}`)), earlierUtc: middle.minus({ minutes: 2 * half }).toUTC().toISO()! });
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
