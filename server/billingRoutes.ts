// The plan and its billing (session-only, see sessionGuard.ts); the page at /app/settings/billing, the
// upgradeUrl of every quota error, reads it.
//   GET  /auth/billing        the plans on sale, the current one, usage meters (the month's and the hour's new
//                             posts), the billing provider
//   POST /auth/billing/plan   {plan}: the owner changes the plan through the provider
import express from 'express';
import { planUsage, type BillingProvider } from '../billing/index.ts';
import { invalidRequest } from '../domain/errors.ts';
import { isPlanName, PLANS, type PlanName } from '../domain/plans.ts';
import { allowanceReturnsAt, CREATIONS_PER_HOUR, type HourOfCreations } from '../domain/quotas.ts';
import { hourOfCreations } from '../db/creationHour.ts';
import type { Services } from '../runtime/services.ts';
import { bodyOf, sessionRoute } from './sessionGuard.ts';

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

const ON_SALE: PlanName[] = ['free', 'creator', 'studio', 'agency'];

export function billingRoutes(services: Services, provider: BillingProvider): express.Router {
  const { db } = services;
  const router = express.Router();

  router.get(
    '/billing',
    sessionRoute(services, { role: 'administrator', action: 'Opening billing' }, async (cred) => {
      const plan = PLANS[cred.workspace.plan];
      const usage = await planUsage(db, cred.workspace, services.clock);
      const now = services.clock.now();
      const hour = await hourOfCreations(db, cred.workspace.id, new Date(now).toISOString());
      return {
        status: 200,
        body: {
          plan: plan.name,
          provider: provider.name,
          canChange: cred.role === 'owner',
          plans: ON_SALE.map((name) => PLANS[name]),
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
    }),
  );

  router.post(
    '/billing/plan',
    sessionRoute(services, { role: 'owner', action: 'Changing the plan' }, async (cred, req) => {
      const { plan } = bodyOf(req);
      if (typeof plan !== 'string' || !isPlanName(plan) || !ON_SALE.includes(plan)) {
        throw invalidRequest(`plan must be one of ${ON_SALE.join(', ')}.`, 'Pick a plan from the plan table.');
      }
      const outcome = await provider.changePlan({ workspace: cred.workspace, plan, userId: cred.user.id });
      return { status: 200, body: outcome };
    }),
  );

  return router;
}
