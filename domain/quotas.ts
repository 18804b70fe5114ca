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
    `The ${plan} plan allows ${limit} connected accounts and ${used} are ` +
      `connected${requested > 1 ? `; this would add ${requested}` : ''}.`,
    upgradeHint(plan, (p) => p.accounts > limit, 'more accounts', 'Disconnect an account'),
    limit,
    used,
    'accounts',
  );
}

export function assertApiAccess(plan: PlanName): void {
  if (PLANS[plan].api) return;
  throw new QuotaExceededError(
    `The ${plan} plan has no REST API access.`,
    upgradeHint(plan, (p) => p.api, 'API access', 'Use the dashboard or the read-only MCP tools'),
    0,
    0,
    'api',
  );
}

export function assertGroupsAllowed(plan: PlanName, used: number): void {
  if (PLANS[plan].groups) return;
  throw new QuotaExceededError(
    `Groups need the Creator plan or above; this workspace is on ${plan}.`,
    upgradeHint(plan, (p) => p.groups, 'groups', 'Target accounts by accountIds instead'),
    0,
    used,
    'groups',
  );
}

export const CREATIONS_PER_HOUR = 60;

/** The workspace's creation requests of the last hour, and who made those whose posts still exist. */
export interface HourOfCreations {
  createdLastHour: number;
  oldestLastHour: string | null;
  spentBy: { keys: number; people: number };
}

/** When a spent hour lets one more creation through: once its oldest creation leaves the hour. */
export const allowanceReturnsAt = (hour: HourOfCreations, now: number) =>
  hour.oldestLastHour ? Date.parse(hour.oldestLastHour) + 3600_000 : now + 3600_000;

/**
 * The guards of POST /posts, decided from counts taken inside the creating transaction:
 * 60 creation requests per hour per workspace, then the month's post quota.
 */
export function assertCanCreatePosts(
  plan: PlanName,
  counts: HourOfCreations & { monthUsed: number },
  requested: number,
  now: number,
): void {
  if (counts.createdLastHour >= CREATIONS_PER_HOUR) {
    throw rateLimited(
      allowanceReturnsAt(counts, now),
      now,
      `This workspace created posts ${CREATIONS_PER_HOUR} times in the last hour, the hourly limit; one ` +
        `request may carry several targets.`,
      { limit: CREATIONS_PER_HOUR, actual: counts.createdLastHour, spentBy: counts.spentBy },
    );
  }
  assertMonthQuota(plan, counts.monthUsed, requested);
}

export function assertMonthQuota(plan: PlanName, used: number, requested: number): void {
  const limit = PLANS[plan].postsPerMonth;
  if (used + requested <= limit) return;
  throw new QuotaExceededError(
    `The ${plan} plan allows ${limit} posts a month; ${used} are counted and this asks for ${requested} more.`,
    upgradeHint(plan, (p) => p.postsPerMonth > limit, 'more posts', 'Cancel a queued post or wait for next month'),
    limit,
    used,
    'postsPerMonth',
  );
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
      upgradeHint(
        plan,
        (p) => p.maxFileBytes > maxFileBytes,
        'larger files',
        'Send a smaller file (compress or shorten it)',
      ),
      maxFileBytes,
      size,
      'maxFileBytes',
      { field: 'size' },
    );
  }
  if (storageCommitted + size > storageBytes) {
    throw new QuotaExceededError(
      `This file needs ${size} bytes; ${storageCommitted} of ${storageBytes} bytes of storage are used or ` +
        `reserved by uploads in progress.`,
      upgradeHint(plan, (p) => p.storageBytes > storageBytes, 'more storage', 'Delete files you no longer need'),
      storageBytes,
      storageCommitted,
      'storageBytes',
      { field: 'size', actual: size },
    );
  }
}

