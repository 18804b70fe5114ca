// Every operation of auth.yaml by its operationId, but those served by routes of their own (OWN_ROUTES). The
// approvals are the posts' own (handlers/posts/approvals.ts).
import { approvePost, listApprovals, rejectPost } from '../../handlers/posts/approvals.ts';
import { loadAuthContract } from '../../runtime/contract.ts';
import { disconnectAccount, getDisconnect } from './accounts.ts';
import { changePlan, getBilling } from './billing.ts';
import { connectBySignIn } from './connect.ts';
import { createKey, listKeys, revokeKey } from './keys.ts';
import { listMcpGrants, revokeMcpGrant } from './mcpGrants.ts';
import {
  acceptInvite,
  cancelInvite,
  changeMemberRole,
  createInvite,
  getInvite,
  listMembers,
  listWorkspaces,
  removeMember,
  switchWorkspace,
} from './members.ts';
import { changePassword, confirmPasswordReset, getPasswordReset, requestPasswordReset } from './passwords.ts';
import { getSession, signIn, signOut } from './session.ts';
import { getSignUpState, signUp } from './signUp.ts';
import type { AuthHandler, AuthHandlers } from '../../handlers/authTypes.ts';
import { listAudit, updateWorkspace } from './workspace.ts';

/** This contract, for the dashboard's developers, signed in; its `servers` names this instance. */
const getAuthContract: AuthHandler<'getAuthContract'> = async ({ services }) => ({
  status: 200,
  body: {
    ...loadAuthContract(),
    servers: [{ url: `${services.config.publicUrl}/auth`, description: 'This instance.' }],
  },
});

export const authHandlers: AuthHandlers = {
  signIn,
  getSession,
  signOut,
  getSignUpState,
  signUp,
  requestPasswordReset,
  getPasswordReset,
  confirmPasswordReset,
  changePassword,
  listMembers,
  changeMemberRole,
  removeMember,
  createInvite,
  cancelInvite,
  getInvite,
  acceptInvite,
  listWorkspaces,
  switchWorkspace,
  listKeys,
  createKey,
  revokeKey,
  getBilling,
  changePlan,
  updateWorkspace,
  listAudit,
  listApprovals,
  approvePost,
  rejectPost,
  getDisconnect,
  disconnectAccount,
  connectBySignIn,
  listMcpGrants,
  revokeMcpGrant,
  getAuthContract,
};
