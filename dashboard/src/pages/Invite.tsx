// /app/invite?token=…: what the invitation offers, then joining: a new person chooses a name and a
// password; someone with an account gives its password. Either way they land in the workspace.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { auth } from '../api.ts';
import { useResetSession } from '../session.tsx';
import { ROLE_LABEL, type Role } from '../settings/settingsApi.ts';
import { Button, ErrorNote, Field, Loading, NewPasswordField } from '../ui.tsx';
import { useAction } from '../settings/useAction.ts';

interface Offer {
  email: string;
  role: Role;
  workspace: { id: string; name: string };
  expiresAt: string;
  existingUser: boolean;
}

export function InvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const offer = useQuery({
    queryKey: ['invite', token],
    queryFn: () => auth<Offer>('GET', `/invite?token=${encodeURIComponent(token)}`),
    retry: false,
  });
  const reset = useResetSession();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useAction(async () => {
    await auth('POST', '/invites/accept', { token, password, ...(offer.data?.existingUser ? {} : { name }) });
    await reset();
    navigate('/', { replace: true });
  });
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">Herald</p>
        {offer.isPending ? (
          <Loading label="Reading the invitation" />
        ) : offer.isError ? (
          <ErrorNote error={offer.error} />
        ) : (
          <form className="stack" onSubmit={submit}>
            <h1>Join {offer.data.workspace.name}</h1>
            <p>
              You are invited as {ROLE_LABEL[offer.data.role].toLowerCase()}, with the address{' '}
              <strong>{offer.data.email}</strong>.
            </p>
            {offer.data.existingUser ? (
              <Field
                label={`Password of ${offer.data.email}`}
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                required
              />
            ) : (
              <>
                <Field
                  label="Your name"
                  autoComplete="name"
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  required
                  maxLength={100}
                />
                <NewPasswordField
                  label="Choose a password"
                  hint="At least 10 characters."
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              </>
            )}
            <ErrorNote error={error} />
            <Button tone="primary" type="submit" busy={busy} className="wide">
              Join {offer.data.workspace.name}
            </Button>
          </form>
        )}
      </div>
    </main>
  );
}
