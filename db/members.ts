// People in a workspace: members with their roles, invitations, and the workspaces one person belongs to.
// The rules of who may change whom are here, inside the transactions that apply them.
import type { Knex } from 'knex';
import type { Role, Workspace } from '../domain/credential.ts';
import { newId } from '../domain/ids.ts';
import type { Unusable } from '../domain/errors.ts';
import { MemberRefused } from '../domain/memberRefusal.ts';
import { assertCanAddMember } from '../domain/quotas.ts';
import { assertRole } from '../domain/roles.ts';
import type { Invite, Member, Membership } from '../domain/settingsShapes.ts';
import { recordAudit } from './audit.ts';
import type { Db } from './connect.ts';
import { revokeGrants } from './identity.ts';
import { lockWorkspace } from './locks.ts';
import { nowIso, toCount } from './rows.ts';
import { usageCounter } from './usage.ts';

export const INVITE_DAYS = 7;

/** Who is acting: the signed-in person and their role in the workspace. */
export interface Actor {
  userId: string;
  role: Role;
}

const pending = (q: Knex.QueryBuilder, now: string) =>
  q.whereNull('invites.accepted_at').whereNull('invites.cancelled_at').where('invites.expires_at', '>', now);

export async function listMembers(db: Knex, workspaceId: string): Promise<Member[]> {
  const rows = await db('members')
    .join('users', 'users.id', 'members.user_id')
    .where('members.workspace_id', workspaceId)
    .orderBy([{ column: 'members.created_at' }, { column: 'users.id' }])
    .select('users.id', 'users.name', 'users.email', 'members.role', 'members.created_at');
  return rows.map((r) => ({
    userId: r.id,
    name: r.name,
    email: r.email ?? null,
    role: r.role,
    joinedAt: r.created_at,
  }));
}

export async function listPendingInvites(db: Knex, workspaceId: string): Promise<Invite[]> {
  const rows = await pending(db('invites').join('users', 'users.id', 'invites.invited_by'), nowIso())
    .where('invites.workspace_id', workspaceId)
    .orderBy('invites.created_at')
    .select('invites.*', 'users.name as inviter_name');
  return rows.map((r: Record<string, string>) => ({
    id: r.id!,
    email: r.email!,
    role: r.role as Role,
    invitedBy: { id: r.invited_by, name: r.inviter_name },
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  }));
}

/** Members plus pending invitations: what the plan's member limit counts. */
export async function countSeats(q: Knex, workspaceId: string): Promise<number> {
  const invites = await pending(q('invites'), nowIso()).where({ workspace_id: workspaceId }).count({ n: '*' }).first();
  return (await usageCounter(q, workspaceId, 'members')) + toCount(invites?.n);
}

async function memberRow(q: Knex, workspaceId: string, userId: string) {
  const row = await q('members')
    .join('users', 'users.id', 'members.user_id')
    .where({ 'members.workspace_id': workspaceId, 'members.user_id': userId })
    .first('members.role', 'users.name', 'users.email');
  if (!row) throw MemberRefused.notFound('member', userId);
  return row as { role: Role; name: string; email: string | null };
}

/**
 * Invites `email` with `role`. Inviting the same address again replaces its pending invitation (a new
 * link, the old one stops working). Refused when they are already a member or no seat is free.
 */
export function createInvite(db: Db, workspace: Workspace, actor: Actor, email: string, role: Role): Promise<Invite> {
  return db.transaction(async (trx) => {
    await lockWorkspace(trx, workspace.id);
    if (role === 'owner') {
      throw new MemberRefused(
        'invalid_request',
        'An invitation makes an administrator or a member, not an owner.',
        'Invite them as an administrator, then transfer ownership from the members page.',
      );
    }
    assertRole(actor.role, role, `Inviting ${role === 'administrator' ? 'an administrator' : 'a member'}`);
    const already = await trx('members')
      .join('users', 'users.id', 'members.user_id')
      .where({ 'members.workspace_id': workspace.id, 'users.email': email })
      .first('users.id');
    if (already)
      throw new MemberRefused(
        'already_member',
        `${email} is already a member of this workspace.`,
        'Change their role instead.',
        { field: 'email' },
      );
    const now = nowIso();
    await pending(trx('invites'), now).where({ workspace_id: workspace.id, email }).update({ cancelled_at: now });
    assertCanAddMember(workspace.plan, await countSeats(trx, workspace.id));
    const invite = {
      id: newId('inv'),
      email,
      role,
      createdAt: now,
      expiresAt: new Date(Date.parse(now) + INVITE_DAYS * 86_400_000).toISOString(),
    };
    await trx('invites').insert({
      id: invite.id,
      workspace_id: workspace.id,
      email,
      role,
      invited_by: actor.userId,
      created_at: now,
      expires_at: invite.expiresAt,
    });
    await recordAudit(trx, workspace.id, actor.userId, 'member.invited', { inviteId: invite.id, email, role });
    const inviter = await trx('users').where({ id: actor.userId }).first('name');
    return { ...invite, invitedBy: { id: actor.userId, name: inviter?.name ?? '' } };
  });
}

