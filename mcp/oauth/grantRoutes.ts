// The person's connected MCP clients, for the dashboard's settings: GET /auth/mcp-grants lists the standing
// grants of the signed-in person in the session's workspace, DELETE /auth/mcp-grants/:grantId revokes one
// (its tokens stop working at once). Session only (server/sessionGuard.ts): API keys and tokens are refused.
import express from 'express';
import { notFound } from '../../domain/errors.ts';
import type { Services } from '../../runtime/services.ts';
import { sessionRoute } from '../../server/sessionGuard.ts';
import { listGrants, revokeOwnGrant } from './store.ts';

export function grantRoutes(services: Services) {
  const { db } = services;
  const router = express.Router();

  router.get(
    '/auth/mcp-grants',
    sessionRoute(services, { role: 'member', action: 'Listing connected MCP clients' }, async (cred) => ({
      status: 200,
      body: { grants: await listGrants(db, cred.user.id, cred.workspace.id) },
    })),
  );

  router.delete(
    '/auth/mcp-grants/:grantId',
    sessionRoute(services, { role: 'member', action: 'Revoking an MCP client' }, async (cred, req) => {
      const grantId = String(req.params.grantId);
      if (!(await revokeOwnGrant(db, cred.user.id, cred.workspace.id, grantId))) throw notFound('MCP grant', grantId);
      return { status: 204 };
    }),
  );

  return router;
}
