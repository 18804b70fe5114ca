// Plan changes go through a billing provider. Self-hosted Herald has one: the owner changes the plan
// directly. A paid provider (Stripe Checkout, say) would answer `checkout` with the address where the
// person pays, and its webhook would call applyPlanChange once the payment succeeds; nothing else changes.
import type { Knex } from 'knex';
import { DateTime } from 'luxon';
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/connect.ts';
import { lockWorkspace } from '../db/locks.ts';
import { countSeats } from '../db/members.ts';
import { workspaceData } from '../db/workspaceData.ts';
import type { Workspace } from '../domain/credential.ts';
import { ApiError } from '../domain/errors.ts';
import type { PlanName } from '../domain/plans.ts';
import type { Clock } from '../runtime/clock.ts';
import { downgradeBlockers, type PlanUsage } from '../domain/quotas.ts';

export interface PlanChange {
  workspace: Workspace;
  plan: PlanName;
  /** The owner who asked for it. */
  userId: string;
}

export type PlanChangeOutcome = { status: 'changed'; plan: PlanName } | { status: 'checkout'; url: string };

export interface BillingProvider {
  /** Shown on the billing page. */
  readonly name: string;
  changePlan(change: PlanChange): Promise<PlanChangeOutcome>;
}

/** What counts against a plan now; `month` is the current month in the workspace's zone. */
export async function planUsage(q: Knex, workspace: Workspace, clock: Clock): Promise<PlanUsage & { period: string }> {
  const period = DateTime.fromMillis(clock.now(), { zone: workspace.tz }).toFormat('yyyy-MM');
  const data = workspaceData(q, workspace, clock);
  const usage = await data.usage(period);
  return {
    period,
    accounts: usage.accounts,
    storageBytes: usage.storageBytes,
    posts: usage.posts,
    seats: await countSeats(q, workspace.id),
    groups: await data.groups.count(),
  };
}

/** Sets the plan, refusing a downgrade below current usage with what to remove first; recorded with who and when. */
export function applyPlanChange(db: Db, clock: Clock, change: PlanChange, provider: string): Promise<void> {
  return db.transaction(async (trx) => {
    await lockWorkspace(trx, change.workspace.id);
    const current = await trx('workspaces').where({ id: change.workspace.id }).first('plan');
    if (current.plan === change.plan) return;
    const blockers = downgradeBlockers(change.plan, await planUsage(trx, change.workspace, clock));
    const [first] = blockers;
    if (first) {
      // The first limit over as facts; every limit over as a sentence in `blockers`.
      const sentences = blockers.map((b) => b.sentence);
      throw new ApiError(
        409,
        'downgrade_blocked',
        `This workspace uses more than the ${change.plan} plan allows.`,
        `Remove these first, then change the plan: ${sentences.join(' ')}`,
        { blockers: sentences, field: first.field, limit: first.limit, actual: first.actual },
      );
    }
    await trx('workspaces').where({ id: change.workspace.id }).update({ plan: change.plan });
    await recordAudit(trx, change.workspace.id, change.userId, 'plan.changed', {
      from: current.plan,
      to: change.plan,
      provider,
    });
  });
}

export function selfHostedBilling(db: Db, clock: Clock): BillingProvider {
  return {
    name: 'self-hosted',
    async changePlan(change) {
      await applyPlanChange(db, clock, change, 'self-hosted');
      return { status: 'changed', plan: change.plan };
    },
  };
}
