// Members, invitations and the workspaces of one person. An invitation link's token travels in query strings and
// bodies, never in paths, so request logs never hold it.
import { findUserByEmail, freshSession } from '../../db/identity.ts';
import {
  acceptInvite as accept,
  cancelInvite as cancel,
  changeRole,
  countSeats,
  createInvite as create,
  listMembers as members,
  listPendingInvites,
  removeMember as remove,
  switchWorkspace as switchTo,
  usableInvite,
  workspacesOf,
  type Joiner,
} from '../../db/members.ts';
import { ApiError, invalidRequest } from '../../domain/errors.ts';
import { PLANS } from '../../domain/plans.ts';
import { checkedEmail, checkedPassword, hashPassword } from '../../signin/passwords.ts';
import { carriedSessionToken, sessionFrom } from '../../signin/session.ts';
import { idFromToken, linkToken } from '../signedLinks.ts';
import { startedSession } from './session.ts';
import type { AuthHandler, SignedIn } from '../../handlers/authTypes.ts';

const badLink = () =>
  new ApiError(
    410,
    'invite_unusable',
    'This invitation link is incomplete or was altered.',
    'Open the link exactly as it came, or ask for a new invitation.',
    { actual: 'altered' },
  );

const actor = (cred: SignedIn) => ({ userId: cred.user.id, role: cred.role });

export const listMembers: AuthHandler<'listMembers'> = async ({ cred, services: { db } }) => ({
  status: 200,
  body: {
    members: await members(db, cred.workspace.id),
    invites: await listPendingInvites(db, cred.workspace.id),
    seats: { used: await countSeats(db, cred.workspace.id), limit: PLANS[cred.workspace.plan].members },
    you: { userId: cred.user.id, role: cred.role },
  },
});

export const createInvite: AuthHandler<'createInvite'> = async ({ cred, body, request, services }) => {
  const { db, keyring, config, mailer, logger } = services;
  const email = checkedEmail(body.email);
  const invite = await create(db, cred.workspace, actor(cred), email, body.role);
  const token = encodeURIComponent(linkToken(keyring, 'invites', invite.id));
  const link = `${config.publicUrl}/app/invite?token=${token}`;
  let delivered: string = mailer.via;
  try {
    await mailer.send({
      to: email,
      subject: `${cred.user.name} invited you to ${cred.workspace.name} on Herald`,
      text: `${cred.user.name} invited you to the workspace ${cred.workspace.name} on Herald as ${
        body.role === 'administrator' ? 'an administrator' : 'a member'
      }.\n\nAccept within 7 days: ${link}\n\nIf you did not expect this, ignore this mail.`,
    });
  } catch (err) {
    logger.warn({ err, reqId: request.id }, 'the invitation mail could not be sent');
    delivered = 'failed';
  }
  return { status: 201, body: { invite, link, delivered } };
};

export const cancelInvite: AuthHandler<'cancelInvite'> = async ({ cred, params, services }) => {
  await cancel(services.db, cred.workspace.id, actor(cred), params.inviteId);
  return { status: 204 };
};

export const changeMemberRole: AuthHandler<'changeMemberRole'> = async ({ cred, params, body, services }) => ({
  status: 200,
  body: { members: await changeRole(services.db, cred.workspace.id, actor(cred), params.userId, body.role) },
});

export const removeMember: AuthHandler<'removeMember'> = async ({ cred, params, services }) => ({
  status: 200,
  body: await remove(services.db, cred.workspace.id, actor(cred), params.userId),
});

/**
 * What an invitation link offers, with no session needed; never whether the address has an account, which the
 * inviter holding the link must not learn.
 */
export const getInvite: AuthHandler<'getInvite'> = async ({ query, services }) => {
  const inviteId = idFromToken(services.keyring, 'invites', query.token);
  if (!inviteId) throw badLink();
  return { status: 200, body: await usableInvite(services.db, inviteId) };
};

/**
 * The inviter holds the link too, so the link alone never speaks for an existing account: its owner signs in and
 * accepts with their own session (no password is taken here, so none can be guessed here either). For an address
 * without an account, whoever holds the link chooses the name and password. Attempts count against the sign-in
 * limit per address, as sign-ups do: a refusal says whether the address has an account.
 */
export const acceptInvite: AuthHandler<'acceptInvite'> = async ({ body, request, signIn, services }) => {
  const { db, keyring } = services;
  await signIn.limitAddress(request.ip);
  const inviteId = idFromToken(keyring, 'invites', body.token);
  if (!inviteId) throw badLink();
  const invite = await usableInvite(db, inviteId);
  const user = await findUserByEmail(db, invite.email);
  let joiner: Joiner;
  if (user) {
    const signedIn = await sessionFrom(db, request);
    if (!signedIn) {
      throw new ApiError(
        401,
        'unauthenticated',
        `${invite.email} already has a Herald account: sign in as ${invite.email} to accept.`,
        'Sign in with that address, then open the invitation link again.',
      );
    }
    if (signedIn.user.id !== user.id) {
      const you = signedIn.user.email ?? signedIn.user.name;
      throw new ApiError(
        403,
        'invite_for_someone_else',
        `This invitation is for ${invite.email}; you are signed in as ${you}.`,
        `Sign out, sign in as ${invite.email}, then open the invitation link again.`,
      );
    }
    joiner = { userId: user.id };
  } else {
    const name = body.name?.trim() ?? '';
    if (!name || name.length > 100)
      throw invalidRequest('name must be 1 to 100 characters.', 'Say how others should see you.', { field: 'name' });
    joiner = { newUser: { name, passwordHash: await hashPassword(checkedPassword(body.password)) } };
  }
  const { userId } = await accept(db, inviteId, joiner);
  return startedSession(services, await freshSession(db, userId, invite.workspace.id, carriedSessionToken(request)));
};

export const listWorkspaces: AuthHandler<'listWorkspaces'> = async ({ cred, services }) => ({
  status: 200,
  body: { workspaces: await workspacesOf(services.db, cred.user.id), currentWorkspaceId: cred.workspace.id },
});

export const switchWorkspace: AuthHandler<'switchWorkspace'> = async ({ cred, body, services }) => {
  await switchTo(services.db, cred.sessionId, cred.user.id, body.workspaceId);
  return {
    status: 200,
    body: { workspaces: await workspacesOf(services.db, cred.user.id), currentWorkspaceId: body.workspaceId },
  };
};
