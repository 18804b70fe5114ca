// Plan limits as rules over plain numbers; callers count, these decide and explain.
import { QuotaExceededError, rateLimited } from './errors.ts';
import { nextPlanWith, PLANS, type Plan, type PlanName } from './plans.ts';

function upgradeHint(current: PlanName, allows: (p: Plan) => boolean, what: string, freeUp: string): string {
  const next = nextPlanWith(current, allows);
  const upgrade = next ? `, or upgrade to ${next[0]!.toUpperCase()}${next.slice(1)} (${what})` : '';
  return `${freeUp}${upgrade}.`;
}

/** `requested` accounts more (one network consent can grant several Pages) fit, or none is added. */
export function assertCanConnectAccount(plan: PlanName, used: number, requested = 1): void {
  const limit = PLANS[plan].accounts;
  if (used + requested <= limit) return;
  throw new QuotaExceededError(
    `The ${plan} plan allows ${limit} connected accounts and ${used} are connected${requested > 1 ? `; this would add ${requested}` : ''}.`,
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

export const CREATIONS_PER_HOUR = 60;

/**
 * The guards of POST /posts, decided from counts taken inside the creating transaction:
 * 60 creation requests per hour per workspace, then the month's post quota.
 */
export function assertCanCreatePosts(plan: PlanName, counts: { monthUsed: number; createdLastHour: number; oldestLastHour: string | null },
  requested: number, now: number): void {
  if (counts.createdLastHour >= CREATIONS_PER_HOUR) {
    const freeAt = counts.oldestLastHour ? Date.parse(counts.oldestLastHour) + 3600_000 : now + 3600_000;
    const wait = Math.max(1, Math.ceil((freeAt - now) / 1000));
    throw rateLimited(wait, `This workspace created posts ${CREATIONS_PER_HOUR} times in the last hour, the hourly limit; one request may carry several targets.`);
  }
  assertMonthQuota(plan, counts.monthUsed, requested);
}

export function assertMonthQuota(plan: PlanName, used: number, requested: number): void {
  const limit = PLANS[plan].postsPerMonth;
  if (used + requested <= limit) return;
  throw new QuotaExceededError(
    `The ${plan} plan allows ${limit} posts a month; ${used} are counted and this asks for ${requested} more.`,
    upgradeHint(plan, (p) => p.postsPerMonth > limit, 'more posts', 'Cancel a queued post or wait for next month'),
    limit, used);
}

/**
 * A new file must fit the plan's per-file limit, and the storage limit counting the bytes stored
 * plus those reserved by uploads still in progress (so parallel reservations cannot pass it).
 */
export function assertFileFits(plan: PlanName, size: number, storageCommitted: number): void {
  const { maxFileBytes, storageBytes } = PLANS[plan];
  if (size > maxFileBytes) {
    throw new QuotaExceededError(
      `size: ${size} bytes is over the ${maxFileBytes}-byte limit per file of the ${plan} plan.`,
      upgradeHint(plan, (p) => p.maxFileBytes > maxFileBytes, 'larger files', 'Send a smaller file (compress or shorten it)'),
      maxFileBytes, size);
  }
  if (storageCommitted + size > storageBytes) {
    throw new QuotaExceededError(
      `This file needs ${size} bytes; ${storageCommitted} of ${storageBytes} bytes of storage are used or reserved by uploads in progress.`,
      upgradeHint(plan, (p) => p.storageBytes > storageBytes, 'more storage', 'Delete files you no longer need'),
      storageBytes, storageCommitted);
  }
}
