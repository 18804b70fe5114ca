// The plan: one row per account with its time and, if it would not pass its network's checks, each
// issue in the dashboard's words. Nothing is created until the person confirms. With "Add to queue", each row's
// time is its account's next free posting time, and an account without one says why, linking to its times.
import { Link, useLocation } from 'react-router';
import type { BackState } from '../accounts/AccountPageHeader.tsx';
import type { Account, PlanResponse } from '../api.ts';
import { useSchedule } from '../queries/schedule.ts';
import { timeText } from '../format.ts';
import { labelOf } from '../networks.ts';
import { QUEUE_WORDS } from '../words/scheduleWords.ts';
import { issueWords } from '../words/words.ts';

/** Why an account has no free posting time (none set, or every one taken), and the way to its times. */
function QueueEmpty({ account, fallback }: { account: Pick<Account, 'id' | 'displayName'>; fallback: string }) {
  const schedule = useSchedule(account.id);
  // The posting-times page leads back here, to this compose address.
  const { pathname, search } = useLocation();
  const why = !schedule.data
    ? fallback
    : schedule.data.slots.length === 0
      ? QUEUE_WORDS.noSlots(account.displayName)
      : QUEUE_WORDS.allTaken(account.displayName);
  return (
    <>
      {why}{' '}
      <Link to={`/accounts/${account.id}/schedule`} state={{ back: `${pathname}${search}` } satisfies BackState}>
        {QUEUE_WORDS.setTimes(account.displayName)}
      </Link>
    </>
  );
}

export function PlanTable({
  plan,
  accounts,
  zone,
  queue = false,
}: {
  plan: Pick<PlanResponse, 'rows' | 'quota' | 'ok'>;
  accounts: Account[];
  zone: string;
  /** The rows' times are the accounts' next free posting times ("Add to queue"). */
  queue?: boolean;
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
              <td>
                {row.publishAt ? (
                  <>
                    {timeText(row.publishAt, zone)}
                    {queue && <span className="muted block small">{QUEUE_WORDS.nextFree}</span>}
                  </>
                ) : queue ? (
                  QUEUE_WORDS.noTime
                ) : (
                  'Draft, no time'
                )}
              </td>
              <td>
                {row.ok ? (
                  <span className="ok-text">Passes</span>
                ) : (
                  <ul className="issues">
                    {row.issues.map((issue, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a row's issues have no id and never reorder.
                      <li key={i}>
                        {issue.code === 'queue_empty' ? (
                          <QueueEmpty
                            account={{ id: row.accountId, displayName: nameOf(row.accountId) }}
                            fallback={issueWords(issue, row.platform, nameOf(row.accountId))}
                          />
                        ) : (
                          issueWords(issue, row.platform, nameOf(row.accountId))
                        )}
                      </li>
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
