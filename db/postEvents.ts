// A post's timeline: its rows, and the workspace event each one reports, written in the same transaction.
import type { Knex } from 'knex';
import type { ErrorBody } from '../domain/errors.ts';
import { newId } from '../domain/ids.ts';
import { workspaceEventRows, type EventType } from './events.ts';

export type EventKind =
  | 'created'
  | 'queued'
  | 'publishing'
  | 'live'
  | 'failed'
  | 'retried'
  | 'retriedByWorker'
  | 'cancelled'
  | 'rescheduled'
  | 'edited'
  | 'approvalRequested'
  | 'approved'
  | 'rejected';

/** A post's content fields as the contract names them (what an `edited` event changed). */
export type ContentField = 'text' | 'title' | 'tags' | 'mediaIds' | 'perPlatform';

/** What an event's sentence states, as fields (stored as JSON in `facts`), so no reader parses the message. */
export interface EventFacts {
  /** Why a post was cancelled, or why a waiting change was rejected without a person (`leftQueue`). */
  reason?: 'asked' | 'accountDisconnected' | 'needsApproval' | 'leftQueue';
  /** The content fields an edit changed. */
  changed?: ContentField[];
  /** The name of the person who approved or rejected. */
  by?: string;
  comment?: string;
  /** The decision was on a queued post's waiting change. */
  change?: boolean;
}

export interface NewEvent extends EventFacts {
  kind: EventKind;
  message?: string;
  error?: ErrorBody;
  notes?: string[];
  publishAt?: string | null;
}

export interface PostEventRecord extends EventFacts {
  id: string;
  kind: EventKind;
  at: string;
  message?: string;
  error?: ErrorBody;
  notes?: string[];
  publishAt?: string;
}

export function toEvent(row: Record<string, any>): PostEventRecord {
  return {
    id: row.id,
    kind: row.kind,
    at: row.at,
    ...(row.message ? { message: row.message } : {}),
    ...(row.error ? { error: JSON.parse(row.error) } : {}),
    ...(row.notes ? { notes: JSON.parse(row.notes) } : {}),
    ...(row.publish_at ? { publishAt: row.publish_at } : {}),
    ...(row.facts ? JSON.parse(row.facts) : {}),
  };
}

/** The timeline row of a request for approval; `wantedAt` null for as soon as approved. */
export const approvalRequestedEvent = (wantedAt: string | null): NewEvent => ({
  kind: 'approvalRequested',
  message: 'Waiting for approval by an owner or administrator.',
  publishAt: wantedAt,
});

/** Appends timeline rows; also used by the publishing worker, which acts on posts by id. */
export async function insertPostEvents(
  q: Knex,
  workspaceId: string,
  postId: string,
  events: NewEvent[],
  at: string,
): Promise<void> {
  if (!events.length) return;
  const rows = eventRows(
    events.map((event) => ({ workspaceId, postId, event })),
    at,
  );
  await q('post_events').insert(rows);
  await q('events').insert(eventsOfTimeline(rows));
}

/** The workspace event a timeline row reports (a person's retry queues the post again). */
const EVENT_OF_KIND: Record<EventKind, EventType> = {
  created: 'post.created',
  queued: 'post.queued',
  publishing: 'post.publishing',
  live: 'post.live',
  failed: 'post.failed',
  retried: 'post.queued',
  retriedByWorker: 'post.retried_by_worker',
  cancelled: 'post.cancelled',
  rescheduled: 'post.rescheduled',
  edited: 'post.updated',
  approvalRequested: 'post.approval_requested',
  approved: 'post.approved',
  rejected: 'post.rejected',
};

/** Events table rows for timeline rows, one each: written beside them, in the same transaction. */
export function eventsOfTimeline(rows: ReturnType<typeof eventRows>) {
  return rows.flatMap((r) =>
    workspaceEventRows([{ workspaceId: r.workspace_id, type: EVENT_OF_KIND[r.kind], objectId: r.post_id }], r.at),
  );
}

/** Timeline rows of several posts, as the post_events table stores them (the worker records a batch at once). */
export function eventRows(rows: { workspaceId: string; postId: string; event: NewEvent }[], at: string) {
  return rows.map(({ workspaceId, postId, event }) => {
    const { kind, message, error, notes, publishAt, ...facts } = event;
    return {
      id: newId('evt'),
      post_id: postId,
      workspace_id: workspaceId,
      kind,
      at,
      message: message ?? null,
      error: error ? JSON.stringify(error) : null,
      notes: notes ? JSON.stringify(notes) : null,
      publish_at: publishAt ?? null,
      facts: Object.keys(facts).length ? JSON.stringify(facts) : null,
    };
  });
}
