// Asking before a form with changes is left: a link, the menu or Back inside the dashboard (react-router's blocker,
// answered in a dialog) and closing or reloading the tab (the browser's own question). A form passes whether it
// holds changes and, where leaving for some page keeps them (compose's draft), which pages those are.
import { useEffect } from 'react';
import { type Location, useBlocker } from 'react-router';
import { ConfirmDialog } from './ui.tsx';
import { type LeaveWords, LOSE_WORDS } from './words/draftWords.ts';

/**
 * Asks before leaving while `dirty`; `keeps(next)` lets through the pages that lose nothing. A change of the
 * address's query alone (the same page) is not leaving. Returns the dialog to render.
 */
export function useLeaveGuard(dirty: boolean, words: LeaveWords = LOSE_WORDS, keeps?: (next: Location) => boolean) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && currentLocation.pathname !== nextLocation.pathname && !keeps?.(nextLocation),
  );
  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => !open && blocker.reset?.()}
      title={words.title}
      description={words.description}
      action={words.action}
      tone="danger"
      cancel="Stay here"
      onConfirm={async () => blocker.proceed?.()}
    />
  );
}
