// Disconnecting an account: dashboard sessions only. GET tells how many queued posts the account has
// (the confirm step says it); POST with {"confirm": true} disconnects it and cancels those posts back to
// draft. The account's posts and their history stay.
import express from 'express';
import { workspaceData } from '../db/workspaceData.ts';
import { ApiError, confirmRequired, notFound } from '../domain/errors.ts';
import { cancelToDraft } from '../handlers/posts.ts';
import type { Services } from '../runtime/services.ts';
import { failWith, requireSession, type SessionCredential } from './sessionGuard.ts';

export function accountRoutes(services: Services): express.Router {
  const { db, config } = services;
  const router = express.Router();
  router.use('/accounts', requireSession(services));

  async function accountOf(cred: SessionCredential, id: string) {
    const data = workspaceData(db, cred.workspace, services.jobs);
    const account = await data.accounts.get(id);
    if (!account) throw notFound('account', id);
    const queued = await data.posts.list({ status: 'queued', accountId: id, limit: 100_000 });
    return { data, account, queued };
  }

  const route =
    (run: (cred: SessionCredential, req: express.Request) => Promise<unknown>) =>
    async (req: express.Request, res: express.Response, next: express.NextFunction) => {
      try {
        res.json(await run(res.locals.cred as SessionCredential, req));
      } catch (err) {
        if (err instanceof ApiError) failWith(res, err, config.publicUrl);
        else next(err);
      }
    };

  router.get(
    '/accounts/:accountId/disconnect',
    route(async (cred, req) => {
      const { account, queued } = await accountOf(cred, String(req.params.accountId));
      return { account, queuedPosts: queued.length };
    }),
  );

  router.post(
    '/accounts/:accountId/disconnect',
    route(async (cred, req) => {
      if ((req.body as { confirm?: unknown } | undefined)?.confirm !== true)
        throw confirmRequired('Disconnecting an account');
      const { data, account, queued } = await accountOf(cred, String(req.params.accountId));
      // Disconnected first, so no new post can be planned for it while its queued ones are cancelled.
      await data.accounts.disconnect(account.id);
      let cancelledPosts = 0;
      const publishing: string[] = [];
      for (const post of queued) {
        try {
          if (
            await data.posts.transition(post.id, (p) =>
              cancelToDraft(p, 'Cancelled because its account was disconnected'),
            )
          )
            cancelledPosts += 1;
        } catch (err) {
          // A post whose attempt already started cannot be stopped; it ends live or failed.
          if (!(err instanceof ApiError)) throw err;
          publishing.push(post.id);
        }
      }
      return { account, cancelledPosts, publishing };
    }),
  );

  return router;
}
