// The dialogs' frames from the dialog library (Radix: focus trap, Escape, labels, scroll lock), loaded when the first
// dialog opens (ui.tsx's Dialog and ConfirmDialog): a page's first load goes without them. A box is open while
// rendered; closing asks its owner (`onClose`), and focus goes back to `opener`, the button that opened it, if any.
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactElement, ReactNode } from 'react';

export interface BoxProps {
  title: string;
  onClose: () => void;
  opener?: HTMLElement | null;
  children: ReactNode;
}

/** Focus back on the opener; without one, where the dialog library puts it. */
const focusOpener = (opener?: HTMLElement | null) => (e: Event) => {
  if (!opener) return;
  e.preventDefault();
  opener.focus();
};

export function DialogBox({
  title,
  description,
  wide,
  onClose,
  opener,
  children,
}: BoxProps & { description: ReactNode; wide?: boolean }) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className={wide ? 'dialog dialog-wide' : 'dialog'} onCloseAutoFocus={focusOpener(opener)}>
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
  return (
    <AlertDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog" onCloseAutoFocus={focusOpener(opener)}>
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
