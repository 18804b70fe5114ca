// Workspaces, users, members, API keys and sessions: the records that authentication reads before any
// workspace is known, so these queries are not workspace-scoped (everything in workspaceData.ts is).
import type { Knex } from 'knex';
import { DateTime } from 'luxon';
import type { Credential, Role, Scope, User, Workspace } from '../domain/credential.ts';
import { parseScopes } from '../domain/credential.ts';
import { isDiskFull } from '../domain/errors.ts';
import { readApprovalSetting } from '../domain/approvals.ts';
import { newId, randomBase62 } from '../domain/ids.ts';
import type { PlanName } from '../domain/plans.ts';
import type { ApiKeySummary } from '../domain/settingsShapes.ts';
import { sha256 } from '../runtime/crypto.ts';
import { isPostgres, type Db } from './connect.ts';
import { nowIso } from './rows.ts';

export const API_KEY_PREFIX = 'hld_';
const SESSION_DAYS = 14;

interface WorkspaceRow {
  id: string;
  slug: string;
  name: string;
  plan: string;
  currency: string;
  tz: string;
  approval_required_for: string;
}

/** The workspace and user columns every credential query selects (read back by toWorkspace and toUser). */
export const CREDENTIAL_COLUMNS = [
  'workspaces.id',
  'workspaces.slug',
  'workspaces.name',
  'workspaces.plan',
  'workspaces.currency',
  'workspaces.tz',
  'workspaces.approval_required_for',
  'users.id as user_id',
  'users.name as user_name',
  'users.email as user_email',
];

export function toWorkspace(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    plan: row.plan as PlanName,
    currency: row.currency,
    tz: row.tz,
    approvalRequiredFor: readApprovalSetting(row.approval_required_for),
  };
}

/** The user columns a credential query selects as user_id, user_name, user_email. */
export function toUser(row: { user_id: string; user_name: string; user_email: string | null }): User {
  return { id: row.user_id, name: row.user_name, email: row.user_email ?? null };
}

function slugify(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return base || 'workspace';
}

export interface NewWorkspace {
  name: string;
  plan: PlanName;
  tz: string;
  currency?: string;
  email?: string | null;
  userName?: string;
  /** A person signing up: the email must be new (else EmailTaken), and their password comes with the account. */
  passwordHash?: string;
  /** Only while no account exists (SIGNUP unset: the first sign-up claims the instance); else NotFirstAccount. */
  onlyFirstAccount?: boolean;
}

/** A sign-up that had to be the instance's first account came after another (perhaps one a moment before). */
export class NotFirstAccount extends Error {}

/** A sign-up's email belongs to someone already (perhaps since a sign-up beside it, a moment before). */
export class EmailTaken extends Error {}

/** Inserts `row` unless its `unique` column's value is taken; whether it did. */
async function insertUnlessTaken(trx: Db, table: string, row: Record<string, unknown>, unique: string) {
  return (await trx(table).insert(row).onConflict(unique).ignore().returning('id')).length > 0;
}

export async function createWorkspace(db: Db, input: NewWorkspace): Promise<{ workspaceId: string; userId: string }> {
  return db.transaction(async (trx) => {
    if (input.onlyFirstAccount) {
      // Two first sign-ups side by side must not both find no account: PostgreSQL holds other writers of users
      // until this one ends; SQLite runs one write transaction at a time already.
      if (isPostgres(trx)) await trx.raw('LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE');
      if (await trx('users').first('id')) throw new NotFirstAccount();
    }
    const now = nowIso();
    const workspaceId = newId('ws');
    // Requests running side by side may each find a slug or an email free: the unique indexes decide, without a
    // fault. A workspace whose slug was taken meanwhile takes a suffixed one.
    const base = slugify(input.name);
    let slug = base;
    const { name, plan, tz } = input;
    const workspace = { id: workspaceId, name, plan, currency: input.currency ?? 'USD', tz, created_at: now };
    while (!(await insertUnlessTaken(trx, 'workspaces', { ...workspace, slug }, 'slug')))
      slug = `${base}-${randomBase62(5).toLowerCase()}`;
    const email = input.email ? input.email.toLowerCase() : null;
    const user = {
      id: newId('usr'),
      name: input.userName ?? (email ? email.split('@')[0] : input.name),
      email,
      password_hash: input.passwordHash ?? null,
      created_at: now,
    };
    let userId = user.id;
    if (!(await insertUnlessTaken(trx, 'users', user, 'email'))) {
      if (input.passwordHash !== undefined) throw new EmailTaken();
      userId = (await trx('users').where({ email }).first('id')).id;
    }
    await trx('members').insert({
      workspace_id: workspaceId,
      user_id: userId,
      role: 'owner' satisfies Role,
      created_at: now,
    });
    await trx('folders').insert({
      id: newId('fld'),
      workspace_id: workspaceId,
      parent_id: null,
      name: 'Library',
      is_root: 1,
      created_at: now,
    });
    return { workspaceId, userId };
  });
}

