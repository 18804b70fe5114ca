// The plan: one row per account with its time and, if it would not pass its network's checks, each
// issue in the dashboard's words. Nothing is created until the person confirms.
import type { Account, PlanResponse } from '../api.ts';
import { timeText } from '../format.ts';
import { labelOf } from '../networks.ts';
import { issueWords } from '../words/words.ts';

export function PlanTable({
  plan,
  accounts,
  zone,
}: {
  plan: Pick<PlanResponse, 'rows' | 'quota' | 'ok'>;
  accounts: Account[];
  zone: string;
}) {
  const nameOf = (id: string) => accounts.find((a) => a.id === id)?.displayName ?? id;
  const failing = plan.rows.filter((r) => !r.ok).length;
  return (
    <div className="plan">
      <table>
        <caption>
          {failing
            ? `${failing} of ${plan.rows.length} posts would not pass their network's checks`
            : `${plan.rows.length} post${plan.rows.length === 1 ? '' : 's'} ready`}
          {' · '}this month {plan.quota.used} of {plan.quota.limit} posts used, this adds {plan.quota.requested}
        </caption>
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">When</th>
            <th scope="col">Checks</th>
          </tr>
        </thead>
        <tbody>
          {plan.rows.map((row) => (
            <tr key={row.accountId} className={row.ok ? 'ok' : 'failing'}>
              <th scope="row">
                {nameOf(row.accountId)}
                <span className="muted block">{labelOf(row.platform)}</span>
              </th>
              <td>{row.publishAt ? timeText(row.publishAt, zone) : 'Draft, no time'}</td>
              <td>
                {row.ok ? (
                  <span className="ok-text">Passes</span>
                ) : (
                  <ul className="issues">
                    {row.issues.map((issue, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a row's issues have no id and never reorder.
                      <li key={i}>{issueWords(issue, row.platform, nameOf(row.accountId))}</li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
