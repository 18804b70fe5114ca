// The person's connected MCP clients, for the dashboard's settings: GET /auth/mcp-grants lists the standing
// grants of the signed-in person in the session's workspace, DELETE /auth/mcp-grants/:grantId revokes one
// (its tokens stop working at once). Session only: API keys and access tokens are never read here.
import express, { type Response } from 'express';
import { ApiError, errorBody, notFound, unauthenticated } from '../../domain/errors.ts';
import type { Services } from '../../runtime/services.ts';
import { fieldWithNul } from '../../server/requestFaults.ts';
import { sessionFrom } from '../../server/sessionRoutes.ts';
import { listGrants, revokeOwnGrant } from './store.ts';

export function grantRoutes(services: Services) {
  const { db, keyring, config } = services;
  const router = express.Router();
  const fail = (res: Response, err: ApiError) => res.status(err.status).json(errorBody(err, config.publicUrl));

  router.get('/auth/mcp-grants', async (req, res) => {
    const session = await sessionFrom(db, req);
    if (!session) return fail(res, unauthenticated());
    res.json({ grants: await listGrants(db, session.user.id, session.workspace.id) });
  });

  router.delete('/auth/mcp-grants/:grantId', async (req, res) => {
    const session = await sessionFrom(db, req);
    if (!session) return fail(res, unauthenticated());
    const sent = req.headers['x-csrf-token'];
    if (typeof sent !== 'string' || !keyring.verify(session.sessionId, sent, 'csrf')) {
      return fail(res, new ApiError(403, 'csrf_failed', 'Revoking an MCP client needs a valid X-CSRF-Token header.',
        'Reload the dashboard and try again.'));
    }
    const grantId = req.params.grantId;
    if (fieldWithNul(grantId) || !(await revokeOwnGrant(db, session.user.id, session.workspace.id, grantId))) return fail(res, notFound('MCP grant', grantId));
    res.status(204).end();
  });

  return router;
}