export async function findWorkspace(db: Db, idOrSlug: string): Promise<Workspace | undefined> {
  const row = await db('workspaces').where({ id: idOrSlug }).orWhere({ slug: idOrSlug }).first();
  return row ? toWorkspace(row) : undefined;
}

/** The owner of a workspace: keys made by an operator belong to them. */
export async function workspaceOwner(db: Db, workspaceId: string): Promise<User | undefined> {
  const row = await db('members')
    .join('users', 'users.id', 'members.user_id')
    .where({ 'members.workspace_id': workspaceId, 'members.role': 'owner' })
    .first('users.id', 'users.name', 'users.email');
  return row ? { id: row.id, name: row.name, email: row.email ?? null } : undefined;
}

export async function createApiKey(
  db: Db,
  input: { workspaceId: string; userId: string; name: string; scopes: Scope[] },
): Promise<{ id: string; key: string }> {
  const secret = randomBase62(40);
  const key = API_KEY_PREFIX + secret;
  const id = newId('key');
  await db('api_keys').insert({
    id,
    workspace_id: input.workspaceId,
    user_id: input.userId,
    name: input.name,
    display_prefix: key.slice(0, API_KEY_PREFIX.length + 6),
    secret_hash: sha256(key),
    scopes: input.scopes.join(','),
    created_at: nowIso(),
  });
  return { id, key };
}

export async function revokeApiKey(db: Db, workspaceId: string, keyId: string): Promise<boolean> {
  const n = await db('api_keys')
    .where({ id: keyId, workspace_id: workspaceId })
    .whereNull('revoked_at')
    .update({ revoked_at: nowIso() });
  return n > 0;
}

/** The workspace's keys that still work, oldest first, with who made each; never the key itself. */
export async function listApiKeys(db: Db, workspaceId: string): Promise<ApiKeySummary[]> {
  const rows = await db('api_keys')
    .join('users', 'users.id', 'api_keys.user_id')
    .where('api_keys.workspace_id', workspaceId)
    .whereNull('api_keys.revoked_at')
    .orderBy(['api_keys.created_at', 'api_keys.id'])
    .select(
      'api_keys.id',
      'api_keys.name',
      'api_keys.display_prefix',
      'api_keys.scopes',
      'api_keys.created_at',
      'api_keys.last_used_at',
      'api_keys.user_id',
      'users.name as user_name',
    );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.display_prefix,
    scopes: parseScopes(row.scopes),
    createdBy: { id: row.user_id, name: row.user_name },
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  }));
}

/**
 * Revokes the workspace's working key shown with `prefix`: 'revoked', 'none' when no working key has it, or
 * 'ambiguous' (nothing revoked) when several do. Servers stop taking it within KEY_CACHE_MS (server/api.ts).
 */
export async function revokeApiKeyByPrefix(
  db: Db,
  workspaceId: string,
  prefix: string,
): Promise<'revoked' | 'none' | 'ambiguous'> {
  return db.transaction(async (trx) => {
    const ids = (
      await trx('api_keys')
        .where({ workspace_id: workspaceId, display_prefix: prefix })
        .whereNull('revoked_at')
        .select('id')
    ).map((row) => row.id as string);
    if (ids.length === 0) return 'none';
    if (ids.length > 1) return 'ambiguous';
    await trx('api_keys').where({ id: ids[0] }).update({ revoked_at: nowIso() });
    return 'revoked';
  });
}

const LAST_USED_PRECISION_MS = 60_000;

/**
 * Records a credential's use at minute precision: one write per credential per minute, not one per request. On a
 * full disk the stamp waits for a later request: the request itself (a read, say) goes on.
 */
export async function stampLastUse(
  db: Db,
  table: 'api_keys' | 'oauth_grants',
  id: string,
  lastUsedAt: string | null,
): Promise<void> {
  const now = Date.now();
  if (lastUsedAt && now - Date.parse(lastUsedAt) <= LAST_USED_PRECISION_MS) return;
  await db(table)
    .where({ id })
    .update({ last_used_at: new Date(now).toISOString() })
    .catch((err: unknown) => {
      if (!isDiskFull(err)) throw err;
    });
}

/**
 * Resolves a full API key to its credential; undefined when unknown or revoked, or once its maker left the
 * workspace. It carries its maker's role of now, not of when it was made: a key never does more than its maker
 * may (server/api.ts applies the role to every operation).
 */
