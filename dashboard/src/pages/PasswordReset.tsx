// Forgotten passwords: /app/forgot-password asks for a link by mail; /app/reset-password?token=… sets the
// new password once (every session of the person ends), then sends them to sign in.
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { authApi, call } from '../api.ts';
import { Button, ErrorNote, Field, NewPasswordField } from '../ui.tsx';
import { useAction } from '../settings/useAction.ts';

function AuthCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="auth">
      <div className="auth-card stack">
        <p className="brand">Herald</p>
        <h1>{title}</h1>
        {children}
        <p className="auth-switch">
          <Link to="/sign-in">Back to sign-in</Link>
        </p>
      </div>
    </main>
  );
}

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string>();
  const { busy, error, submit } = useAction(async () => {
    setSent((await call(authApi.POST('/password-reset', { body: { email } }))).message);
  });
  return (
    <AuthCard title="Reset your password">
      {sent ? (
        <p className="note note-ok" role="status">
          {sent}
        </p>
      ) : (
        <form className="stack" onSubmit={submit}>
          <Field
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
          />
          <ErrorNote error={error} />
          <Button tone="primary" type="submit" busy={busy} className="wide">
            Send me a link
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useAction(async () => {
    await call(authApi.POST('/password-reset/confirm', { body: { token: params.get('token') ?? '', password } }));
    navigate('/sign-in?reset=1', { replace: true });
  });
  return (
    <AuthCard title="Choose a new password">
      <form className="stack" onSubmit={submit}>
        <NewPasswordField
          label="New password"
          hint="At least 10 characters. Every session of yours ends."
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <ErrorNote error={error} />
        <Button tone="primary" type="submit" busy={busy} className="wide">
          Set the password
        </Button>
      </form>
    </AuthCard>
  );
}
