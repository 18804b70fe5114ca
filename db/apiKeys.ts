// API keys as the dashboard's keys page sees them: created and revoked by people, with the audit trail.
// Resolving a key to a credential stays in identity.ts, with the rest of authentication.
import type { Scope } from '../domain/credential.ts';
import { recordAudit } from './audit.ts';
import type { Db } from './connect.ts';
import { createApiKey, revokeApiKey } from './identity.ts';

export function createKeyAudited(
  db: Db,
  input: { workspaceId: string; userId: string; name: string; scopes: Scope[] },
) {
  return db.transaction(async (trx) => {
    const created = await createApiKey(trx, input);
    const { display_prefix: prefix } = await trx('api_keys').where({ id: created.id }).first('display_prefix');
    await recordAudit(trx, input.workspaceId, input.userId, 'key.created', {
      keyId: created.id,
      name: input.name,
      prefix,
      scopes: input.scopes,
    });
    return created;
  });
}

/** Revokes a key of the workspace, recorded in the audit trail; false when it has no such live key. */
export function revokeKeyAudited(db: Db, workspaceId: string, userId: string, keyId: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const row = await trx('api_keys')
      .where({ id: keyId, workspace_id: workspaceId })
      .whereNull('revoked_at')
      .first('name', 'display_prefix');
    if (!row || !(await revokeApiKey(trx, workspaceId, keyId))) return false;
    await recordAudit(trx, workspaceId, userId, 'key.revoked', { keyId, name: row.name, prefix: row.display_prefix });
    return true;
  });
}
