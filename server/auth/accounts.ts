// Disconnecting an account: the confirm step tells how many queued posts the account has; disconnecting with
// {"confirm": true} cancels those posts back to draft, recorded in the audit trail. Its posts and history stay.
import { recordAudit } from '../../db/audit.ts';
import { workspaceData } from '../../db/workspaceData.ts';
import { confirmRequired, notFound } from '../../domain/errors.ts';
import { PostStateRefused } from '../../domain/postStates.ts';
import { cancelToDraft } from '../../handlers/posts/changes.ts';
import type { Services } from '../../runtime/services.ts';
import type { AuthHandler, SignedIn } from '../../handlers/authTypes.ts';

async function accountOf(services: Services, cred: SignedIn, id: string) {
  const data = workspaceData(services.db, cred.workspace, services.clock, services.jobs);
  const account = await data.accounts.get(id);
  if (!account) throw notFound('account', id);
  const queued = await data.posts.list({ status: 'queued', accountId: id, limit: 100_000 });
  return { data, account, queued };
}

export const getDisconnect: AuthHandler<'getDisconnect'> = async ({ cred, params, services }) => {
  const { account, queued } = await accountOf(services, cred, params.accountId);
  return { status: 200, body: { account, queuedPosts: queued.length } };
};

export const disconnectAccount: AuthHandler<'disconnectAccount'> = async ({ cred, params, body, services }) => {
  if (body?.confirm !== true) throw confirmRequired('Disconnecting an account', 'disconnectAccount');
  const { data, account, queued } = await accountOf(services, cred, params.accountId);
  // Disconnected first, so no new post can be planned for it while its queued ones are cancelled.
  await data.accounts.disconnect(account.id);
  let cancelledPosts = 0;
  const publishing: string[] = [];
  for (const post of queued) {
    try {
      if (await data.posts.transition(post.id, 'cancel', () => cancelToDraft('accountDisconnected')))
        cancelledPosts += 1;
    } catch (err) {
      // A post whose attempt already started cannot be stopped; it ends live or failed.
      if (!(err instanceof PostStateRefused)) throw err;
      publishing.push(post.id);
    }
  }
  await recordAudit(services.db, cred.workspace.id, cred.user.id, 'account.disconnected', {
    accountId: account.id,
    platform: account.platform,
    name: account.displayName,
    cancelledPosts,
  });
  return { status: 200, body: { account, cancelledPosts, publishing } };
};
