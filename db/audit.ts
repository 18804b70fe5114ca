// The audit trail of a workspace: who did what, when (keys, members, plan, accounts). Written in the
// transaction of the change it records, so the trail and the change cannot disagree.
import type { Knex } from 'knex';
import { newId } from '../domain/ids.ts';
import type { AuditAction, AuditEvent } from '../domain/settingsShapes.ts';
import type { Db } from './connect.ts';
import { nowIso } from './rows.ts';

export async function recordAudit(
  q: Knex,
  workspaceId: string,
  userId: string | null,
  action: AuditAction,
  detail: Record<string, unknown>,
): Promise<void> {
  await q('audit_events').insert({
    id: newId('aud'),
    workspace_id: workspaceId,
    at: nowIso(),
    user_id: userId,
    action,
    detail: JSON.stringify(detail),
  });
}

/** Newest first; `before` (an event's `at`) pages back. */
export async function listAudit(db: Db, workspaceId: string, limit: number, before?: string): Promise<AuditEvent[]> {
  const rows = await db('audit_events')
    .leftJoin('users', 'users.id', 'audit_events.user_id')
    .where('audit_events.workspace_id', workspaceId)
    .modify((q) => {
      if (before) q.where('audit_events.at', '<', before);
    })
    .orderBy([
      { column: 'audit_events.at', order: 'desc' },
      { column: 'audit_events.id', order: 'desc' },
    ])
    .limit(limit)
    .select('audit_events.*', 'users.name as user_name', 'users.email as user_email');
  return rows.map((r: Record<string, string>) => ({
    id: r.id!,
    at: r.at!,
    action: r.action as AuditAction,
    actor: r.user_id ? { id: r.user_id, name: r.user_name ?? '(deleted user)', email: r.user_email ?? null } : null,
    detail: JSON.parse(r.detail!),
  }));
}
