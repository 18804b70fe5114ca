// Signing in again in place: when a request answers 401 because the session ended (it expired mid-compose, say), a
// dialog asks for the password of the person who was signed in, and on success the request is sent again (api.ts),
// so the page and everything typed on it stay. Signing in lands in the person's first workspace: the dialog goes
// back to the one that was open before anything is sent again, or sends nothing. Only the same person carries on:
// one without an email on record types one, and a session that answers for someone else (signed in here, or in
// another tab) starts afresh as a full sign-in does, sending nothing again and keeping nothing of the first.
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { authApi, call, setSessionRenewal } from './api.ts';
import { loadSession, SESSION_KEY, type Session, signIn, startAfresh } from './session.tsx';
import { Button, Dialog, ErrorNote, Field } from './ui.tsx';

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
      if (alive && alive.user.id !== before.user.id) {
        startAfresh(client, alive);
        return false;
      }
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
      if (fresh.user.id !== before.user.id) {
        // Someone else: the first person's page, data and request are not theirs to carry on with.
        startAfresh(client, await loadSession());
        finish(false);
        return;
      }
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

  if (!asking) return null;
  const email = asking.before.user.email;
  return (
    <Dialog
      title="Your session ended"
      description="Sign in again to carry on: this page and what you typed on it stay as they are."
      onClose={() => finish(false)}
    >
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
        <Field label="Password" name="password" type="password" autoComplete="current-password" required autoFocus />
        <ErrorNote error={error} />
        <div className="dialog-actions">
          <Button onClick={() => finish(false)}>Not now</Button>
          <Button tone="primary" type="submit" busy={busy}>
            Sign in
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
