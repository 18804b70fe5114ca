// Settings, password: change it while signed in; the person's other sessions end.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { authApi, call } from '../api.ts';
import { Button, ErrorNote, Field, NewPasswordField, submitting } from '../ui.tsx';

export function PasswordPage() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState<number>();
  const change = useMutation({
    mutationFn: () => call(authApi.POST('/password', { body: { currentPassword: current, newPassword: next } })),
    onSuccess: (out) => {
      setDone(out.otherSessionsEnded);
      setCurrent('');
      setNext('');
    },
  });
  return (
    <form className="card stack" onSubmit={submitting(() => change.mutate())} aria-labelledby="password-title">
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
      <ErrorNote error={change.error} />
      {done !== undefined && (
        <p className="note note-ok" role="status">
          Password changed. {done ? `${done} other session${done === 1 ? '' : 's'} signed out.` : ''}
        </p>
      )}
      <div>
        <Button tone="primary" type="submit" busy={change.isPending}>
          Change password
        </Button>
      </div>
    </form>
  );
}
