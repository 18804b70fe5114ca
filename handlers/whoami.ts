// GET /whoami: the caller's workspace, user, credential and usage against the plan.
import { DateTime } from 'luxon';
import { PLANS } from '../domain/plans.ts';
import type { Handler } from './types.ts';

export const getWhoami: Handler<'getWhoami'> = async ({ cred, data }) => {
  const plan = PLANS[cred.workspace.plan];
  const { accounts, members, storageBytes } = await data.usage();
  return {
    status: 200,
    body: {
      workspace: cred.workspace,
      user: cred.user,
      credential: { kind: cred.via, name: cred.name, scopes: cred.scopes },
      usage: {
        plan: plan.name,
        period: DateTime.now().setZone(cred.workspace.tz).toFormat('yyyy-MM'),
        // Posts arrive with the posts module; until then none exist.
        posts: { used: 0, limit: plan.postsPerMonth },
        storage: { usedBytes: storageBytes, limitBytes: plan.storageBytes },
        accounts: { used: accounts, limit: plan.accounts },
        members: { used: members, limit: plan.members },
      },
    },
  };
};
