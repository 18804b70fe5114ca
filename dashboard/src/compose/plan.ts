// What the create button says: the confirm step names what will happen, read from the plan.
import { DateTime } from 'luxon';
import { formatInZone } from '../../../domain/when.ts';
import type { PlanResponse } from '../api.ts';
import type { WhenMode } from './when.ts';

const posts = (n: number) => `${n} post${n === 1 ? '' : 's'}`;

export function confirmLabel(
  plan: Pick<PlanResponse, 'rows' | 'status'> & Partial<Pick<PlanResponse, 'awaitingApproval'>>,
  mode: WhenMode,
  zone: string,
): string {
  const n = plan.rows.length;
  if (plan.awaitingApproval && mode !== 'draft') return `Ask for approval of ${posts(n)}`;
  if (plan.status === 'draft' || mode === 'draft') return `Save ${n === 1 ? '1 draft' : `${n} drafts`}`;
  if (mode === 'now') return `Publish ${posts(n)} now`;
  if (mode === 'queue') return `Add ${posts(n)} to the queue`;
  const times = [...new Set(plan.rows.map((r) => r.publishAt).filter((t): t is string => Boolean(t)))];
  if (times.length !== 1) return `Schedule ${posts(n)}`;
  return `Schedule ${posts(n)} for ${formatInZone(DateTime.fromISO(times[0]!), zone)}`;
}

/** Whether the plan's problems stop the save: they do for anything that will be sent, never for a draft. */
export function blockedByIssues(plan: Pick<PlanResponse, 'ok'>, staysDraft: boolean): boolean {
  return !plan.ok && !staysDraft;
}
