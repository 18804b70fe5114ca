// The heading of an account's own pages (posting times, queue): the account named with its network's mark and the
// network, since accounts of several networks may share a name, and the way back to where the person came from:
// compose, when compose's link opened the page (it passes `back`, the compose address, in the history state), or
// the accounts page.
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import type { Account } from '../api.ts';
import { labelOf } from '../networks.ts';
import { NetworkMark } from '../NetworkMark.tsx';
import { ACCOUNT_PAGE_WORDS as W } from '../words/scheduleWords.ts';

/** The history state a link into an account's pages carries: the compose address to go back to. */
export interface BackState {
  back?: string;
}

/** Keeps the way back when moving between an account's posting times and its queue. */
export function useBackState(): BackState {
  const back = (useLocation().state as BackState | null)?.back;
  return back?.startsWith('/compose') ? { back } : {};
}

export function AccountPageHeader({
  account,
  title,
  children,
}: {
  account: Account | undefined;
  /** The page's title for the account's name ("Posting times of acme.shop on Instagram"). */
  title: (which: string) => string;
  children?: ReactNode;
}) {
  const { back } = useBackState();
  return (
    <header className="page-header">
      <div>
        <p>
          <Link to={back ?? '/accounts'}>← {back ? W.backToCompose : W.backToAccounts}</Link>
        </p>
        <h1 className="inline">
          {account && <NetworkMark platform={account.platform} size={28} decorative />}
          {title(account ? W.which(account.displayName, labelOf(account.platform)) : W.unknown)}
        </h1>
      </div>
      {children && <div className="page-actions">{children}</div>}
    </header>
  );
}