export async function cancelInvite(db: Db, workspaceId: string, actor: Actor, inviteId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await pending(trx('invites'), nowIso())
      .where({ id: inviteId, workspace_id: workspaceId })
      .first('email', 'role');
    if (!row) throw MemberRefused.notFound('pending invitation', inviteId);
    assertRole(actor.role, row.role, 'Withdrawing this invitation');
    await trx('invites').where({ id: inviteId }).update({ cancelled_at: nowIso() });
    await recordAudit(trx, workspaceId, actor.userId, 'invite.cancelled', {
      inviteId,
      email: row.email,
      role: row.role,
    });
  });
}

export interface InviteDetails {
  id: string;
  email: string;
  role: Role;
  workspace: { id: string; name: string };
  expiresAt: string;
}

const inviteGone = (what: string, why: Unusable) =>
  new MemberRefused(
    'invite_unusable',
    `This invitation ${what}.`,
    'Ask the person who invited you for a new invitation.',
    { actual: why },
  );

/** A usable invitation by id: refused once accepted, withdrawn or past its 7 days. */
export async function usableInvite(q: Knex, inviteId: string): Promise<InviteDetails> {
  const row = await q('invites')
    .join('workspaces', 'workspaces.id', 'invites.workspace_id')
    .where('invites.id', inviteId)
    .first('invites.*', 'workspaces.name as workspace_name');
  if (!row) throw inviteGone('does not exist', 'missing');
  if (row.accepted_at) throw inviteGone('was already accepted', 'used');
  if (row.cancelled_at) throw inviteGone('was withdrawn or replaced by a newer one', 'withdrawn');
  if (row.expires_at <= nowIso())
    throw inviteGone(`expired on ${row.expires_at.slice(0, 10)} (invitations last ${INVITE_DAYS} days)`, 'expired');
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    workspace: { id: row.workspace_id, name: row.workspace_name },
    expiresAt: row.expires_at,
  };
}

/** Who accepts: an existing user, or a new one created with the membership (both or neither). */
export type Joiner = { userId: string } | { newUser: { name: string; passwordHash: string } };

/** Makes the joiner a member as the invitation says, once: a second use of the link is refused. */
export function acceptInvite(db: Db, inviteId: string, joiner: Joiner): Promise<InviteDetails & { userId: string }> {
  return db.transaction(async (trx) => {
    const invite = await usableInvite(trx, inviteId);
    await lockWorkspace(trx, invite.workspace.id);
    const now = nowIso();
    const used = await trx('invites').where({ id: inviteId }).whereNull('accepted_at').update({ accepted_at: now });
    if (!used) throw inviteGone('was already accepted', 'used');
    let userId: string;
    if ('userId' in joiner) {
      userId = joiner.userId;
      if (await trx('members').where({ workspace_id: invite.workspace.id, user_id: userId }).first('user_id')) {
        throw new MemberRefused(
          'already_member',
          'You are already a member of this workspace.',
          'Switch to it from the workspace menu.',
        );
      }
    } else {
      userId = newId('usr');
      await trx('users').insert({
        id: userId,
        name: joiner.newUser.name,
        email: invite.email,
        password_hash: joiner.newUser.passwordHash,
        created_at: now,
      });
    }
    await trx('members').insert({
      workspace_id: invite.workspace.id,
      user_id: userId,
      role: invite.role,
      created_at: now,
    });
    await recordAudit(trx, invite.workspace.id, userId, 'member.joined', {
      inviteId,
      email: invite.email,
      role: invite.role,
    });
    return { ...invite, userId };
  });
}

