// Sign in and sign up: one small card each. Sign-up makes the person's workspace, on Free, in this
// browser's time zone, then signs in. Whether anyone may sign up is the operator's choice (SIGNUP): both pages
// say so rather than offer a form the server refuses.
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { authApi, call, Failure } from '../api.ts';
import { useSignUpState } from '../queries/signUp.ts';
import { signIn, useResetSession } from '../session.tsx';
import { Button, ErrorNote, Field, Loading, NewPasswordField } from '../ui.tsx';

const INVITE_ONLY = "Ask your workspace's owner for an invitation.";

function useSubmit(run: (form: FormData) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await run(new FormData(e.currentTarget));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return { busy, error, onSubmit };
}

/** Where signing in leads: `?next=` when it is a path of the dashboard (an invitation, say), else its start. */
function useNextPath(): string {
  const [params] = useSearchParams();
  const next = params.get('next');
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/**
 * The sign-in page once a session exists: on to `?next=`. The route renders this as soon as the session is
 * known, so it must lead where the sign-in would, or it would win over it.
 */
export function SignedInAlready() {
  return <Navigate to={useNextPath()} replace />;
}

function useEnter() {
  const reset = useResetSession();
  const navigate = useNavigate();
  const next = useNextPath();
  return async (email: string, password: string) => {
    await signIn(email, password);
    await reset();
    navigate(next, { replace: true });
  };
}

export function SignIn() {
  const enter = useEnter();
  const signUp = useSignUpState();
  // Set by the reset page once the new password is in place (PasswordReset.tsx).
  const [params] = useSearchParams();
  const changed = params.get('reset') === '1';
  const { busy, error, onSubmit } = useSubmit((f) => enter(String(f.get('email')), String(f.get('password'))));
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">Herald</p>
        <h1>Sign in</h1>
        {changed && (
          <p className="note note-ok" role="status">
            Your password was changed, and every session of yours has ended. Sign in with the new password.
          </p>
        )}
        <form onSubmit={onSubmit} noValidate>
          <Field label="Email" name="email" type="email" autoComplete="email" required autoFocus />
          <Field label="Password" name="password" type="password" autoComplete="current-password" required />
          <ErrorNote error={error} />
          <Button tone="primary" type="submit" busy={busy} className="wide">
            Sign in
          </Button>
        </form>
        <p className="auth-switch">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
        {signUp.data && (
          <p className="auth-switch">
            New here? {signUp.data.open ? <Link to="/sign-up">Create an account</Link> : INVITE_ONLY}
          </p>
        )}
      </div>
    </main>
  );
}

export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The sign-up page while sign-up is by invitation: what to do instead of a form the server would refuse. */
function InviteOnly() {
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">Herald</p>
        <h1>New accounts are by invitation</h1>
        <p>{INVITE_ONLY} Their invitation link lets you choose a password and join.</p>
        <p className="auth-switch">
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </p>
      </div>
    </main>
  );
}

export function SignUp() {
  const signUp = useSignUpState();
  if (signUp.isPending) return <Loading />;
  if (signUp.data && !signUp.data.open) return <InviteOnly />;
  return <SignUpForm />;
}

function SignUpForm() {
  const enter = useEnter();
  const zone = browserZone();
  const { busy, error, onSubmit } = useSubmit(async (f) => {
    const email = String(f.get('email'));
    const password = String(f.get('password'));
    await call(authApi.POST('/sign-up', { body: { email, name: String(f.get('name')), password, timeZone: zone } }));
    try {
      await enter(email, password);
    } catch (err) {
      // Sign-up answers alike whether or not the address was taken; only here can a taken one show.
      if (!(err instanceof Failure) || err.status !== 401) throw err;
      throw new Failure(
        'account_exists',
        `We could not sign you in as ${email} with that password.`,
        'If this address already has a Herald account, we sent it a note: sign in, or choose a new password ' +
          'with "Forgot your password?".',
        401,
      );
    }
  });
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">Herald</p>
        <h1>Create your account</h1>
        <p className="muted">
          You get a workspace on the Free plan. Its time zone is this browser's: <strong>{zone}</strong>.
        </p>
        <form onSubmit={onSubmit} noValidate>
          <Field label="Name" name="name" autoComplete="name" required autoFocus />
          <Field label="Email" name="email" type="email" autoComplete="email" required />
          <NewPasswordField label="Password" name="password" hint="At least 10 characters." />
          <ErrorNote error={error} />
          <Button tone="primary" type="submit" busy={busy} className="wide">
            Create account
          </Button>
        </form>
        <p className="auth-switch">
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </p>
      </div>
    </main>
  );
}
