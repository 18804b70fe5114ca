// Accounts: what is connected, its state and health (its token's life, its network's restrictions, its guide),
// connect (the network's consent page, or for Bluesky the sign-in form the server sends the person to as
// ?connect=<platform>), reconnect, disconnect (queued posts go back to
// draft, the confirm says how many), and groups. A connection's outcome comes back as ?connected=<n> (with the
// posts a reconnect sent again, ?requeued=<m>&sentAgain=…) or ?error=<code>&message=…&hint=… (with the network's
// reason, or the plan's limit and use), said in connectWords' words.
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { authApi, call, type Account } from '../api.ts';
import { readSentAgain } from '../../../domain/sentAgain.ts';
import { dayTimeText } from '../format.ts';
import { labelOf, NETWORKS } from '../networks.ts';
import { NetworkMark } from '../NetworkMark.tsx';
import { accountKeys, disconnectPreviewQuery, useAccounts } from '../queries/accounts.ts';
import { billingKeys } from '../queries/billing.ts';
import { groupKeys } from '../queries/groups.ts';
import { postKeys, postQuery } from '../queries/posts.ts';
import { useRefresh } from '../queries/refresh.ts';
import { scheduleKeys } from '../queries/schedule.ts';
import { whoamiKeys } from '../queries/whoami.ts';
import { useMay, useSignedIn } from '../session.tsx';
import { AdminsOnly, Button, Confirm, Empty, ErrorNote, Loading, PageHeader } from '../ui.tsx';
import { guideHref } from '../../../networks/guides.ts';
import { PLANS } from '../../../domain/plans.ts';
import { guideLinkText, renewalEndsSoon, restrictionText, tokenLines } from '../words/healthWords.ts';
import {
  accountLimitWords,
  connectedTitle,
  connectRefusalWords,
  sentAgainMore,
  sentAgainWords,
} from '../words/connectWords.ts';
import { QUEUE_PAGE_WORDS } from '../words/scheduleWords.ts';
import { ACCOUNT_STATUS_WORDS } from '../words/statusWords.ts';
import { GroupsPanel } from './GroupsPanel.tsx';
import { SignInForm } from './SignInForm.tsx';

/** A connection the server refused, in the accounts page's words (the reason, the plan's limit) and its next step. */
function ConnectRefusal({ params, dismiss }: { params: URLSearchParams; dismiss: () => void }) {
  const { plan } = useSignedIn().workspace;
  const body = Object.fromEntries(params.entries());
  const code = params.get('error') ?? '';
  const words = connectRefusalWords({ code, message: params.get('message') ?? '', status: 0, body }, plan);
  return (
    <div className="stack">
      <div className="note note-error" role="alert">
        <p className="note-title">The account was not connected</p>
        <p>{words.title}</p>
        {words.hint && <p className="note-hint">{words.hint}</p>}
        {code === 'quota_exceeded' && (
          <p>
            <Link to="/settings/billing">See plans</Link>
          </p>
        )}
      </div>
      <Button tone="ghost" onClick={dismiss}>
        Dismiss
      </Button>
    </div>
  );
}

/** The posts a reconnect sent again, each named by the time it was meant for and its account, linked. */
function SentAgainList({ params, accounts }: { params: URLSearchParams; accounts: Account[] | undefined }) {
  const zone = useSignedIn().workspace.tz;
  const named = readSentAgain(params.get('sentAgain'));
  const posts = useQueries({ queries: named.map((p) => postQuery(p.postId)) });
  const more = Number(params.get('requeued') ?? 0) - named.length;
  if (!named.length) return null;
  return (
    <ul>
      {named.map((p, i) => {
        const account = accounts?.find((a) => a.id === posts[i]?.data?.accountId)?.displayName;
        const words = sentAgainWords(p.publishAt ? dayTimeText(p.publishAt, zone) : undefined, account);
        return (
          <li key={p.postId}>
            {words.lead} <Link to={`/posts/${p.postId}`}>{words.post}</Link>
          </li>
        );
      })}
      {more > 0 && <li>{sentAgainMore(more)}</li>}
    </ul>
  );
}

