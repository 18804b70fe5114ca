// Connecting an account by signing in, for a network without a consent page (Bluesky's app passwords): the
// server sends the person here as ?connect=<platform>&server=…[&accountId=…], and the form posts the handle, the
// app password and the server to /auth/connect/<platform>. The outcome comes back as ?connected=<n>, as after a
// consent page; a refusal stays on the form, in the dashboard's words.
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { authApi, call, type Account, type Platform } from '../api.ts';
import { labelOf } from '../networks.ts';
import { NetworkMark } from '../NetworkMark.tsx';
import { accountKeys } from '../queries/accounts.ts';
import { billingKeys } from '../queries/billing.ts';
import { postKeys } from '../queries/posts.ts';
import { useRefresh } from '../queries/refresh.ts';
import { whoamiKeys } from '../queries/whoami.ts';
import { Button, ErrorNote, Field, submitting } from '../ui.tsx';
import { SIGN_IN_WORDS as W, signInTitle } from '../words/connectWords.ts';

export function SignInForm({
  platform,
  server: offered,
  reconnecting,
}: {
  platform: Platform;
  /** The server the configuration connects to; the person may name another. */
  server: string;
  reconnecting?: Account;
}) {
  const refresh = useRefresh();
  const [, setParams] = useSearchParams();
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [server, setServer] = useState(offered);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector('input')?.focus(), []);
  const connect = useMutation({
    mutationFn: () =>
      call(
        authApi.POST('/connect/{platform}', {
          params: { path: { platform } },
          body: {
            identifier,
            password,
            ...(server.trim() ? { server: server.trim() } : {}),
            ...(reconnecting ? { accountId: reconnecting.id } : {}),
          },
        }),
      ),
    // A new account counts toward the plan; a reconnected one's waiting posts are queued again.
    onSuccess: async (done) => {
      await refresh(accountKeys.all, postKeys.all, whoamiKeys.all, billingKeys.all);
      setParams(
        { connected: String(done.connected), ...(done.requeued ? { requeued: String(done.requeued) } : {}) },
        { replace: true },
      );
    },
  });
  const title = signInTitle(labelOf(platform), reconnecting?.displayName);
  return (
    <form
      ref={form}
      className="card stack"
      onSubmit={submitting(() => connect.mutate())}
      aria-labelledby="sign-in-title"
    >
      <h2 id="sign-in-title" className="inline">
        <NetworkMark platform={platform} decorative /> {title}
      </h2>
      <ErrorNote error={connect.error} />
      <Field
        label={W.identifier}
        hint={W.identifierHint}
        value={identifier}
        onChange={(e) => setIdentifier(e.target.value)}
        autoComplete="username"
        required
        maxLength={320}
      />
      <Field
        label={W.password}
        hint={W.passwordHint}
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoComplete="off"
        required
        maxLength={200}
      />
      <Field
        label={W.server}
        hint={W.serverHint}
        type="url"
        value={server}
        onChange={(e) => setServer(e.target.value)}
        required
        maxLength={200}
      />
      <div className="inline">
        <Button type="submit" tone="primary" busy={connect.isPending}>
          {W.connect}
        </Button>
        <Button tone="ghost" onClick={() => setParams({}, { replace: true })}>
          {W.cancel}
        </Button>
      </div>
    </form>
  );
}
