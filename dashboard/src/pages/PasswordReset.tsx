// Forgotten passwords: /app/forgot-password asks for a link by mail; /app/reset-password?token=… first asks
// whether the link still works (a used or expired one says so, with no form to fill in), then sets the new
// password once (every session of the person ends) and sends them to sign in, which says it was changed.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { authApi, call } from '../api.ts';
import { passwordResetLinkQuery } from '../queries/passwordResets.ts';
import { Button, ErrorNote, Field, Loading, NewPasswordField, submitting } from '../ui.tsx';

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
  const ask = useMutation({
    mutationFn: () => call(authApi.POST('/password-reset', { body: { email } })),
    onSuccess: (out) => setSent(out.message),
  });
  return (
    <AuthCard title="Reset your password">
      {sent ? (
        <p className="note note-ok" role="status">
          {sent}
        </p>
      ) : (
        <form className="stack" onSubmit={submitting(() => ask.mutate())}>
          <Field
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
          />
          <ErrorNote error={ask.error} />
          <Button tone="primary" type="submit" busy={ask.isPending} className="wide">
            Send me a link
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const link = useQuery(passwordResetLinkQuery(token));
  if (link.isPending)
    return (
      <AuthCard title="Choose a new password">
        <Loading label="Reading the link" />
      </AuthCard>
    );
  if (link.isError)
    return (
      <AuthCard title="This link cannot be used">
        <ErrorNote error={link.error} />
        <p>
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      </AuthCard>
    );
  return <NewPasswordForm token={token} />;
}

function NewPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const confirm = useMutation({
    mutationFn: () => call(authApi.POST('/password-reset/confirm', { body: { token, password } })),
    onSuccess: () => navigate('/sign-in?reset=1', { replace: true }),
  });
  return (
    <AuthCard title="Choose a new password">
      <form className="stack" onSubmit={submitting(() => confirm.mutate())}>
        <NewPasswordField
          label="New password"
          hint="At least 10 characters. Every session of yours ends."
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <ErrorNote error={confirm.error} />
        <Button tone="primary" type="submit" busy={confirm.isPending} className="wide">
          Set the password
        </Button>
      </form>
    </AuthCard>
  );
}
