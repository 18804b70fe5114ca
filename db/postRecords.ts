// A post as stored and as read: its records, and its rows mapped both ways (its approval's columns too).
import type { Knex } from 'knex';
import type { ErrorBody } from '../domain/errors.ts';
import type { PostStatus } from '../domain/statusLine.ts';
import type { Platform } from '../networks/rules.ts';
import { toBool } from './rows.ts';

export type CreatedVia = 'api' | 'dashboard' | 'mcp';

/** A draft's approval as stored: who asked (a user id), when, the time wanted; a rejection's decision. */
export interface StoredApproval {
  state: 'pending' | 'rejected';
  requestedBy: string;
  requestedAt: string;
  /** null: as soon as it is approved. */
  wantedAt: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  comment: string | null;
}

export type ApprovalRecord = StoredApproval & { requesterName: string };

/**
 * A queued post's change waiting for approval (its `approval` says who asked and when): the content fields it sets,
 * and `publishAt` when it moves the post (null: publish now; absent: the post keeps its time).
 */
export type StoredChange = ContentPatch & { publishAt?: string | null };

export interface PostRecord {
  id: string;
  accountId: string;
  accountName: string;
  platform: Platform;
  status: PostStatus;
  publishAt: string | null;
  text: string;
  title: string | null;
  tags: string[];
  mediaIds: string[];
  perPlatform: Record<string, unknown>;
  /** Shared by the posts of one creation request. */
  batchId: string;
  createdVia: CreatedVia;
  externalUrl: string | null;
  /** The post's id on its network, once live. */
  externalId: string | null;
  error: ErrorBody | null;
  quotaMonth: string | null;
  liveAt: string | null;
  /** When the worker tries again after a temporary failure; null unless a worker retry is scheduled. */
  nextAttemptAt: string | null;
  /** A queued post the network took and is still reviewing: since when (ISO instant). */
  reviewSince: string | null;
  /** A live post the network shows to fewer people than it chose: the sentence that says so. */
  liveNote: string | null;
  /** A live post the network shows to its account only, whatever was asked (an unaudited YouTube project's upload). */
  shownPrivately: boolean;
  /** A draft's pending or rejected approval, or who asked for a queued post's `pendingChange`; null otherwise. */
  approval: ApprovalRecord | null;
  /** A queued post's change waiting for approval beside it; null otherwise. */
  pendingChange: StoredChange | null;
  createdAt: string;
  updatedAt: string;
}

/** A post to create: its content and target, queued or draft. */
export type NewPost = Pick<
  PostRecord,
  'accountId' | 'platform' | 'publishAt' | 'text' | 'title' | 'tags' | 'mediaIds' | 'perPlatform'
> & { status: 'queued' | 'draft'; approval?: StoredApproval };

/** What a person may change in a post's content (an edit). */
export type ContentPatch = Partial<Pick<PostRecord, 'text' | 'title' | 'tags' | 'mediaIds' | 'perPlatform'>>;

/** Fields a person's action may change besides the state, which the state table sets. */
export type PostPatch = Partial<Pick<PostRecord, 'publishAt' | 'quotaMonth' | 'error'>> &
  ContentPatch & { approval?: StoredApproval | null; pendingChange?: StoredChange | null };

export const COLUMNS = [
  'posts.*',
  'accounts.display_name as account_name',
  'requester.name as approval_requester_name',
];

function toApproval(row: Record<string, any>): ApprovalRecord | null {
  if (!row.approval_state) return null;
  return {
    state: row.approval_state,
    requestedBy: row.approval_requested_by,
    requesterName: row.approval_requester_name ?? 'a removed person',
    requestedAt: row.approval_requested_at,
    wantedAt: row.approval_wanted_at ?? null,
    decidedBy: row.approval_decided_by ?? null,
    decidedAt: row.approval_decided_at ?? null,
    comment: row.approval_comment ?? null,
  };
}

export function approvalColumns(approval: StoredApproval | null | undefined): Record<string, unknown> {
  return {
    approval_state: approval?.state ?? null,
    approval_requested_by: approval?.requestedBy ?? null,
    approval_requested_at: approval?.requestedAt ?? null,
    approval_wanted_at: approval?.wantedAt ?? null,
    approval_decided_by: approval?.decidedBy ?? null,
    approval_decided_at: approval?.decidedAt ?? null,
    approval_comment: approval?.comment ?? null,
  };
}

/** A failed post's error; `networkMessage`, the network's own words, when a network refused. */
const storedError = (row: Record<string, any>): ErrorBody => ({
  code: row.error_code,
  message: row.error_message,
  hint: row.error_hint,
  ...(row.error_network_message ? { networkMessage: row.error_network_message } : {}),
});

export function toPost(row: Record<string, any>): PostRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    platform: row.platform,
    status: row.status,
    publishAt: row.publish_at ?? null,
    text: row.text,
    title: row.title ?? null,
    tags: JSON.parse(row.tags),
    mediaIds: JSON.parse(row.media_ids),
    perPlatform: JSON.parse(row.per_platform),
    batchId: row.batch_id,
    createdVia: row.created_via,
    externalUrl: row.external_url ?? null,
    externalId: row.external_id ?? null,
    error: row.error_code ? storedError(row) : null,
    quotaMonth: row.quota_month ?? null,
    liveAt: row.live_at ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    nextAttemptAt: row.status === 'queued' && row.worker_retries > 0 && row.due_at ? row.due_at : null,
    reviewSince: row.status === 'queued' ? (row.review_since ?? null) : null,
    liveNote: row.status === 'live' ? (row.live_note ?? null) : null,
    shownPrivately: row.status === 'live' && toBool(row.shown_privately),
    approval: toApproval(row),
    pendingChange: row.pending_change ? JSON.parse(row.pending_change) : null,
  };
}

export function patchColumns(patch: PostPatch): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  if ('publishAt' in patch) cols.publish_at = patch.publishAt;
  if ('quotaMonth' in patch) cols.quota_month = patch.quotaMonth;
  if ('error' in patch) {
    cols.error_code = patch.error?.code ?? null;
    cols.error_message = patch.error?.message ?? null;
    cols.error_hint = patch.error?.hint ?? null;
    cols.error_network_message = patch.error?.networkMessage ?? null;
  }
  if ('text' in patch) cols.text = patch.text;
  if ('title' in patch) cols.title = patch.title;
  if ('tags' in patch) cols.tags = JSON.stringify(patch.tags);
  if ('mediaIds' in patch) cols.media_ids = JSON.stringify(patch.mediaIds);
  if ('perPlatform' in patch) cols.per_platform = JSON.stringify(patch.perPlatform);
  if ('approval' in patch) Object.assign(cols, approvalColumns(patch.approval));
  if ('pendingChange' in patch) cols.pending_change = patch.pendingChange ? JSON.stringify(patch.pendingChange) : null;
  return cols;
}

/** One workspace's posts, each with its account's name and the name of whoever asked for its approval. */
export const workspacePosts = (q: Knex, workspaceId: string) =>
  q('posts')
    .join('accounts', 'accounts.id', 'posts.account_id')
    .leftJoin('users as requester', 'requester.id', 'posts.approval_requested_by')
    .where('posts.workspace_id', workspaceId);
