// Signing in again in place: when a request answers 401 because the session ended (it expired mid-compose, say), a
// dialog asks for the password of the person who was signed in, and on success the request is sent again (api.ts),
// so the page and everything typed on it stay. Signing in lands in the person's first workspace: the dialog goes
// back to the one that was open before anything is sent again, or sends nothing.
import * as Dialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { authApi, call, setSessionRenewal } from './api.ts';
import { loadSession, SESSION_KEY, type Session, signIn } from './session.tsx';
import { Button, ErrorNote, Field } from './ui.tsx';

interface Asking {
  before: Session;
  done: (signedIn: boolean) => void;
}

export function SessionRenewal() {
  const client = useQueryClient();
  const [asking, setAsking] = useState<Asking>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    // Requests that fail together share one dialog.
    let pending: Promise<boolean> | undefined;
    const ask = async (): Promise<boolean> => {
      const before = client.getQueryData<Session | null>(SESSION_KEY);
      if (!before) return false;
      // A session answers again (signed in meanwhile, in another tab say): the request is sent once more, unless
      // that session is in another workspace, where it must not land.
      const alive = await loadSession();
      if (alive) return alive.workspace.id === before.workspace.id;
      return new Promise<boolean>((done) => setAsking({ before, done }));
    };
    setSessionRenewal(() => {
      pending ??= ask().finally(() => {
        pending = undefined;
      });
      return pending;
    });
    return () => setSessionRenewal(undefined);
  }, [client]);

  const finish = (signedIn: boolean) => {
    asking?.done(signedIn);
    setAsking(undefined);
    setError(undefined);
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!asking) return;
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      const { before } = asking;
      const fresh = await signIn(String(form.get('email')), String(form.get('password')));
      if (fresh.workspace.id !== before.workspace.id)
        await call(authApi.POST('/workspaces/switch', { body: { workspaceId: before.workspace.id } }));
      client.setQueryData(SESSION_KEY, await loadSession());
      finish(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const email = asking?.before.user.email;
  return (
    <Dialog.Root open={Boolean(asking)} onOpenChange={(open) => !open && finish(false)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title className="dialog-title">Your session ended</Dialog.Title>
          <Dialog.Description className="muted">
            Sign in again to carry on: this page and what you typed on it stay as they are.
          </Dialog.Description>
          <form onSubmit={submit}>
            <Field
              label="Email"
              name="email"
              type="email"
              autoComplete="username"
              defaultValue={email ?? ''}
              readOnly={Boolean(email)}
              required
            />
            <Field
              label="Password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              autoFocus
            />
            <ErrorNote error={error} />
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <Button>Not now</Button>
              </Dialog.Close>
              <Button tone="primary" type="submit" busy={busy}>
                Sign in
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
