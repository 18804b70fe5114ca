// /app/invite?token=…: what the invitation offers, then joining. Someone who already has an account signs in
// as the invited address (the sign-in page returns here) and joins with that session; a new person chooses a
// name and a password. The invitation does not say whether the address has an account: the inviter holds the
// link too, so the page offers both ways.
import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { authApi, call } from '../api.ts';
import { useResetSession, useSession } from '../session.tsx';
import { inviteOfferQuery } from '../queries/invites.ts';
import { ROLE_LABEL } from '../settings/settingsApi.ts';
import { Button, ErrorNote, Field, Loading, NewPasswordField, submitting } from '../ui.tsx';

export function InvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const offer = useQuery(inviteOfferQuery(token));
  const session = useSession();
  const reset = useResetSession();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const accept = async (body: { name?: string; password?: string }) => {
    await call(authApi.POST('/invites/accept', { body: { token, ...body } }));
    await reset();
    navigate('/', { replace: true });
  };
  const join = useMutation({ mutationFn: () => accept({}) });
  const create = useMutation({ mutationFn: () => accept({ name, password }) });
  const signOut = useMutation({
    mutationFn: async () => {
      await call(authApi.POST('/sign-out'));
      await reset();
    },
  });
  const back = `/sign-in?next=${encodeURIComponent(`/invite?token=${token}`)}`;
  const me = session.data?.user;
  const invitedHere = offer.data && me?.email?.toLowerCase() === offer.data.email;
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">Herald</p>
        {offer.isPending || session.isPending ? (
          <Loading label="Reading the invitation" />
        ) : offer.isError ? (
          <ErrorNote error={offer.error} />
        ) : (
          <div className="stack">
            <h1>Join {offer.data.workspace.name}</h1>
            <p>
              You are invited as {ROLE_LABEL[offer.data.role].toLowerCase()}, with the address{' '}
              <strong>{offer.data.email}</strong>.
            </p>
            {invitedHere ? (
              <form className="stack" onSubmit={submitting(() => join.mutate())}>
                <ErrorNote error={join.error} />
                <Button tone="primary" type="submit" busy={join.isPending} className="wide">
                  Join {offer.data.workspace.name}
                </Button>
              </form>
            ) : me ? (
              <form className="stack" onSubmit={submitting(() => signOut.mutate())}>
                <p>
                  You are signed in as <strong>{me.email ?? me.name}</strong>. Sign out, then sign in as{' '}
                  {offer.data.email} or create its account here.
                </p>
                <ErrorNote error={signOut.error} />
                <Button type="submit" busy={signOut.isPending} className="wide">
                  Sign out
                </Button>
              </form>
            ) : (
              <>
                <p>
                  Already on Herald with this address? <Link to={back}>Sign in to accept</Link>; you come back here.
                </p>
                <form className="stack" onSubmit={submitting(() => create.mutate())}>
                  <h2>New to Herald?</h2>
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
                  <ErrorNote error={create.error} />
                  <Button tone="primary" type="submit" busy={create.isPending} className="wide">
                    Join {offer.data.workspace.name}
                  </Button>
                </form>
              </>
            )}
          </div>
        )}
      </div>
    </main>
  );
}
