// Routes: sign-in and sign-up outside the shell; everything else inside it, signed in. The calendar
// (the heaviest page) loads on first visit only.
import { ApprovalsPage } from './approvals/ApprovalsPage.tsx';
import { SchedulePage } from './accounts/SchedulePage.tsx';
import { QueuePage } from './accounts/QueuePage.tsx';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useSession } from './session.tsx';
import { Shell } from './Shell.tsx';
import { ErrorNote, Loading } from './ui.tsx';
import { SignedInAlready, SignIn, SignUp } from './pages/SignIn.tsx';
import { useSignUpState } from './queries/signUp.ts';
import { AccountsPage } from './accounts/AccountsPage.tsx';
import { MediaPage } from './media/MediaPage.tsx';
import { ComposePage } from './compose/ComposePage.tsx';
import { PostsPage } from './posts/PostsPage.tsx';
import { PostDetailPage } from './posts/PostDetailPage.tsx';
import { SettingsPage } from './settings/SettingsPage.tsx';
import { InvitePage } from './pages/Invite.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/PasswordReset.tsx';

const CalendarPage = lazy(() => import('./posts/CalendarPage.tsx'));

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
    <Routes>
      <Route path="/sign-in" element={session.data ? <SignedInAlready /> : <SignIn />} />
      <Route path="/invite" element={<InvitePage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/sign-up" element={session.data ? <Navigate to="/" replace /> : <SignUp />} />
      {session.data ? (
        <Route element={<Shell />}>
          <Route index element={<Navigate to="/calendar" replace />} />
          <Route
            path="/calendar"
            element={
              <Suspense fallback={<Loading label="Loading the calendar" />}>
                <CalendarPage />
              </Suspense>
            }
          />
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
  );
}
