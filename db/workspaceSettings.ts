// A workspace's own settings: name, slug, time zone and currency, changed with an audit record.
import type { Workspace } from '../domain/credential.ts';
import { recordAudit } from './audit.ts';
import { isUniqueViolation, type Db } from './connect.ts';
import { lockWorkspace } from './locks.ts';
import { toCount } from './rows.ts';

export type WorkspaceSettings = Pick<Workspace, 'name' | 'slug' | 'tz' | 'currency'>;
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
    const before = await trx('workspaces').where({ id: workspaceId }).first('name', 'slug', 'tz', 'currency');
    if (
      changes.slug &&
      changes.slug !== before.slug &&
      (await trx('workspaces').where({ slug: changes.slug }).first('id'))
    ) {
      return { slugTaken: true };
    }
    const changed = Object.fromEntries(
      Object.entries(changes)
        .filter(([field, value]) => value !== undefined && value !== before[field])
        .map(([field, value]) => [field, { from: before[field], to: value }]),
    );
    if (Object.keys(changed).length) {
      await trx('workspaces')
        .where({ id: workspaceId })
        .update(Object.fromEntries(Object.entries(changed).map(([f, c]) => [f, c.to])));
      await recordAudit(trx, workspaceId, userId, 'workspace.updated', changed);
    }
    const queued = await trx('posts').where({ workspace_id: workspaceId, status: 'queued' }).count({ n: '*' }).first();
    return { workspace: { ...before, ...changes }, queuedPosts: toCount(queued?.n) };
  });
  // Another workspace may take the slug between the check above and the update: its unique index refuses it then.
  return update.catch((err: unknown) => {
    if (changes.slug && isUniqueViolation(err)) return { slugTaken: true };
    throw err;
  });
}
