// Plan limits as rules over plain numbers; callers count, these decide and explain.
import { QuotaExceededError } from './errors.ts';
import { nextPlanWith, PLANS, type Plan, type PlanName } from './plans.ts';

function upgradeHint(current: PlanName, allows: (p: Plan) => boolean, what: string, freeUp: string): string {
  const next = nextPlanWith(current, allows);
  const upgrade = next ? `, or upgrade to ${next[0]!.toUpperCase()}${next.slice(1)} (${what})` : '';
  return `${freeUp}${upgrade}.`;
}

export function assertCanConnectAccount(plan: PlanName, used: number): void {
  const limit = PLANS[plan].accounts;
  if (used < limit) return;
  throw new QuotaExceededError(
    `The ${plan} plan allows ${limit} connected accounts and ${used} are connected.`,
    upgradeHint(plan, (p) => p.accounts > limit, 'more accounts', 'Disconnect an account'),
    limit, used);
}

export function assertApiAccess(plan: PlanName): void {
  if (PLANS[plan].api) return;
  throw new QuotaExceededError(
    `The ${plan} plan has no REST API access.`,
    upgradeHint(plan, (p) => p.api, 'API access', 'Use the dashboard or the read-only MCP tools'),
    0, 0);
}

export function assertGroupsAllowed(plan: PlanName, used: number): void {
  if (PLANS[plan].groups) return;
  throw new QuotaExceededError(
    `Groups need the Creator plan or above; this workspace is on ${plan}.`,
    upgradeHint(plan, (p) => p.groups, 'groups', 'Target accounts by accountIds instead'),
    0, used);
}
