// The person's connected MCP clients: the standing grants of the signed-in person in the session's workspace, and
// revoking one (its tokens stop working at once).
import { notFound } from '../../domain/errors.ts';
import { listGrants, revokeOwnGrant } from '../../mcp/oauth/store.ts';
import type { AuthHandler } from '../../handlers/authTypes.ts';

export const listMcpGrants: AuthHandler<'listMcpGrants'> = async ({ cred, services }) => ({
  status: 200,
  body: { grants: await listGrants(services.db, cred.user.id, cred.workspace.id) },
});

export const revokeMcpGrant: AuthHandler<'revokeMcpGrant'> = async ({ cred, params, services }) => {
  if (!(await revokeOwnGrant(services.db, cred.user.id, cred.workspace.id, params.grantId)))
    throw notFound('MCP grant', params.grantId);
  return { status: 204 };
};
