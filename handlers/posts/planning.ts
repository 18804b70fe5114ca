// What a plan, a create and an edit share: targets and files read once, the network checks, their 422.
import { DateTime } from 'luxon';
import type { MediaRecord } from '../../db/mediaData.ts';
import type { PostRecord } from '../../db/postRecords.ts';
import type { WorkspaceData } from '../../db/workspaceData.ts';
import type { Credential } from '../../domain/credential.ts';
import { ApiError, invalidRequest, notFound } from '../../domain/errors.ts';
import {
  planRows,
  settingFileIds,
  type PlannedRow,
  type PostBody,
  type TargetAccount,
} from '../../domain/planPosts.ts';
import { resolveWhen, type ResolvedWhen, type When } from '../../domain/when.ts';
import type { MediaFacts } from '../../networks/rules.ts';
import type { Services } from '../../runtime/services.ts';
import { withAccountIssues } from '../networkAccount.ts';

interface Targets {
  accountIds?: string[];
  groupId?: string;
}

function monthIn(zone: string, now: DateTime): string {
  return now.setZone(zone).toFormat('yyyy-MM');
}

async function targetAccounts(data: WorkspaceData, targets: Targets): Promise<TargetAccount[]> {
  let ids = targets.accountIds ?? [];
  if (targets.groupId !== undefined) {
    const group = await data.groups.get(targets.groupId);
    if (!group) throw notFound('group', targets.groupId);
    if (group.accountIds.length === 0)
      throw invalidRequest(
        `Group ${targets.groupId} has no accounts.`,
        'Add accounts to the group, or target accountIds.',
      );
    ids = group.accountIds;
  }
  const all = new Map((await data.accounts.list()).map((a) => [a.id, a]));
  return ids.map((id) => {
    const account = all.get(id);
    if (!account) throw notFound('account', id);
    return account;
  });
}

const toFacts = (m: MediaRecord): MediaFacts => ({
  id: m.id,
  status: m.status,
  kind: m.kind,
  mime: m.mime,
  size: m.size,
  width: m.width,
  height: m.height,
  durationSeconds: m.durationSeconds,
  bytesDeletedAt: m.bytesDeletedAt,
});

async function mediaFacts(data: WorkspaceData, ids: string[]): Promise<MediaFacts[]> {
  const found = new Map((await data.media.getMany(ids)).map((m) => [m.id, m]));
  return ids.map((id) => {
    const m = found.get(id);
    if (!m) throw notFound('media', id);
    return toFacts(m);
  });
}

/**
 * Each account's next free posting time now (a create or a move takes it again under the workspace lock); post
 * `except`, being moved, leaves its own time free for itself.
 */
export async function queueTimes(
  data: WorkspaceData,
  zone: string,
  now: DateTime,
  accountIds: string[],
  except?: string,
) {
  const take = await data.schedules.picker(accountIds, zone, now.toISO()!, except);
  const at = new Map<string, DateTime>();
  for (const id of new Set(accountIds)) {
    const next = take(id);
    if (next !== undefined) at.set(id, DateTime.fromMillis(next, { zone: 'utc' }));
  }
  return { kind: 'queue' as const, at };
}

/** Everything a plan, a create or an edit needs, read once; bad references answer 404 here. */
export async function prepare(
  cred: Credential,
  data: WorkspaceData,
  services: Services,
  body: PostBody & { targets: Targets; mediaIds: string[]; when: When | ResolvedWhen },
) {
  const now = DateTime.fromMillis(services.clock.now(), { zone: 'utc' });
  // Files named by settings are looked up in this workspace only: one missing or foreign is a row issue, not a 404.
  // Each lookup is its own async call: a throw while building the list would leave the others' rejections unhandled.
  const settingFiles = async () => (await data.media.getMany(settingFileIds(body))).map(toFacts);
  const [accounts, media, files] = await Promise.all([
    targetAccounts(data, body.targets),
    mediaFacts(data, body.mediaIds),
    settingFiles(),
  ]);
  const when =
    body.when === 'queue'
      ? await queueTimes(
          data,
          cred.workspace.tz,
          now,
          accounts.map((a) => a.id),
        )
      : typeof body.when === 'object' && 'kind' in body.when
        ? body.when
        : resolveWhen(body.when, now, cred.workspace.tz);
  const rows = await withAccountIssues(
    services,
    data,
    accounts,
    media,
    planRows({ accounts, media, files, body, when }),
  );
  return { now, accounts, rows, when, files, month: monthIn(cred.workspace.tz, now) };
}

/**
 * A write refuses a file named by a setting (YouTube's `thumbnailMediaId`) that is not this workspace's, as it
 * refuses one of `mediaIds`: a draft, saved unchecked, may hold another workspace's id. A plan reports it.
 */
export function assertSettingFiles(body: PostBody, files: MediaFacts[]): void {
  const here = new Set(files.map((f) => f.id));
  const missing = settingFileIds(body).find((id) => !here.has(id));
  if (missing) throw notFound('media', missing);
}

export function wireRow(row: PlannedRow) {
  return {
    accountId: row.accountId,
    platform: row.platform,
    publishAt: row.publishAt,
    ok: row.ok,
    issues: row.issues,
    settings: row.content.perPlatform,
  };
}

/** 422 with the plan rows; `change` is what was refused (a create, or an edit of one post). */
export function checksFailed(rows: PlannedRow[], change: 'create' | 'edit' = 'create'): ApiError {
  const failing = rows.filter((r) => !r.ok);
  return new ApiError(
    422,
    'checks_failed',
    `${failing.length} of ${rows.length} posts do not pass the network checks; ` +
      `${change === 'create' ? 'nothing was created' : 'nothing was changed'}.`,
    change === 'create'
      ? "Fix what each row's issues name (or remove those accounts), plan again, then create."
      : "Fix what the row's issues name, then send the change again.",
    { rows: rows.map(wireRow) },
  );
}

/** A stored post planned again as it is, at `when`: its row and the month it would count in. */
export async function replanned(
  cred: Credential,
  data: WorkspaceData,
  services: Services,
  post: PostRecord,
  when: ResolvedWhen,
) {
  const { rows, month } = await prepare(cred, data, services, {
    targets: { accountIds: [post.accountId] },
    mediaIds: post.mediaIds,
    text: post.text,
    title: post.title ?? undefined,
    tags: post.tags,
    perPlatform: { [post.platform]: post.perPlatform },
    when,
  });
  return { row: rows[0]!, month };
}
