// A banner over every page while an account needs reconnecting (expired or revoked), so a person hears of it the
// moment the network refuses Herald's access, not when a post fails; and, for owners and administrators, one a week
// before a token can no longer be renewed (the upkeep's renewals failing, or the refresh token's own end near). The
// accounts list is refetched on the workspace's `account.needs_reconnect` events (liveUpdates.ts).
import { Link } from 'react-router';
import type { Account } from '../api.ts';
import { useMay, useSignedIn } from '../session.tsx';
import { reconnectBanner } from '../words/connectWords.ts';
import { renewalBanner, renewalEndsSoon } from '../words/healthWords.ts';
import { useAccounts } from '../queries/accounts.ts';

export function ReconnectBanner() {
  const { data: accounts } = useAccounts();
  const names = (accounts ?? []).filter((a) => a.status !== 'ok').map((a) => a.displayName);
  const manages = useMay('administrator');
  return (
    <>
      {names.length > 0 && <Banner tone="note-error" words={reconnectBanner(names)} />}
      {manages && <RenewalBanner accounts={accounts ?? []} />}
    </>
  );
}

/** For owners and administrators, a week before a token can no longer be renewed: reconnecting then loses nothing. */
function RenewalBanner({ accounts }: { accounts: Account[] }) {
  const zone = useSignedIn().workspace.tz;
  const ending = accounts.filter((a) => renewalEndsSoon(a));
  return ending.length > 0 ? <Banner tone="note-warn" words={renewalBanner(ending, zone)} /> : null;
}

function Banner({ tone, words }: { tone: string; words: { title: string; hint: string; link: string } }) {
  return (
    <div className={`note ${tone}`} role="status">
      <span className="note-title">{words.title}</span>
      <span className="note-hint">
        {words.hint} <Link to="/accounts">{words.link}</Link>
      </span>
    </div>
  );
}
