// The dialogs' frames from the dialog library (Radix: focus trap, Escape, labels, scroll lock), loaded when the first
// dialog opens (ui.tsx's Dialog and ConfirmDialog): a page's first load goes without them. A box is open while
// rendered; closing asks its owner (`onClose`), and focus goes back to `opener`, the button that opened it, or else
// to what had focus when the box opened (a link held by the leave guard, a select, a card moved by keyboard).
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import * as Dialog from '@radix-ui/react-dialog';
import { type ReactElement, type ReactNode, useState } from 'react';

export interface BoxProps {
  title: string;
  onClose: () => void;
  opener?: HTMLElement | null;
  children: ReactNode;
}

/**
 * Focus back on the opener, or on what had focus as the box opened: the dialog library would focus only its own
 * trigger, which these boxes do not use, and focus would fall to the page's body. Focus already placed elsewhere
 * (a new page's content, after the box led there) stays.
 */
function useFocusBack(opener?: HTMLElement | null) {
  const [before] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  return (e: Event) => {
    const back = opener ?? before;
    const now = document.activeElement;
    const lost = !now || now === document.body || !now.isConnected;
    if (!lost || !back?.isConnected || back === document.body) return;
    e.preventDefault();
    back.focus();
  };
}

export function DialogBox({
  title,
  description,
  wide,
  onClose,
  opener,
  children,
}: BoxProps & { description: ReactNode; wide?: boolean }) {
  const focusBack = useFocusBack(opener);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className={wide ? 'dialog dialog-wide' : 'dialog'} onCloseAutoFocus={focusBack}>
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          <Dialog.Description className="muted">{description}</Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A confirm step: its description, then `children` (the failure, if any) and the buttons, `cancel` focused first. */
export function ConfirmBox({
  title,
  description,
  cancel,
  action,
  onClose,
  opener,
  children,
}: BoxProps & { description: ReactNode; cancel: ReactElement; action: ReactNode }) {
  const focusBack = useFocusBack(opener);
  return (
    <AlertDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog" onCloseAutoFocus={focusBack}>
          <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="dialog-body">{description}</div>
          </AlertDialog.Description>
          {children}
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>{cancel}</AlertDialog.Cancel>
            {action}
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
