// A workspace's own settings: name, slug, time zone, currency and whose posts need approval, changed with an audit
// record.
import { readApprovalSetting } from '../domain/approvals.ts';
import type { Workspace } from '../domain/credential.ts';
import { recordAudit } from './audit.ts';
import { isUniqueViolation, type Db } from './connect.ts';
import { lockWorkspace } from './locks.ts';
import { toCount } from './rows.ts';

export type WorkspaceSettings = Pick<Workspace, 'name' | 'slug' | 'tz' | 'currency' | 'approvalRequiredFor'>;

/** Each setting's column; approvalRequiredFor is stored as JSON text. */
const COLUMN: Record<keyof WorkspaceSettings, string> = {
  name: 'name',
  slug: 'slug',
  tz: 'tz',
  currency: 'currency',
  approvalRequiredFor: 'approval_required_for',
};
const stored = (value: unknown) => (Array.isArray(value) ? JSON.stringify(value) : value);
type SettingsOutcome = { workspace: WorkspaceSettings; queuedPosts: number } | { slugTaken: true };

/**
 * Applies the changes; answers the workspace as it now is and how many queued posts it has, which keep
 * their absolute instants whatever the zone becomes (posts store UTC instants; the zone only shows them).
 */
export function updateWorkspaceSettings(
  db: Db,
  workspaceId: string,
  userId: string,
  changes: Partial<WorkspaceSettings>,
): Promise<SettingsOutcome> {
  const update = db.transaction<SettingsOutcome>(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    const row = await trx('workspaces').where({ id: workspaceId }).first(Object.values(COLUMN));
    const before: Record<string, unknown> = Object.fromEntries(
      Object.entries(COLUMN).map(([field, column]) => [field, row[column]]),
    );
    before.approvalRequiredFor = readApprovalSetting(row.approval_required_for);
    if (
      changes.slug &&
      changes.slug !== before.slug &&
      (await trx('workspaces').where({ slug: changes.slug }).first('id'))
    ) {
      return { slugTaken: true };
    }
    const changed = Object.fromEntries(
      Object.entries(changes)
        .filter(([field, value]) => value !== undefined && stored(value) !== stored(before[field]))
        .map(([field, value]) => [field, { from: before[field], to: value }]),
    );
    if (Object.keys(changed).length) {
      await trx('workspaces')
        .where({ id: workspaceId })
        .update(
          Object.fromEntries(
            Object.entries(changed).map(([f, c]) => [COLUMN[f as keyof WorkspaceSettings], stored(c.to)]),
          ),
        );
      await recordAudit(trx, workspaceId, userId, 'workspace.updated', changed);
    }
    const queued = await trx('posts').where({ workspace_id: workspaceId, status: 'queued' }).count({ n: '*' }).first();
    return { workspace: { ...(before as WorkspaceSettings), ...changes }, queuedPosts: toCount(queued?.n) };
  });
  // Another workspace may take the slug between the check above and the update: its unique index refuses it then.
  return update.catch((err: unknown) => {
    if (changes.slug && isUniqueViolation(err)) return { slugTaken: true };
    throw err;
  });
}