export async function credentialForApiKey(db: Db, key: string): Promise<Credential | undefined> {
  if (!key.startsWith(API_KEY_PREFIX)) return undefined;
  const row = await db('api_keys')
    .join('workspaces', 'workspaces.id', 'api_keys.workspace_id')
    .join('members', function () {
      this.on('members.user_id', 'api_keys.user_id').andOn('members.workspace_id', 'api_keys.workspace_id');
    })
    .join('users', 'users.id', 'api_keys.user_id')
    .where('api_keys.secret_hash', sha256(key))
    .whereNull('api_keys.revoked_at')
    .first(
      'api_keys.id as key_id',
      'api_keys.name as key_name',
      'api_keys.scopes',
      'api_keys.last_used_at',
      'members.role',
      ...CREDENTIAL_COLUMNS,
    );
  if (!row) return undefined;
  await stampLastUse(db, 'api_keys', row.key_id, row.last_used_at);
  return {
    workspace: toWorkspace(row),
    user: toUser(row),
    scopes: parseScopes(row.scopes),
    via: 'api_key',
    name: row.key_name,
    role: row.role as Role,
  };
}

export async function findUserByEmail(db: Db, email: string) {
  return db('users').where({ email: email.toLowerCase() }).first('id', 'name', 'email', 'password_hash');
}

export async function setPasswordHash(db: Db, userId: string, hash: string): Promise<void> {
  await db('users').where({ id: userId }).update({ password_hash: hash });
}

export async function firstMembership(db: Db, userId: string): Promise<string | undefined> {
  const row = await db('members').where({ user_id: userId }).orderBy('created_at').first('workspace_id');
  return row?.workspace_id;
}

export async function createSession(
  db: Db,
  userId: string,
  workspaceId: string,
): Promise<{ id: string; token: string; expiresAt: string }> {
  const token = randomBase62(43);
  const id = newId('ses');
  const now = DateTime.utc();
  const expiresAt = now.plus({ days: SESSION_DAYS }).toISO();
  await db('sessions').insert({
    id,
    token_hash: sha256(token),
    user_id: userId,
    workspace_id: workspaceId,
    created_at: now.toISO(),
    expires_at: expiresAt,
  });
  return { id, token, expiresAt };
}

export async function credentialForSession(
  db: Db,
  token: string,
): Promise<(Credential & { sessionId: string }) | undefined> {
  const row = await db('sessions')
    .join('members', function () {
      this.on('members.user_id', 'sessions.user_id').andOn('members.workspace_id', 'sessions.workspace_id');
    })
    .join('workspaces', 'workspaces.id', 'sessions.workspace_id')
    .join('users', 'users.id', 'sessions.user_id')
    .where('sessions.token_hash', sha256(token))
    .where('sessions.expires_at', '>', nowIso())
    .first('sessions.id as session_id', 'members.role', ...CREDENTIAL_COLUMNS);
  if (!row) return undefined;
  return {
    sessionId: row.session_id,
    workspace: toWorkspace(row),
    user: toUser(row),
    scopes: ['read', 'write'],
    via: 'session',
    name: 'Dashboard session',
    role: row.role as Role,
  };
}

/**
 * Of these sessions, the ones still signed in and still members of the workspace they point at, with that workspace:
 * a session signed out, expired, switched to another workspace or removed from its workspace is not among them
 * (or points elsewhere). One query for any number of sessions.
 */
export async function sessionWorkspaces(db: Db, sessionIds: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  // In chunks: a query's bound parameters are limited (SQLite 32,766).
  for (let i = 0; i < sessionIds.length; i += 500) {
    const rows: { id: string; workspace_id: string }[] = await db('sessions')
      .join('members', function () {
        this.on('members.user_id', 'sessions.user_id').andOn('members.workspace_id', 'sessions.workspace_id');
      })
      .whereIn('sessions.id', sessionIds.slice(i, i + 500))
      .where('sessions.expires_at', '>', nowIso())
      .select('sessions.id', 'sessions.workspace_id');
    for (const r of rows) found.set(r.id, r.workspace_id);
  }
  return found;
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db('sessions').where({ id: sessionId }).delete();
}

/**
 * A new session for someone who just proved who they are (signed in, accepted an invitation). The session the
 * browser carried, if any, ends: a session planted in the browser before (fixation) or left there by another
 * person must not outlive the sign-in.
 */
export async function freshSession(
  db: Db,
  userId: string,
  workspaceId: string,
  carriedToken: string | undefined,
): Promise<{ id: string; token: string; expiresAt: string }> {
  if (carriedToken)
    await db('sessions')
      .where({ token_hash: sha256(carriedToken) })
      .delete();
  return createSession(db, userId, workspaceId);
}

/**
 * Revokes the OAuth grants (mcp/oauth/store.ts) that `where` selects and deletes their tokens, so their access
 * and refresh tokens stop at once. Here, beside sessions and keys, because removing a member revokes them too.
 */
export async function revokeGrants(q: Knex, where: Record<string, string>): Promise<number> {
  const ids = (await q('oauth_grants').where(where).whereNull('revoked_at').select('id')).map((r) => r.id as string);
  if (ids.length === 0) return 0;
  await q('oauth_grants').whereIn('id', ids).update({ revoked_at: nowIso() });
  await q('oauth_tokens').whereIn('grant_id', ids).delete();
  return ids.length;
}
