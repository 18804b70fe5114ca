// Asking before a form with changes is left: a link inside the dashboard (the menu, a page's own links; answered in
// a dialog) and closing, reloading or leaving the tab (the browser's own question). A form passes whether it holds
// changes and, where leaving for some page keeps them (compose's draft), which pages those are. Links are caught
// before the router sees them, which keeps the dashboard on its light router; Back within the dashboard is not asked.
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from './ui.tsx';
import { type LeaveWords, LOSE_WORDS } from './words/draftWords.ts';

/**
 * Asks before leaving while `dirty`; `keeps(path)` lets through the pages that lose nothing. A link to the page
 * itself (a change of its query alone) is not leaving. Returns the dialog to render.
 */
export function useLeaveGuard(dirty: boolean, words: LeaveWords = LOSE_WORDS, keeps?: (path: string) => boolean) {
  const [held, setHeld] = useState<HTMLAnchorElement>();
  const leaving = useRef(false);
  const keepsRef = useRef(keeps);
  keepsRef.current = keeps;
  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    // Capturing on the window runs before the router's own click handling, so a held link goes nowhere.
    const hold = (e: MouseEvent) => {
      const link = e.target instanceof Element ? e.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || leaving.current) return;
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || link.target === '_blank') return;
      const next = new URL(link.href, window.location.href);
      if (next.origin !== window.location.origin || next.pathname === window.location.pathname) return;
      if (keepsRef.current?.(next.pathname)) return;
      e.preventDefault();
      e.stopPropagation();
      setHeld(link);
    };
    window.addEventListener('beforeunload', ask);
    window.addEventListener('click', hold, true);
    return () => {
      window.removeEventListener('beforeunload', ask);
      window.removeEventListener('click', hold, true);
    };
  }, [dirty]);
  return (
    <ConfirmDialog
      open={held !== undefined}
      onOpenChange={(open) => !open && setHeld(undefined)}
      title={words.title}
      description={words.description}
      action={words.action}
      tone="danger"
      cancel="Stay here"
      onConfirm={async () => {
        leaving.current = true;
        held?.click();
        leaving.current = false;
        setHeld(undefined);
      }}
    />
  );
}
