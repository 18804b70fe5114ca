// GET /whoami: the caller's workspace, user, credential and usage against the plan.
import { DateTime } from 'luxon';
import { PLANS } from '../domain/plans.ts';
import type { Handler } from './types.ts';

export const getWhoami: Handler<'getWhoami'> = async ({ cred, data, services }) => {
  const plan = PLANS[cred.workspace.plan];
  const period = DateTime.fromMillis(services.clock.now(), { zone: cred.workspace.tz }).toFormat('yyyy-MM');
  const { accounts, members, storageBytes, posts } = await data.usage(period);
  return {
    status: 200,
    body: {
      workspace: cred.workspace,
      user: cred.user,
      credential: { kind: cred.via, name: cred.name, scopes: cred.scopes },
      usage: {
        plan: plan.name,
        period,
        posts: { used: posts, limit: plan.postsPerMonth },
        storage: { usedBytes: storageBytes, limitBytes: plan.storageBytes },
        accounts: { used: accounts, limit: plan.accounts },
        members: { used: members, limit: plan.members },
      },
    },
  };
};
