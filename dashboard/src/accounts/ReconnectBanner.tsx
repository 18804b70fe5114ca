// A banner over every page while an account needs reconnecting (expired or revoked), so a person hears of it the
// moment the network refuses Herald's access, not when a post fails. The accounts list is refetched on the
// workspace's `account.needs_reconnect` events (liveUpdates.ts).
import { Link } from 'react-router';
import { reconnectBanner } from '../words/connectWords.ts';
import { useAccounts } from './AccountsPage.tsx';

export function ReconnectBanner() {
  const { data: accounts } = useAccounts();
  const names = (accounts ?? []).filter((a) => a.status !== 'ok').map((a) => a.displayName);
  if (!names.length) return null;
  const words = reconnectBanner(names);
  return (
    <div className="note note-error" role="status">
      <span className="note-title">{words.title}</span>
      <span className="note-hint">
        {words.hint} <Link to="/accounts">{words.link}</Link>
      </span>
    </div>
  );
}
