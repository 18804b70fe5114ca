// The OAuth records (migration 0007): clients, codes, grants and tokens. Codes and tokens are random
// secrets stored as SHA-256 hashes; a grant is one person's consent for one client in one workspace.
import { DateTime } from 'luxon';
import type { Knex } from 'knex';
import type { Credential, Role, Scope } from '../../domain/credential.ts';
import { parseScopes } from '../../domain/credential.ts';
import { newId, randomBase62 } from '../../domain/ids.ts';
import type { Db } from '../../db/connect.ts';
import { CREDENTIAL_COLUMNS, revokeGrants, stampLastUse, toUser, toWorkspace } from '../../db/identity.ts';
import { nowIso } from '../../db/rows.ts';
import { sha256 } from '../../runtime/crypto.ts';

export const ACCESS_TOKEN_SECONDS = 3600;
const REFRESH_TOKEN_DAYS = 30;
const CODE_SECONDS = 600;
export const ACCESS_TOKEN_PREFIX = 'hlo_';
const REFRESH_TOKEN_PREFIX = 'hlr_';

export interface ClientRow {
  id: string;
  metadata: Record<string, unknown>;
  secretSealed: string | null;
  createdAt: string;
}

export interface GrantRow {
  id: string;
  clientId: string;
  userId: string;
  workspaceId: string;
  scopes: Scope[];
  resource: string;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const scopeText = (scopes: readonly Scope[]) => scopes.join(' ');
const parseScopeText = (text: string) => parseScopes(text.split(' ').join(','));

export async function insertClient(db: Db, id: string, metadata: Record<string, unknown>, secretSealed: string | null) {
  await db('oauth_clients').insert({
    id,
    metadata: JSON.stringify(metadata),
    secret_sealed: secretSealed,
    created_at: nowIso(),
  });
}

export async function findClient(db: Db, id: string): Promise<ClientRow | undefined> {
  const row = await db('oauth_clients').where({ id }).first();
  return (
    row && {
      id: row.id,
      metadata: JSON.parse(row.metadata),
      secretSealed: row.secret_sealed,
      createdAt: row.created_at,
    }
  );
}

export async function createCode(
  db: Db,
  input: Omit<GrantRow, 'id'> & { redirectUri: string; codeChallenge: string },
): Promise<string> {
  const code = randomBase62(43);
  await db('oauth_codes').insert({
    code_hash: sha256(code),
    client_id: input.clientId,
    user_id: input.userId,
    workspace_id: input.workspaceId,
    scopes: scopeText(input.scopes),
    redirect_uri: input.redirectUri,
    code_challenge: input.codeChallenge,
    resource: input.resource,
    expires_at: DateTime.utc().plus({ seconds: CODE_SECONDS }).toISO(),
  });
  return code;
}

export interface CodeRow extends Omit<GrantRow, 'id'> {
  redirectUri: string;
  codeChallenge: string;
  expired: boolean;
  grantId: string | null;
}

export async function findCode(db: Db, code: string): Promise<CodeRow | undefined> {
  const row = await db('oauth_codes')
    .where({ code_hash: sha256(code) })
    .first();
  return (
    row && {
      clientId: row.client_id,
      userId: row.user_id,
      workspaceId: row.workspace_id,
      scopes: parseScopeText(row.scopes),
      resource: row.resource,
      redirectUri: row.redirect_uri,
      codeChallenge: row.code_challenge,
      expired: row.expires_at <= nowIso(),
      grantId: row.grant_id ?? null,
    }
  );
}

async function issueTokens(db: Db, grant: Pick<GrantRow, 'id' | 'scopes'>): Promise<IssuedTokens> {
  const access = ACCESS_TOKEN_PREFIX + randomBase62(43);
  const refresh = REFRESH_TOKEN_PREFIX + randomBase62(43);
  const now = DateTime.utc();
  await db('oauth_tokens').insert([
    {
      token_hash: sha256(access),
      grant_id: grant.id,
      kind: 'access',
      created_at: now.toISO(),
      expires_at: now.plus({ seconds: ACCESS_TOKEN_SECONDS }).toISO(),
    },
    {
      token_hash: sha256(refresh),
      grant_id: grant.id,
      kind: 'refresh',
      created_at: now.toISO(),
      expires_at: now.plus({ days: REFRESH_TOKEN_DAYS }).toISO(),
    },
  ]);
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refresh,
    scope: scopeText(grant.scopes),
  };
}

/**
 * Exchanges a code once: the first exchange makes the grant and its tokens. A second exchange of the same code
 * (someone replaying it) revokes that grant and gets nothing.
 */
export async function exchangeCode(
  db: Db,
  code: string,
  grant: Omit<GrantRow, 'id'>,
): Promise<IssuedTokens | undefined> {
  const grantId = newId('grt');
  const claimed = await db('oauth_codes')
    .where({ code_hash: sha256(code) })
    .whereNull('grant_id')
    .update({ grant_id: grantId });
  if (claimed !== 1) {
    const row = await db('oauth_codes')
      .where({ code_hash: sha256(code) })
      .first('grant_id');
    if (row?.grant_id) await revokeGrant(db, row.grant_id);
    return undefined;
  }
  await db('oauth_grants').insert({
    id: grantId,
    client_id: grant.clientId,
    user_id: grant.userId,
    workspace_id: grant.workspaceId,
    scopes: scopeText(grant.scopes),
    resource: grant.resource,
    created_at: nowIso(),
  });
  return issueTokens(db, { id: grantId, scopes: grant.scopes });
}

export type RefreshOutcome = { tokens: IssuedTokens } | { problem: 'unknown' | 'expired' | 'reused' | 'other_client' };

