// API keys as the dashboard's keys page sees them: created and revoked by people, with the audit trail.
// Resolving a key to a credential stays in identity.ts, with the rest of authentication.
import type { Scope } from '../domain/credential.ts';
import { parseScopes } from '../domain/credential.ts';
import { notFound } from '../domain/errors.ts';
import type { ApiKeySummary } from '../domain/settingsShapes.ts';
import { recordAudit } from './audit.ts';
import type { Db } from './connect.ts';
import { createApiKey, revokeApiKey } from './identity.ts';

/** The workspace's working keys, newest first; revoked keys are gone from the list. */
export async function listApiKeys(db: Db, workspaceId: string): Promise<ApiKeySummary[]> {
  const rows = await db('api_keys')
    .join('users', 'users.id', 'api_keys.user_id')
    .where('api_keys.workspace_id', workspaceId)
    .whereNull('api_keys.revoked_at')
    .orderBy([
      { column: 'api_keys.created_at', order: 'desc' },
      { column: 'api_keys.id', order: 'desc' },
    ])
    .select('api_keys.*', 'users.name as user_name');
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.display_prefix,
    scopes: parseScopes(r.scopes),
    createdBy: { id: r.user_id, name: r.user_name },
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at ?? null,
  }));
}

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

export function revokeKeyAudited(db: Db, workspaceId: string, userId: string, keyId: string): Promise<void> {
  return db.transaction(async (trx) => {
    const row = await trx('api_keys')
      .where({ id: keyId, workspace_id: workspaceId })
      .whereNull('revoked_at')
      .first('name', 'display_prefix');
    if (!row || !(await revokeApiKey(trx, workspaceId, keyId))) throw notFound('API key', keyId);
    await recordAudit(trx, workspaceId, userId, 'key.revoked', { keyId, name: row.name, prefix: row.display_prefix });
  });
}
