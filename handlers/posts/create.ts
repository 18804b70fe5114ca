// Plan posts (no side effects) and create them (confirm: true): queued, drafts, or drafts awaiting approval.
import type { NewPost } from '../../db/postRecords.ts';
import { needsApproval } from '../../domain/approvals.ts';
import { confirmRequired } from '../../domain/errors.ts';
import { planTable, queueEmpty, type PlannedRow, type PostBody } from '../../domain/planPosts.ts';
import { PLANS } from '../../domain/plans.ts';
import { assertCanCreatePosts } from '../../domain/quotas.ts';
import type { ResolvedWhen } from '../../domain/when.ts';
import { isoNow } from '../../runtime/clock.ts';
import { mailApprovers } from '../approvalMail.ts';
import type { Handler } from '../types.ts';
import { pendingApproval } from './approvals.ts';
import { assertSettingFiles, checksFailed, prepare, wireRow } from './planning.ts';
import { wirePost } from './wire.ts';

/** The time a request wants: its instant, or null for `now` (as soon as approved). */
const wantedAt = (when: ResolvedWhen, row: PlannedRow) => (when.kind === 'now' ? null : row.publishAt);

const APPROVAL_LINE =
  'These posts need approval: they are saved as drafts awaiting an owner or administrator, and nothing is ' +
  'published until one approves them in the dashboard.';

export const planPost: Handler<'planPost'> = async ({ cred, data, body, via, services }) => {
  const { accounts, rows, when, month } = await prepare(cred, data, services, body as never);
  const awaitingApproval = when.kind !== 'draft' && needsApproval(cred, via);
  const status = when.kind === 'draft' || awaitingApproval ? 'draft' : 'queued';
  const quota = {
    used: await data.posts.monthUsed(month),
    limit: PLANS[cred.workspace.plan].postsPerMonth,
    requested: status === 'queued' ? rows.length : 0,
  };
  return {
    status: 200,
    body: {
      ok: rows.every((r) => r.ok),
      status,
      awaitingApproval,
      rows: rows.map(wireRow),
      quota,
      table: planTable(rows, accounts, when, cred.workspace.tz, quota) + (awaitingApproval ? `\n${APPROVAL_LINE}` : ''),
    },
  };
};

export const createPosts: Handler<'createPosts'> = async ({ cred, data, body, via, services, afterCommit }) => {
  if (body.confirm !== true) throw confirmRequired('Creating posts', 'createPosts');
  const { now, accounts, rows, when, files, month } = await prepare(cred, data, services, body as never);
  assertSettingFiles(body as PostBody, files);
  // A post awaiting approval is a draft that asked for a time: it must pass as a queued one would.
  const awaitingApproval = when.kind !== 'draft' && needsApproval(cred, via);
  const status = when.kind === 'draft' || awaitingApproval ? 'draft' : 'queued';
  // A draft is saved as it is; its checks run again when it gets a time.
  if (when.kind !== 'draft' && rows.some((r) => !r.ok)) throw checksFailed(rows);
  const asked = isoNow(services.clock);
  const posts: NewPost[] = rows.map((row) => ({
    accountId: row.accountId,
    platform: row.platform,
    status,
    publishAt: awaitingApproval ? null : row.publishAt,
    ...(awaitingApproval ? { approval: pendingApproval(cred.user.id, asked, wantedAt(when, row)) } : {}),
    text: row.content.text,
    title: row.content.title,
    tags: row.content.tags,
    mediaIds: body.mediaIds,
    perPlatform: row.content.perPlatform,
  }));
  const created = await data.posts.create({
    posts,
    createdVia: via,
    month,
    guard: (counts) =>
      assertCanCreatePosts(cred.workspace.plan, counts, status === 'queued' ? posts.length : 0, now.toMillis()),
    // The plan's queue times were free when read; the create takes them again under the workspace lock.
    ...(when.kind === 'queue' && status === 'queued'
      ? {
          queue: {
            zone: cred.workspace.tz,
            full: (accountId: string) =>
              checksFailed(
                rows.map((r) =>
                  r.accountId === accountId
                    ? { ...r, ok: false, issues: [queueEmpty(accounts.find((a) => a.id === accountId)!)] }
                    : r,
                ),
              ),
          },
        }
      : {}),
  });
  if (awaitingApproval) afterCommit(() => mailApprovers(services, cred, created));
  return {
    status: 201,
    body: {
      posts: created.map((p) => {
        const w = wirePost(p, cred.workspace.tz);
        return {
          id: w.id,
          status: w.status,
          statusLine: w.statusLine,
          ...(w.approval ? { approval: w.approval } : {}),
        };
      }),
    },
  };
};
