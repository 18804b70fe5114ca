// Disconnecting an account: dashboard sessions only, administrators and the owner. GET tells how many
// queued posts the account has (the confirm step says it); POST with {"confirm": true} disconnects it and
// cancels those posts back to draft, recorded in the audit trail. The account's posts and their history stay.
import express from 'express';
import { recordAudit } from '../db/audit.ts';
import { workspaceData } from '../db/workspaceData.ts';
import { confirmRequired, notFound } from '../domain/errors.ts';
import { PostStateRefused } from '../domain/postStates.ts';
import { cancelToDraft } from '../handlers/posts/changes.ts';
import type { Services } from '../runtime/services.ts';
import { sessionRoute, type SessionCredential } from './sessionGuard.ts';

export function accountRoutes(services: Services): express.Router {
  const { db } = services;
  const router = express.Router();
  const disconnecting = { role: 'administrator', action: 'Disconnecting an account' } as const;

  async function accountOf(cred: SessionCredential, id: string) {
    const data = workspaceData(db, cred.workspace, services.clock, services.jobs);
    const account = await data.accounts.get(id);
    if (!account) throw notFound('account', id);
    const queued = await data.posts.list({ status: 'queued', accountId: id, limit: 100_000 });
    return { data, account, queued };
  }

  router.get(
    '/accounts/:accountId/disconnect',
    sessionRoute(services, disconnecting, async (cred, req) => {
      const { account, queued } = await accountOf(cred, String(req.params.accountId));
      return { status: 200, body: { account, queuedPosts: queued.length } };
    }),
  );

  router.post(
    '/accounts/:accountId/disconnect',
    sessionRoute(services, disconnecting, async (cred, req) => {
      if ((req.body as { confirm?: unknown } | undefined)?.confirm !== true)
        throw confirmRequired('Disconnecting an account', 'disconnectAccount');
      const { data, account, queued } = await accountOf(cred, String(req.params.accountId));
      // Disconnected first, so no new post can be planned for it while its queued ones are cancelled.
      await data.accounts.disconnect(account.id);
      let cancelledPosts = 0;
      const publishing: string[] = [];
      for (const post of queued) {
        try {
          if (
            await data.posts.transition(post.id, 'cancel', () =>
              cancelToDraft('Cancelled because its account was disconnected'),
            )
          )
            cancelledPosts += 1;
        } catch (err) {
          // A post whose attempt already started cannot be stopped; it ends live or failed.
          if (!(err instanceof PostStateRefused)) throw err;
          publishing.push(post.id);
        }
      }
      await recordAudit(db, cred.workspace.id, cred.user.id, 'account.disconnected', {
        accountId: account.id,
        platform: account.platform,
        name: account.displayName,
        cancelledPosts,
      });
      return { status: 200, body: { account, cancelledPosts, publishing } };
    }),
  );

  return router;
}