function ConnectOutcome({ accounts }: { accounts: Account[] | undefined }) {
  const [params, setParams] = useSearchParams();
  const connected = Number(params.get('connected') ?? 0);
  const dismiss = () => setParams({}, { replace: true });
  if (params.get('error')) return <ConnectRefusal params={params} dismiss={dismiss} />;
  if (!params.has('connected')) return null;
  const reconnected = accounts?.find((a) => a.id === params.get('reconnected'))?.displayName;
  // The Pages a Facebook grant reached but that could not be connected, each with why (the server's words).
  const notConnected = params.get('notConnected');
  return (
    <div className="note note-ok" role="status">
      <p>
        {connectedTitle(connected, reconnected)}{' '}
        <Button tone="ghost" onClick={dismiss}>
          Dismiss
        </Button>
      </p>
      <SentAgainList params={params} accounts={accounts} />
      {notConnected && <p>{notConnected}</p>}
    </div>
  );
}

function DisconnectButton({ account }: { account: Account }) {
  const refresh = useRefresh();
  const preview = useQuery(disconnectPreviewQuery(account.id));
  const n = preview.data?.queuedPosts;
  return (
    <Confirm
      trigger={<Button tone="ghost">Disconnect</Button>}
      title={`Disconnect ${account.displayName}?`}
      tone="danger"
      action={n ? `Disconnect and move ${n} post${n === 1 ? '' : 's'} to drafts` : 'Disconnect'}
      description={
        <>
          <p>Herald forgets this {labelOf(account.platform)} account's access. Its posts and their history stay.</p>
          <p>
            {n === undefined
              ? 'Counting its queued posts…'
              : n === 0
                ? 'It has no queued posts.'
                : `${n} queued post${n === 1 ? '' : 's'} will be cancelled back to draft and will not be published.`}
          </p>
        </>
      }
      onConfirm={async () => {
        await call(
          authApi.POST('/accounts/{accountId}/disconnect', {
            params: { path: { accountId: account.id } },
            body: { confirm: true },
          }),
        );
        // Its queued posts went back to draft; it left its groups, its posting times and the plan's count.
        await refresh(
          accountKeys.all,
          postKeys.all,
          groupKeys.all,
          scheduleKeys.of(account.id),
          whoamiKeys.all,
          billingKeys.all,
        );
      }}
    />
  );
}

/** The token's life, what the network holds back until it reviews the operator's app, and the network's guide. */
function AccountHealth({ account }: { account: Account }) {
  const zone = useSignedIn().workspace.tz;
  const guide = guideHref(account.platform);
  const soon = renewalEndsSoon(account);
  const lines = account.token ? tokenLines(account, zone) : [];
  return (
    <div className="account-health">
      {account.token && (
        <ul className="muted">
          {/* The renewal end, the last line, in the warning's colour while it is within a week. */}
          {lines.map((line, i) => (
            <li key={line} className={soon && i === lines.length - 1 ? 'health-soon' : undefined}>
              {line}
            </li>
          ))}
        </ul>
      )}
      {account.restrictions?.map((r) => (
        <p key={r.code} className="note">
          {restrictionText(r)}
        </p>
      ))}
      {guide && (
        <p className="muted">
          <a href={guide}>{guideLinkText(account)}</a>
        </p>
      )}
    </div>
  );
}