/**
 * Rotates a refresh token: it works once; its reuse revokes the whole grant (someone else holds a copy). Like an
 * access token, it works only while the person is a member of the grant's workspace.
 */
export async function rotateRefreshToken(db: Db, clientId: string, refreshToken: string): Promise<RefreshOutcome> {
  const hash = sha256(refreshToken);
  const row = await db('oauth_tokens')
    .join('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .join('members', membership)
    .where({ 'oauth_tokens.token_hash': hash, 'oauth_tokens.kind': 'refresh' })
    .whereNull('oauth_grants.revoked_at')
    .first(
      'oauth_tokens.expires_at',
      'oauth_tokens.used_at',
      'oauth_grants.id as grant_id',
      'oauth_grants.client_id',
      'oauth_grants.scopes',
    );
  if (!row) return { problem: 'unknown' };
  if (row.client_id !== clientId) return { problem: 'other_client' };
  const claimed = await db('oauth_tokens')
    .where({ token_hash: hash })
    .whereNull('used_at')
    .update({ used_at: nowIso() });
  if (claimed !== 1) {
    await revokeGrant(db, row.grant_id);
    return { problem: 'reused' };
  }
  if (row.expires_at <= nowIso()) return { problem: 'expired' };
  return { tokens: await issueTokens(db, { id: row.grant_id, scopes: parseScopeText(row.scopes) }) };
}

export async function revokeGrant(db: Db, grantId: string): Promise<void> {
  await revokeGrants(db, { id: grantId });
}

/** RFC 7009: a refresh token revokes its grant; an access token only itself. Unknown tokens change nothing. */
export async function revokeToken(db: Db, clientId: string, token: string): Promise<void> {
  const row = await db('oauth_tokens')
    .join('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .where({ 'oauth_tokens.token_hash': sha256(token) })
    .first('oauth_tokens.kind', 'oauth_grants.id', 'oauth_grants.client_id');
  if (!row || row.client_id !== clientId) return;
  if (row.kind === 'refresh') await revokeGrant(db, row.id);
  else
    await db('oauth_tokens')
      .where({ token_hash: sha256(token) })
      .delete();
}

/** Joins a grant to its person's membership of its workspace: no row once they left it. */
function membership(this: Knex.JoinClause) {
  this.on('members.user_id', 'oauth_grants.user_id').andOn('members.workspace_id', 'oauth_grants.workspace_id');
}

/** An access token to its credential, when it is live, its grant stands and the person is still a member. */
export async function credentialForAccessToken(
  db: Db,
  token: string,
  resource: string,
): Promise<Credential | undefined> {
  if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return undefined;
  const row = await db('oauth_tokens')
    .join('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .join('oauth_clients', 'oauth_clients.id', 'oauth_grants.client_id')
    .join('members', membership)
    .join('workspaces', 'workspaces.id', 'oauth_grants.workspace_id')
    .join('users', 'users.id', 'oauth_grants.user_id')
    .where({
      'oauth_tokens.token_hash': sha256(token),
      'oauth_tokens.kind': 'access',
      'oauth_grants.resource': resource,
    })
    .where('oauth_tokens.expires_at', '>', nowIso())
    .whereNull('oauth_grants.revoked_at')
    .first(
      'oauth_grants.id as grant_id',
      'oauth_grants.scopes',
      'oauth_grants.last_used_at',
      'oauth_clients.metadata',
      'members.role',
      ...CREDENTIAL_COLUMNS,
    );
  if (!row) return undefined;
  await stampLastUse(db, 'oauth_grants', row.grant_id, row.last_used_at);
  return {
    workspace: toWorkspace(row),
    user: toUser(row),
    scopes: parseScopeText(row.scopes),
    via: 'oauth',
    name: clientName(JSON.parse(row.metadata)),
    role: row.role as Role,
  };
}

export function clientName(metadata: Record<string, unknown>): string {
  return typeof metadata.client_name === 'string' && metadata.client_name.trim()
    ? metadata.client_name.trim()
    : 'Unnamed MCP client';
}

export interface GrantView {
  id: string;
  clientName: string;
  scopes: Scope[];
  createdAt: string;
  lastUsedAt: string | null;
}

/** The person's standing grants in a workspace, newest first (the dashboard's "connected agents"). */
export async function listGrants(db: Db, userId: string, workspaceId: string): Promise<GrantView[]> {
  const rows = await db('oauth_grants')
    .join('oauth_clients', 'oauth_clients.id', 'oauth_grants.client_id')
    .where({ 'oauth_grants.user_id': userId, 'oauth_grants.workspace_id': workspaceId })
    .whereNull('oauth_grants.revoked_at')
    .orderBy('oauth_grants.created_at', 'desc')
    .select(
      'oauth_grants.id',
      'oauth_grants.scopes',
      'oauth_grants.created_at',
      'oauth_grants.last_used_at',
      'oauth_clients.metadata',
    );
  return rows.map((r) => ({
    id: r.id,
    clientName: clientName(JSON.parse(r.metadata)),
    scopes: parseScopeText(r.scopes),
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at ?? null,
  }));
}

/** Revokes one of the person's grants in the workspace; false when there is no such standing grant. */
export async function revokeOwnGrant(db: Db, userId: string, workspaceId: string, grantId: string): Promise<boolean> {
  const row = await db('oauth_grants')
    .where({ id: grantId, user_id: userId, workspace_id: workspaceId })
    .whereNull('revoked_at')
    .first('id');
  if (!row) return false;
  await revokeGrant(db, grantId);
  return true;
}
