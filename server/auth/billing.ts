// The plan and its billing: the page at /app/settings/billing, which the upgradeUrl of every quota error names.
import { planUsage } from '../../billing/index.ts';
import { PLANS } from '../../domain/plans.ts';
import type { AuthHandler } from '../../handlers/authTypes.ts';

const ON_SALE = ['free', 'creator', 'studio', 'agency'] as const;

export const getBilling: AuthHandler<'getBilling'> = async ({ cred, services, billing }) => {
  const plan = PLANS[cred.workspace.plan];
  const usage = await planUsage(services.db, cred.workspace, services.clock);
  return {
    status: 200,
    body: {
      plan: plan.name,
      provider: billing.name,
      canChange: cred.role === 'owner',
      plans: ON_SALE.map((name) => ({ ...PLANS[name], name })),
      usage: {
        period: usage.period,
        posts: { used: usage.posts, limit: plan.postsPerMonth },
        accounts: { used: usage.accounts, limit: plan.accounts },
        storage: { usedBytes: usage.storageBytes, limitBytes: plan.storageBytes },
        members: { used: usage.seats, limit: plan.members },
      },
    },
  };
};

/** The owner changes the plan through the billing provider (the contract names the plans on sale). */
export const changePlan: AuthHandler<'changePlan'> = async ({ cred, body, billing }) => ({
  status: 200,
  body: await billing.changePlan({ workspace: cred.workspace, plan: body.plan, userId: cred.user.id }),
});
