// The plan and its billing: the page at /app/settings/billing, which the upgradeUrl of every quota error names.
import { planUsage } from '../../billing/index.ts';
import { PLANS } from '../../domain/plans.ts';
import { allowanceReturnsAt, CREATIONS_PER_HOUR, type HourOfCreations } from '../../domain/quotas.ts';
import { hourOfCreations } from '../../db/creationHour.ts';
import type { AuthHandler } from '../../handlers/authTypes.ts';

const ON_SALE = ['free', 'creator', 'studio', 'agency'] as const;

/**
 * The workspace's hourly allowance of post creations as Settings shows it: how much is spent, by whom, and, once
 * it is spent, when it returns (the oldest counted creation leaves the hour).
 */
function newPostsThisHour(hour: HourOfCreations, now: number) {
  const spent = hour.createdLastHour >= CREATIONS_PER_HOUR;
  return {
    used: hour.createdLastHour,
    limit: CREATIONS_PER_HOUR,
    spentBy: hour.spentBy,
    retryAt: spent ? new Date(allowanceReturnsAt(hour, now)).toISOString() : null,
  };
}

export const getBilling: AuthHandler<'getBilling'> = async ({ cred, services, billing }) => {
  const plan = PLANS[cred.workspace.plan];
  const usage = await planUsage(services.db, cred.workspace, services.clock);
  const now = services.clock.now();
  const hour = await hourOfCreations(services.db, cred.workspace.id, new Date(now).toISOString());
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
        newPostsThisHour: newPostsThisHour(hour, now),
      },
    },
  };
};

/** The owner changes the plan through the billing provider (the contract names the plans on sale). */
export const changePlan: AuthHandler<'changePlan'> = async ({ cred, body, billing }) => ({
  status: 200,
  body: await billing.changePlan({ workspace: cred.workspace, plan: body.plan, userId: cred.user.id }),
});
