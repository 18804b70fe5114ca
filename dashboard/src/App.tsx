// Routes: sign-in and sign-up outside the shell; everything else inside it, signed in. Each page but sign-in is
// its own script, loaded on first visit: the calendar, where a signed-in person starts, loads only its own.
import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useSession } from './session.tsx';
import { Shell } from './Shell.tsx';
import { ErrorNote, Loading } from './ui.tsx';
import { SignedInAlready, SignIn, SignUp } from './pages/SignIn.tsx';
import { useSignUpState } from './queries/signUp.ts';

/** A page of a module loaded on first visit; a Suspense (the shell's, inside it) shows "Loading" meanwhile. */
function later<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const CalendarPage = lazy(() => import('./posts/CalendarPage.tsx'));
const PostsPage = later(() => import('./posts/PostsPage.tsx'), 'PostsPage');
const PostDetailPage = later(() => import('./posts/PostDetailPage.tsx'), 'PostDetailPage');
const ComposePage = later(() => import('./compose/ComposePage.tsx'), 'ComposePage');
const MediaPage = later(() => import('./media/MediaPage.tsx'), 'MediaPage');
const AccountsPage = later(() => import('./accounts/AccountsPage.tsx'), 'AccountsPage');
const ApprovalsPage = later(() => import('./approvals/ApprovalsPage.tsx'), 'ApprovalsPage');
const SchedulePage = later(() => import('./accounts/SchedulePage.tsx'), 'SchedulePage');
const QueuePage = later(() => import('./accounts/QueuePage.tsx'), 'QueuePage');
const SettingsPage = later(() => import('./settings/SettingsPage.tsx'), 'SettingsPage');
const InvitePage = later(() => import('./pages/Invite.tsx'), 'InvitePage');
const ForgotPasswordPage = later(() => import('./pages/PasswordReset.tsx'), 'ForgotPasswordPage');
const ResetPasswordPage = later(() => import('./pages/PasswordReset.tsx'), 'ResetPasswordPage');

function SignedOut() {
  const location = useLocation();
  const fresh = useSignUpState();
  if (fresh.isPending) return <Loading />;
  const next = location.pathname + location.search;
  if (fresh.data?.firstUser && fresh.data.open) return <Navigate to="/sign-up" replace />;
  return <Navigate to={`/sign-in${next !== '/' ? `?next=${encodeURIComponent(next)}` : ''}`} replace />;
}

export function App() {
  const session = useSession();
  if (session.isPending) return <Loading label="Opening Herald" />;
  if (session.isError)
    return (
      <main className="center">
        <ErrorNote error={session.error} />
      </main>
    );
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/sign-in" element={session.data ? <SignedInAlready /> : <SignIn />} />
        <Route path="/invite" element={<InvitePage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/sign-up" element={session.data ? <Navigate to="/" replace /> : <SignUp />} />
        {session.data ? (
          <Route element={<Shell />}>
            <Route index element={<Navigate to="/calendar" replace />} />
            <Route path="/calendar" element={<CalendarPage />} />
            <Route path="/posts" element={<PostsPage />} />
            <Route path="/posts/:postId" element={<PostDetailPage />} />
            <Route path="/compose" element={<ComposePage />} />
            <Route path="/media" element={<MediaPage />} />
            <Route path="/accounts" element={<AccountsPage />} />
            <Route path="/approvals" element={<ApprovalsPage />} />
            <Route path="/accounts/:accountId/schedule" element={<SchedulePage />} />
            <Route path="/accounts/:accountId/queue" element={<QueuePage />} />
            <Route path="/settings/*" element={<SettingsPage />} />
            <Route
              path="*"
              element={
                <main className="page">
                  <ErrorNote error={new Error('There is no such page in the dashboard.')} />
                </main>
              }
            />
          </Route>
        ) : (
          <Route path="*" element={<SignedOut />} />
        )}
      </Routes>
    </Suspense>
  );
}
