// Members, invitations and the workspaces of one person (session-only, see sessionGuard.ts).
//   GET    /auth/members                members, pending invitations, seats used of the plan's limit
//   POST   /auth/invites                {email, role} -> the invitation and its link (mailed, or logged)
//   DELETE /auth/invites/:inviteId      withdraws a pending invitation
//   PATCH  /auth/members/:userId        {role}; `owner` transfers ownership
//   DELETE /auth/members/:userId        removes a member: their sessions here end, their keys and MCP grants stop
//   GET    /auth/invite?token=…         what an invitation link offers (no session needed); never whether the
//                                       address has an account, which the inviter holding the link must not learn
//   POST   /auth/invites/accept         {token}: joins as the signed-in invitee; {token, name, password}: joins
//                                       as a new person
//   GET    /auth/workspaces             the person's workspaces; POST /auth/workspaces/switch {workspaceId}
// Link tokens travel in query strings and bodies, never in paths, so request logs never hold them.
import express from 'express';
import { credentialForSession, findUserByEmail, freshSession } from '../db/identity.ts';
import {
  acceptInvite,
  cancelInvite,
  changeRole,
  countSeats,
  createInvite,
  listMembers,
  listPendingInvites,
  removeMember,
  switchWorkspace,
  usableInvite,
  workspacesOf,
  type Joiner,
} from '../db/members.ts';
import { ApiError, invalidRequest } from '../domain/errors.ts';
import { PLANS } from '../domain/plans.ts';
import { isRole } from '../domain/roles.ts';
import type { Services } from '../runtime/services.ts';
import { checkedEmail, checkedPassword, hashPassword } from '../signin/passwords.ts';
import { bodyOf, openRoute, sessionRoute } from './sessionGuard.ts';
import { carriedSessionToken, describeSession, sessionCookie, sessionFrom } from './sessionRoutes.ts';
import type { PasswordSignIn } from '../signin/passwordSignIn.ts';
import { idFromToken, linkToken } from './signedLinks.ts';

const badLink = () =>
  new ApiError(
    410,
    'invite_unusable',
    'This invitation link is incomplete or was altered.',
    'Open the link exactly as it came, or ask for a new invitation.',
  );

export function memberRoutes(services: Services, signIn: PasswordSignIn): express.Router {
  const { db, keyring, config, mailer, logger } = services;
  const router = express.Router();
  const manage = { role: 'administrator', action: 'Managing members' } as const;

  router.get(
    '/members',
    sessionRoute(services, { role: 'member', action: 'Reading the member list' }, async (cred) => ({
      status: 200,
      body: {
        members: await listMembers(db, cred.workspace.id),
        invites: await listPendingInvites(db, cred.workspace.id),
        seats: { used: await countSeats(db, cred.workspace.id), limit: PLANS[cred.workspace.plan].members },
        you: { userId: cred.user.id, role: cred.role },
      },
    })),
  );

  router.post(
    '/invites',
    sessionRoute(services, manage, async (cred, req) => {
      const body = bodyOf(req);
      const email = checkedEmail(body.email);
      if (!isRole(body.role)) throw invalidRequest('role must be "administrator" or "member".');
      const invite = await createInvite(
        db,
        cred.workspace,
        { userId: cred.user.id, role: cred.role },
        email,
        body.role,
      );
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
        logger.warn({ err, reqId: req.id }, 'the invitation mail could not be sent');
        delivered = 'failed';
      }
      return { status: 201, body: { invite, link, delivered } };
    }),
  );

  router.delete(
    '/invites/:inviteId',
    sessionRoute(services, manage, async (cred, req) => {
      await cancelInvite(db, cred.workspace.id, { userId: cred.user.id, role: cred.role }, String(req.params.inviteId));
      return { status: 204 };
    }),
  );

  router.patch(
    '/members/:userId',
    sessionRoute(services, manage, async (cred, req) => {
      const { role } = bodyOf(req);
      if (!isRole(role)) throw invalidRequest('role must be "owner", "administrator" or "member".');
      const members = await changeRole(
        db,
        cred.workspace.id,
        { userId: cred.user.id, role: cred.role },
        String(req.params.userId),
        role,
      );
      return { status: 200, body: { members } };
    }),
  );

  router.delete(
    '/members/:userId',
    sessionRoute(services, manage, async (cred, req) => {
      const out = await removeMember(
        db,
        cred.workspace.id,
        { userId: cred.user.id, role: cred.role },
        String(req.params.userId),
      );
      return { status: 200, body: out };
    }),
  );

  router.get(
    '/invite',
    openRoute(services, async (req) => {
      const inviteId = idFromToken(keyring, 'invites', req.query.token);
      if (!inviteId) throw badLink();
      return { status: 200, body: await usableInvite(db, inviteId) };
    }),
  );

  // The inviter holds the link too, so the link alone never speaks for an existing account: its owner signs in
  // and accepts with their own session (no password is taken here, so none can be guessed here either). For an
  // address without an account, whoever holds the link chooses the name and password. Attempts count against the
  // sign-in limit per address, as sign-ups do: a refusal says whether the address has an account.
  router.post(
    '/invites/accept',
    openRoute(services, async (req) => {
      await signIn.limitAddress(req.ip ?? '');
      const body = bodyOf(req);
      const inviteId = idFromToken(keyring, 'invites', body.token);
      if (!inviteId) throw badLink();
      const invite = await usableInvite(db, inviteId);
      const user = await findUserByEmail(db, invite.email);
      let joiner: Joiner;
      if (user) {
        const signedIn = await sessionFrom(db, req);
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
        const name = typeof body.name === 'string' ? body.name.trim() : '';
        if (!name || name.length > 100)
          throw invalidRequest('name must be 1 to 100 characters.', 'Say how others should see you.');
        joiner = { newUser: { name, passwordHash: await hashPassword(checkedPassword(body.password)) } };
      }
      const { userId } = await acceptInvite(db, inviteId, joiner);
      const session = await freshSession(db, userId, invite.workspace.id, carriedSessionToken(req));
      const maxAge = Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000);
      return {
        status: 200,
        headers: { 'Set-Cookie': sessionCookie(config.publicUrl, session.token, maxAge) },
        body: describeSession(keyring, (await credentialForSession(db, session.token))!),
      };
    }),
  );

  router.get(
    '/workspaces',
    sessionRoute(services, { role: 'member', action: 'Listing your workspaces' }, async (cred) => ({
      status: 200,
      body: { workspaces: await workspacesOf(db, cred.user.id), currentWorkspaceId: cred.workspace.id },
    })),
  );

  router.post(
    '/workspaces/switch',
    sessionRoute(services, { role: 'member', action: 'Switching workspaces' }, async (cred, req) => {
      const { workspaceId } = bodyOf(req);
      if (typeof workspaceId !== 'string' || !workspaceId)
        throw invalidRequest('workspaceId must be one of your workspace ids.');
      await switchWorkspace(db, cred.sessionId, cred.user.id, workspaceId);
      return {
        status: 200,
        body: { workspaces: await workspacesOf(db, cred.user.id), currentWorkspaceId: workspaceId },
      };
    }),
  );

  return router;
}
