// Settings, password: change it while signed in; the person's other sessions end.
import { useState } from 'react';
import { authApi, call } from '../api.ts';
import { Button, ErrorNote, Field, NewPasswordField } from '../ui.tsx';
import { useAction } from './useAction.ts';

export function PasswordPage() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState<number>();
  const { busy, error, submit } = useAction(async () => {
    const out = await call(authApi.POST('/password', { body: { currentPassword: current, newPassword: next } }));
    setDone(out.otherSessionsEnded);
    setCurrent('');
    setNext('');
  });
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="password-title">
      <h2 id="password-title">Change your password</h2>
      <Field
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
        required
      />
      <NewPasswordField
        label="New password"
        hint="At least 10 characters; a few unrelated words make a good one."
        value={next}
        onChange={(e) => setNext(e.target.value)}
      />
      <ErrorNote error={error} />
      {done !== undefined && (
        <p className="note note-ok" role="status">
          Password changed. {done ? `${done} other session${done === 1 ? '' : 's'} signed out.` : ''}
        </p>
      )}
      <div>
        <Button tone="primary" type="submit" busy={busy}>
          Change password
        </Button>
      </div>
    </form>
  );
}