const OWNER_STAYS = 'A workspace always keeps one owner.';

/**
 * Changes a member's role. Making someone the owner transfers ownership: the owner who does it becomes
 * an administrator, so there is always exactly one owner.
 */
export function changeRole(db: Db, workspaceId: string, actor: Actor, userId: string, role: Role): Promise<Member[]> {
  return db.transaction(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    const target = await memberRow(trx, workspaceId, userId);
    if (role === 'owner') {
      assertRole(actor.role, 'owner', 'Transferring ownership');
      if (userId === actor.userId) return listMembers(trx, workspaceId);
      await trx('members')
        .where({ workspace_id: workspaceId, user_id: actor.userId })
        .update({ role: 'administrator' });
      await trx('members').where({ workspace_id: workspaceId, user_id: userId }).update({ role: 'owner' });
      await recordAudit(trx, workspaceId, actor.userId, 'ownership.transferred', {
        userId,
        name: target.name,
        from: target.role,
      });
      return listMembers(trx, workspaceId);
    }
    assertRole(
      actor.role,
      target.role,
      `Changing the role of ${target.role === 'owner' ? 'the owner' : 'an administrator'}`,
    );
    if (target.role === 'owner') {
      throw new MemberRefused(
        'owner_required',
        `${OWNER_STAYS} ${target.name} is its owner.`,
        'Transfer ownership to another member first (make them the owner); you become an administrator.',
      );
    }
    if (target.role !== role) {
      await trx('members').where({ workspace_id: workspaceId, user_id: userId }).update({ role });
      await recordAudit(trx, workspaceId, actor.userId, 'member.role_changed', {
        userId,
        name: target.name,
        from: target.role,
        to: role,
      });
    }
    return listMembers(trx, workspaceId);
  });
}

/**
 * Removes a member: their sessions in this workspace end and their API keys and MCP grants of it are revoked, at
 * once (a grant's refresh token would otherwise outlive the membership, and work again if they were re-invited).
 */
export function removeMember(
  db: Db,
  workspaceId: string,
  actor: Actor,
  userId: string,
): Promise<{ keysRevoked: number; grantsRevoked: number }> {
  return db.transaction(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    const target = await memberRow(trx, workspaceId, userId);
    assertRole(actor.role, target.role, `Removing ${target.role === 'owner' ? 'the owner' : 'an administrator'}`);
    if (target.role === 'owner') {
      throw new MemberRefused(
        'owner_required',
        `${OWNER_STAYS} You are its owner.`,
        'Transfer ownership to another member first; then they can remove you.',
      );
    }
    const now = nowIso();
    await trx('members').where({ workspace_id: workspaceId, user_id: userId }).delete();
    await trx('sessions').where({ workspace_id: workspaceId, user_id: userId }).delete();
    const keysRevoked = await trx('api_keys')
      .where({ workspace_id: workspaceId, user_id: userId })
      .whereNull('revoked_at')
      .update({ revoked_at: now });
    const grantsRevoked = await revokeGrants(trx, { workspace_id: workspaceId, user_id: userId });
    await recordAudit(trx, workspaceId, actor.userId, 'member.removed', {
      userId,
      name: target.name,
      email: target.email,
      role: target.role,
      keysRevoked,
      grantsRevoked,
    });
    return { keysRevoked, grantsRevoked };
  });
}

/** Every workspace the person belongs to, in the order they joined them. */
export async function workspacesOf(db: Knex, userId: string): Promise<Membership[]> {
  const rows = await db('members')
    .join('workspaces', 'workspaces.id', 'members.workspace_id')
    .where('members.user_id', userId)
    .orderBy([{ column: 'members.created_at' }, { column: 'workspaces.id' }])
    .select('workspaces.id', 'workspaces.name', 'workspaces.slug', 'workspaces.plan', 'members.role');
  return rows.map((r) => ({ id: r.id, name: r.name, slug: r.slug, plan: r.plan, role: r.role }));
}

/** Points a session at another of the person's workspaces. */
export async function switchWorkspace(db: Db, sessionId: string, userId: string, workspaceId: string): Promise<void> {
  const member = await db('members').where({ workspace_id: workspaceId, user_id: userId }).first('role');
  if (!member) throw MemberRefused.notFound('workspace', workspaceId);
  await db('sessions').where({ id: sessionId, user_id: userId }).update({ workspace_id: workspaceId });
}
