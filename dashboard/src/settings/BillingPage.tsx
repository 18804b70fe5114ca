// Settings, plan and billing (/app/settings/billing, the upgradeUrl of every quota error): the plan table
// with the current plan, this month's usage, and for the owner the change of plan. A downgrade below
// current usage is refused by the server with what to remove first, which shows here as it came.
import { authApi, call } from '../api.ts';
import { bytesText } from '../format.ts';
import { Button, Confirm, ErrorNote, Loading } from '../ui.tsx';
import { billingKeys, useBilling } from '../queries/billing.ts';
import { groupKeys } from '../queries/groups.ts';
import { apiKeyKeys } from '../queries/keys.ts';
import { memberKeys } from '../queries/members.ts';
import { useRefresh } from '../queries/refresh.ts';
import { webhookKeys } from '../queries/webhooks.ts';
import { whoamiKeys } from '../queries/whoami.ts';
import { SESSION_KEY } from '../session.tsx';
import { planLabel, type Billing, type Plan } from './settingsApi.ts';
import { hourlyAllowanceWords } from '../words/rateLimitWords.ts';

function Meter({
  id,
  label,
  used,
  limit,
  text,
}: {
  id: string;
  label: string;
  used: number;
  limit: number;
  text: string;
}) {
  return (
    <div className="meter">
      <label htmlFor={id}>
        {label}: {text}
      </label>
      <meter id={id} min={0} max={limit} value={Math.min(used, limit)} high={limit * 0.9} />
    </div>
  );
}

function Usage({ usage }: { usage: Billing['usage'] }) {
  const count = (id: string, label: string, { used, limit }: { used: number; limit: number }) => ({
    id,
    label,
    used,
    limit,
    text: `${used} of ${limit}`,
  });
  const { usedBytes, limitBytes } = usage.storage;
  const meters = [
    count('meter-posts', 'Posts this month', usage.posts),
    count('meter-accounts', 'Connected accounts', usage.accounts),
    {
      id: 'meter-storage',
      label: 'Storage',
      used: usedBytes,
      limit: limitBytes,
      text: `${bytesText(usedBytes)} of ${bytesText(limitBytes)}`,
    },
    count('meter-members', 'Members and invitations', usage.members),
  ];
  const hour = usage.newPostsThisHour;
  const hourWords = hourlyAllowanceWords(hour);
  return (
    <section className="card" aria-labelledby="usage-title">
      <h2 id="usage-title">Usage in {usage.period}</h2>
      <div className="usage-meters">
        {meters.map((m) => (
          <Meter key={m.id} {...m} />
        ))}
        <Meter id="meter-hour" label="New posts this hour, all keys and people" {...hour} text={hourWords.text} />
      </div>
      {hourWords.note && <p className="note note-warn">{hourWords.note}</p>}
    </section>
  );
}

const yesNo = (v: boolean) => (v ? 'yes' : 'no');

function ChangePlan({ plan, current }: { plan: Plan; current: string }) {
  const refresh = useRefresh();
  const order = ['free', 'creator', 'studio', 'agency'];
  const up = order.indexOf(plan.name) > order.indexOf(current);
  return (
    <Confirm
      trigger={
        <Button tone={up ? 'primary' : 'secondary'}>
          {up ? 'Upgrade' : 'Downgrade'} to {planLabel(plan.name)}
        </Button>
      }
      title={`Change the plan to ${planLabel(plan.name)}?`}
      action={`Change to ${planLabel(plan.name)}`}
      description={
        <p>
          {planLabel(plan.name)} allows {plan.accounts} accounts, {plan.postsPerMonth} posts a month,{' '}
          {bytesText(plan.storageBytes)} of storage and {plan.members} member{plan.members === 1 ? '' : 's'}
          {plan.api ? ', with the REST API' : ', without the REST API'}. The change applies at once.
        </p>
      }
      onConfirm={async () => {
        await call(authApi.POST('/billing/plan', { body: { plan: plan.name } }));
        // The plan's limits and features: the session's plan, usage, what keys may do, seats, webhooks and groups.
        await refresh(
          billingKeys.all,
          SESSION_KEY,
          whoamiKeys.all,
          apiKeyKeys.all,
          memberKeys.all,
          webhookKeys.all,
          groupKeys.all,
        );
      }}
    />
  );
}

function PlanTable({ billing }: { billing: Billing }) {
  return (
    <section className="card" aria-labelledby="plans-title">
      <h2 id="plans-title">Plans</h2>
      <div className="table-scroll">
        <table className="plans">
          <caption className="sr-only">Plans and what each allows; the current one is marked</caption>
          <thead>
            <tr>
              <th scope="col">Plan</th>
              <th scope="col">Price (USD, month / year)</th>
              <th scope="col">Accounts</th>
              <th scope="col">Posts a month</th>
              <th scope="col">Storage</th>
              <th scope="col">Per file</th>
              <th scope="col">Members</th>
              <th scope="col">API</th>
              <th scope="col">MCP</th>
              <th scope="col">Groups</th>
              {billing.canChange && (
                <th scope="col">
                  <span className="sr-only">Change</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {billing.plans.map((p) => (
              <tr
                key={p.name}
                aria-current={p.name === billing.plan ? 'true' : undefined}
                className={p.name === billing.plan ? 'current' : ''}
              >
                <th scope="row">
                  {planLabel(p.name)}
                  {p.name === billing.plan && <span className="badge"> current</span>}
                </th>
                <td>{p.priceUsd ? `${p.priceUsd.month} / ${p.priceUsd.year}` : '—'}</td>
                <td>{p.accounts}</td>
                <td>{p.postsPerMonth}</td>
                <td>{bytesText(p.storageBytes)}</td>
                <td>{bytesText(p.maxFileBytes)}</td>
                <td>{p.members}</td>
                <td>{yesNo(p.api)}</td>
                <td>{p.mcp === 'full' ? 'full' : 'read-only'}</td>
                <td>{yesNo(p.groups)}</td>
                {billing.canChange && (
                  <td>{p.name !== billing.plan && <ChangePlan plan={p} current={billing.plan} />}</td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">
        Billing:{' '}
        {billing.provider === 'self-hosted'
          ? 'self-hosted, so the owner changes the plan directly and nothing is charged'
          : billing.provider}
        .{!billing.canChange && ' Only the owner changes the plan.'}
      </p>
    </section>
  );
}

export function BillingPage() {
  const billing = useBilling();
  if (billing.isPending) return <Loading label="Loading the plan" />;
  if (billing.isError) return <ErrorNote title="Billing is not available to you" error={billing.error} />;
  return (
    <div className="stack">
      <p>
        This workspace is on the <strong>{planLabel(billing.data.plan)}</strong> plan.
      </p>
      <Usage usage={billing.data.usage} />
      <PlanTable billing={billing.data} />
    </div>
  );
}
