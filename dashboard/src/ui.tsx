// Small shared pieces: buttons, fields, the error note ({message, hint}), loading and empty states, and
// the confirm dialog (Radix AlertDialog: focus trap, Escape, labelled).
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useMutation } from '@tanstack/react-query';
import {
  useId,
  useState,
  type ButtonHTMLAttributes,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import { Failure } from './api.ts';
import { type PostStatus, STATUS_WORDS } from './words/statusWords.ts';
import { failureWords, type Words } from './words/words.ts';

type Tone = 'primary' | 'secondary' | 'danger' | 'ghost';

export function Button({
  tone = 'secondary',
  busy,
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { tone?: Tone; busy?: boolean }) {
  return (
    <button
      type="button"
      {...rest}
      className={`btn btn-${tone} ${rest.className ?? ''}`}
      disabled={rest.disabled || busy}
      aria-busy={busy || undefined}
    >
      {busy && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

export function Field({
  label,
  hint,
  error,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; error?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-describedby={hint ? `${id}-hint` : undefined}
        aria-invalid={error ? true : undefined}
        {...input}
      />
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** A password being chosen: the server's rule (at least 10 characters) and the browser's password manager hint. */
export function NewPasswordField({
  label,
  hint,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'minLength'> & {
  label: string;
  hint: string;
}) {
  return (
    <Field label={label} hint={hint} type="password" autoComplete="new-password" minLength={10} required {...input} />
  );
}

/** Where "sign in again" leads: the sign-in page, then back to this page of the dashboard. */
function signInAgainHref(): string {
  const here = window.location.pathname.replace(/^\/app(?=\/|$)/, '') + window.location.search;
  return `/app/sign-in?next=${encodeURIComponent(here || '/')}`;
}

/**
 * An error in the dashboard's words (words/words.ts): what happened and what to do, never the API's message. A
 * plain Error is the dashboard's own sentence and shows as it is.
 */
export function ErrorNote({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const words: Words =
    error instanceof Failure ? failureWords(error) : { title: error instanceof Error ? error.message : String(error) };
  const upgradeUrl = error instanceof Failure ? error.body.upgradeUrl : undefined;
  return (
    <div className="note note-error" role="alert">
      <p className="note-title">{title ?? words.title}</p>
      {title && <p>{words.title}</p>}
      {words.quote && <blockquote className="note-quote">{words.quote}</blockquote>}
      {words.links && words.links.length > 0 && (
        <ul>
          {words.links.map((l) => (
            <li key={l.href}>
              <a href={l.href}>{l.label}</a>
            </li>
          ))}
        </ul>
      )}
      {words.hint && <p className="note-hint">{words.hint}</p>}
      {words.signIn && (
        <p>
          <a href={signInAgainHref()}>Sign in again</a>
        </p>
      )}
      {typeof upgradeUrl === 'string' && (
        <p>
          <a href={upgradeUrl}>See plans</a>
        </p>
      )}
    </div>
  );
}

/** Copies `text` and says whether it did; `what` names it ("key", "link") on the button and in a refusal. */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed'>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <>
      <Button tone="primary" onClick={copy}>
        Copy {what}
      </Button>
      <span role="status" className={copied === 'failed' ? 'error-text' : 'ok-text'}>
        {copied === 'yes'
          ? 'Copied.'
          : copied === 'failed'
            ? `The browser refused; select the ${what} and copy it.`
            : ''}
      </span>
    </>
  );
}

/** A value to take away (a key, a secret, a link): read-only, selected whole on focus, with its copy button. */
export function CopyField({ label, value, what }: { label: string; value: string; what: string }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} className="key-value" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
      <div className="inline wrap">
        <CopyButton text={value} what={what} />
      </div>
    </>
  );
}

/** Says, in place of controls a member's role does not offer, who does it (the server's roles, domain/roles.ts). */
export function AdminsOnly({ what }: { what: string }) {
  return <p className="muted">Administrators and the owner {what}; ask one of them.</p>;
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" /> {label}…
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children}
    </div>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      {children && <div className="page-actions">{children}</div>}
    </header>
  );
}

interface ConfirmProps {
  title: string;
  description: ReactNode;
  /** The button that does it, naming what happens. */
  action: string;
  tone?: Tone;
  onConfirm: () => Promise<unknown>;
}

/** A confirm step that is open while `open`; `onConfirm` runs the action and its failure shows in the dialog. */
export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  action,
  tone = 'primary',
  onConfirm,
}: ConfirmProps & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger?: ReactNode;
}) {
  const run = useMutation({ mutationFn: onConfirm });
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(o) => {
        run.reset();
        onOpenChange(o);
      }}
    >
      {trigger && <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="dialog-body">{description}</div>
          </AlertDialog.Description>
          <ErrorNote error={run.error} />
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>
              <Button>Keep as is</Button>
            </AlertDialog.Cancel>
            <Button tone={tone} busy={run.isPending} onClick={() => run.mutate()}>
              {action}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** A form's submit: runs the form's change (a mutation, whose pending state and failure the form shows). */
export const submitting = (change: () => void) => (e: FormEvent) => {
  e.preventDefault();
  change();
};

/** A button (`trigger`) that opens a confirm step saying what will happen. */
export function Confirm({ trigger, onConfirm, ...props }: ConfirmProps & { trigger: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      {...props}
      open={open}
      trigger={trigger}
      onOpenChange={setOpen}
      onConfirm={async () => {
        await onConfirm();
        setOpen(false);
      }}
    />
  );
}

/** A post's state in words ("Scheduled"), its colour only a second sign of it. */
export function StatusBadge({ status }: { status: PostStatus }) {
  return <span className={`badge badge-${status}`}>{STATUS_WORDS[status]}</span>;
}