/** Members and pending invitations together fit the plan's member limit. */
export function assertCanAddMember(plan: PlanName, used: number): void {
  const limit = PLANS[plan].members;
  if (used < limit) return;
  throw new QuotaExceededError(
    `The ${plan} plan allows ${limit} member${limit === 1 ? '' : 's'}, and ${used} ` +
      `${used === 1 ? 'seat is' : 'seats are'} taken (members plus pending invitations).`,
    upgradeHint(plan, (p) => p.members > limit, 'more members', 'Withdraw a pending invitation or remove a member'),
    limit,
    used,
    'members',
  );
}

export interface PlanUsage {
  accounts: number;
  /** Members plus pending invitations. */
  seats: number;
  storageBytes: number;
  /** Posts counted this month. */
  posts: number;
  groups: number;
}

const megabytes = (bytes: number) => `${Math.ceil(bytes / 1024 ** 2).toLocaleString('en-US')} MB`;

/** One limit a downgrade is over: the usage it counts (`field`), the target plan's allowance and the usage. */
export interface DowngradeBlocker {
  field: 'accounts' | 'members' | 'storageBytes' | 'postsPerMonth' | 'groups';
  limit: number;
  actual: number;
  sentence: string;
}

/**
 * What must go before the workspace fits `target`, one blocker each; empty when it fits. A downgrade
 * below current usage is refused with these, so nothing is lost to a plan change.
 */
export function downgradeBlockers(target: PlanName, usage: PlanUsage): DowngradeBlocker[] {
  const plan = PLANS[target];
  const name = `${target[0]!.toUpperCase()}${target.slice(1)}`;
  const out: DowngradeBlocker[] = [];
  if (usage.accounts > plan.accounts) {
    out.push({
      field: 'accounts',
      limit: plan.accounts,
      actual: usage.accounts,
      sentence:
        `Disconnect ${usage.accounts - plan.accounts} of the ${usage.accounts} connected accounts ` +
        `(${name} allows ${plan.accounts}).`,
    });
  }
  if (usage.seats > plan.members) {
    out.push({
      field: 'members',
      limit: plan.members,
      actual: usage.seats,
      sentence:
        `Remove ${usage.seats - plan.members} of the ${usage.seats} members and pending invitations ` +
        `(${name} allows ${plan.members}).`,
    });
  }
  if (usage.storageBytes > plan.storageBytes) {
    const over = megabytes(usage.storageBytes - plan.storageBytes);
    out.push({
      field: 'storageBytes',
      limit: plan.storageBytes,
      actual: usage.storageBytes,
      sentence: `Delete ${over} of files (${name} stores ${megabytes(plan.storageBytes)}).`,
    });
  }
  if (usage.posts > plan.postsPerMonth) {
    out.push({
      field: 'postsPerMonth',
      limit: plan.postsPerMonth,
      actual: usage.posts,
      sentence:
        `This month counts ${usage.posts} posts and ${name} allows ${plan.postsPerMonth}: ` +
        `cancel ${usage.posts - plan.postsPerMonth} queued posts, or change the plan next month.`,
    });
  }
  if (usage.groups > 0 && !plan.groups) {
    const sentence = `Delete the ${usage.groups} account groups (${name} has no groups).`;
    out.push({ field: 'groups', limit: 0, actual: usage.groups, sentence });
  }
  return out;
}

export function assertWebhooksAllowed(plan: PlanName): void {
  if (PLANS[plan].webhooks) return;
  throw new QuotaExceededError(
    `Webhooks need the Studio plan or above; this workspace is on ${plan}.`,
    upgradeHint(plan, (p) => p.webhooks, 'webhooks', 'Read GET /events for what changed'),
    0,
    0,
    'webhooks',
  );
}

/** Webhooks a workspace may have, on every plan: each event is sent once per webhook, so this bounds what one costs. */
export const WEBHOOKS_PER_WORKSPACE = 25;

export function assertCanAddWebhook(used: number): void {
  if (used < WEBHOOKS_PER_WORKSPACE) return;
  throw new QuotaExceededError(
    `A workspace may have ${WEBHOOKS_PER_WORKSPACE} webhooks and this one has ${used}.`,
    'Delete a webhook you no longer use; one webhook can receive several event types (its `events`).',
    WEBHOOKS_PER_WORKSPACE,
    used,
    'webhooks',
  );
}
