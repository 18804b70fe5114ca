// The signed-in frame: a skip link, the navigation (a side bar on desktop; on phones a top bar whose Menu button
// opens every destination, the workspace and sign-out, as a row of links would not fit), and sign-out.
import { NavLink, Outlet, useLocation } from 'react-router';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { authApi, call } from './api.ts';
import { useLiveUpdates } from './liveUpdates.ts';
import { approvalListQuery } from './queries/approvals.ts';
import { SignedInScope, useMay, useResetSession, useSignedIn } from './session.tsx';
import { APPROVAL_WORDS } from './words/approvalWords.ts';
import { Button, Loading } from './ui.tsx';
import { WorkspaceSwitcher } from './settings/WorkspaceSwitcher.tsx';
import { SessionRenewal } from './SessionRenewal.tsx';
import { ReconnectBanner } from './accounts/ReconnectBanner.tsx';

const LINKS = [
  { to: '/compose', label: 'Compose' },
  { to: '/calendar', label: 'Calendar' },
  { to: '/posts', label: 'Posts' },
  { to: '/media', label: 'Media' },
  { to: '/accounts', label: 'Accounts' },
  { to: '/approvals', label: 'Approvals' },
  { to: '/settings', label: 'Settings' },
];

/** How many posts and changes wait for approval, beside the menu's link, for those who decide (kept live by events). */
function WaitingCount() {
  const waiting = useQuery(approvalListQuery()).data?.posts.length ?? 0;
  if (!waiting) return null;
  return (
    <span className="nav-count">
      <span aria-hidden="true">{waiting}</span>
      <span className="sr-only">, {APPROVAL_WORDS.waiting(waiting)}</span>
    </span>
  );
}

export function Shell() {
  const { user, workspace } = useSignedIn();
  const decides = useMay('administrator');
  const reset = useResetSession();
  // While a switch to another workspace is under way the server's session already names the next workspace while
  // the page still shows the last: the page and its event stream wait, so nothing fetched or typed lands in between.
  const [switching, setSwitching] = useState(false);
  // One event stream per tab, for the signed-in workspace: pages refetch what changed instead of polling.
  useLiveUpdates(switching ? undefined : workspace.id);
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  // Moving to another page moves focus to its content, so screen readers announce it and Tab starts
  // there; a fresh load leaves focus at the top, where the skip link is.
  const first = useRef(true);
  // The phone's menu: open until a destination is chosen (or Escape), so the page it leads to is not covered.
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect runs on each page change by design.
  useEffect(() => {
    if (!first.current) main.current?.focus();
    first.current = false;
    setMenuOpen(false);
  }, [location.pathname]);
  // Escape closes the open menu and gives focus back to its button, as a disclosure does.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  const signOut = async () => {
    await call(authApi.POST('/sign-out'));
    await reset();
  };
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className={menuOpen ? 'sidebar menu-open' : 'sidebar'}>
        <p className="brand">Herald</p>
        <button
          ref={menuButton}
          type="button"
          className="btn btn-ghost menu-button"
          aria-expanded={menuOpen}
          aria-controls="main-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <div id="main-menu" className="menu">
          <nav aria-label="Main">
            <ul>
              {LINKS.map((l) => (
                <li key={l.to}>
                  <NavLink to={l.to} className={({ isActive }) => (isActive ? 'nav-link active' : 'nav-link')}>
                    {l.label}
                    {l.to === '/approvals' && decides && <WaitingCount />}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="whoami">
            <p className="whoami-name">{user.name}</p>
            <WorkspaceSwitcher onSwitching={setSwitching} />
            <p className="whoami-zone">
              {workspace.name} · {workspace.tz}
            </p>
            <Button tone="ghost" onClick={signOut}>
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1} className="page">
        {/* A switch to another workspace starts the page afresh: nothing of the last one stays on it. */}
        <SignedInScope>
          {switching ? (
            <Loading label="Opening the workspace" />
          ) : (
            <>
              <ReconnectBanner />
              {/* Each page's script loads on its first visit (App.tsx); the shell stays meanwhile. */}
              <Suspense fallback={<Loading />}>
                <Outlet />
              </Suspense>
            </>
          )}
        </SignedInScope>
      </main>
      <SessionRenewal />
    </div>
  );
}