function AccountRow({ account }: { account: Account }) {
  const healthy = account.status === 'ok';
  const manages = useMay('administrator');
  return (
    <li className="row">
      <NetworkMark platform={account.platform} size={28} decorative />
      <div className="row-main">
        <p className="row-title">{account.displayName}</p>
        <p className="muted">
          {labelOf(account.platform)} ·{' '}
          <span className={`status status-${account.status}`}>{ACCOUNT_STATUS_WORDS[account.status]}</span>
          {!healthy && ` — posts to it wait until ${manages ? 'it is reconnected' : 'an administrator reconnects it'}`}
          {' · '}
          <Link to={`/accounts/${account.id}/schedule`}>
            Posting times<span className="sr-only"> of {account.displayName}</span>
          </Link>
          {' · '}
          <Link to={`/accounts/${account.id}/queue`}>
            {QUEUE_PAGE_WORDS.link}
            <span className="sr-only">{QUEUE_PAGE_WORDS.linkFor(account.displayName)}</span>
          </Link>
        </p>
        <AccountHealth account={account} />
      </div>
      {manages && (
        <div className="row-actions">
          <a
            className={`btn ${healthy ? 'btn-ghost' : 'btn-primary'}`}
            href={`/auth/connect/${account.platform}?accountId=${account.id}`}
          >
            Reconnect<span className="sr-only"> {account.displayName}</span>
          </a>
          <DisconnectButton account={account} />
        </div>
      )}
    </li>
  );
}

/**
 * The networks' connect tiles: Herald's consent flow, then straight back here. A plan with no room left for another
 * account says so here, with the way to more, and offers no tile that would end in a refusal after the consent page.
 */
function ConnectTiles({ connected }: { connected: number }) {
  const { plan } = useSignedIn().workspace;
  const limit =
    connected >= PLANS[plan].accounts ? accountLimitWords(plan, PLANS[plan].accounts, connected) : undefined;
  return (
    <>
      {limit && (
        <div className="note" id="connect-limit">
          <p className="note-title">{limit.title}</p>
          <p>
            {limit.hint} <Link to="/settings/billing">See plans</Link>
          </p>
        </div>
      )}
      <div className="connect-grid">
        {NETWORKS.map((n) =>
          n.available && !limit ? (
            <a key={n.platform} className="connect-tile" href={`/auth/connect/${n.platform}`}>
              <NetworkMark platform={n.platform} decorative />
              Connect {n.label}
            </a>
          ) : (
            <span
              key={n.platform}
              className="connect-tile disabled"
              aria-disabled="true"
              aria-describedby={n.available ? 'connect-limit' : undefined}
            >
              <NetworkMark platform={n.platform} decorative />
              {n.available ? `Connect ${n.label}` : `${n.label}: coming soon`}
            </span>
          ),
        )}
      </div>
    </>
  );
}

/** The sign-in form, when the server sent the person here to connect a network that has no consent page. */
function SignInStep({ accounts }: { accounts: Account[] | undefined }) {
  const [params] = useSearchParams();
  const platform = NETWORKS.find((n) => n.platform === params.get('connect'))?.platform;
  const accountId = params.get('accountId');
  if (!platform || (accountId && !accounts)) return null;
  return (
    <SignInForm
      key={`${platform}-${accountId}`}
      platform={platform}
      server={params.get('server') ?? ''}
      reconnecting={accounts?.find((a) => a.id === accountId)}
    />
  );
}

export function AccountsPage() {
  const accounts = useAccounts();
  const manages = useMay('administrator');
  return (
    <>
      <PageHeader title="Accounts" />
      <ConnectOutcome accounts={accounts.data} />
      {manages && <SignInStep accounts={accounts.data} />}
      <section aria-labelledby="connected-h" className="card">
        <h2 id="connected-h">Connected accounts</h2>
        {accounts.isPending ? (
          <Loading />
        ) : accounts.isError ? (
          <ErrorNote error={accounts.error} />
        ) : accounts.data.length === 0 ? (
          <Empty title="No account yet">
            {manages
              ? "Connect one below: you approve Herald on the network's own page (for Bluesky, with an app password " +
                'here) and come straight back.'
              : 'An administrator or the owner connects them.'}
          </Empty>
        ) : (
          <ul className="rows">
            {accounts.data.map((a) => (
              <AccountRow key={a.id} account={a} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="connect-h" className="card">
        <h2 id="connect-h">Connect an account</h2>
        {manages ? (
          <ConnectTiles connected={accounts.data?.length ?? 0} />
        ) : (
          <AdminsOnly what="connect, reconnect and disconnect accounts" />
        )}
      </section>
      {accounts.data && accounts.data.length > 0 && <GroupsPanel accounts={accounts.data} />}
    </>
  );
}
