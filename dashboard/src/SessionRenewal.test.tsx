// @vitest-environment happy-dom
// A session that ends mid-work: the request that met the 401 waits while the person signs in again in place, then is
// sent again with the new session's CSRF token, in the workspace that was open (signing in lands in the first one).
// Declining leaves the 401 to the page.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authApi, call, Failure } from './api.ts';
import { SessionRenewal } from './SessionRenewal.tsx';
import { SESSION_KEY } from './session.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = (workspaceId: string, csrfToken: string) => ({
  user: { id: 'usr_1', name: 'Ola', email: 'ola@example.com' },
  workspace: { id: workspaceId, name: workspaceId, tz: 'UTC' },
  role: 'owner',
  csrfToken,
});

/**
 * A server whose session has ended until /auth/sign-in with the right password; it records what it was sent.
 * `signedInElsewhere`: another tab already signed in again, in that workspace, after the first request left.
 */
function server(signedInElsewhere?: string) {
  const sent: { path: string; csrf: string | null; body: string }[] = [];
  let signedIn = false;
  let workspace = signedInElsewhere ?? 'ws_first';
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
  vi.stubGlobal('fetch', async (request: Request) => {
    const path = new URL(request.url).pathname;
    const body = await request.text();
    sent.push({ path, csrf: request.headers.get('X-CSRF-Token'), body });
    const ended = { code: 'unauthenticated', message: 'ended', hint: '' };
    if (path === '/auth/sign-in') {
      if (JSON.parse(body).password !== 'right password') return json(ended, 401);
      signedIn = true;
      workspace = 'ws_first';
      return json(session(workspace, 'csrf-new'));
    }
    if (signedInElsewhere && sent.length > 1) signedIn = true;
    if (!signedIn) return json(ended, 401);
    if (path === '/auth/workspaces/switch') workspace = JSON.parse(body).workspaceId;
    if (path === '/auth/session') return json(session(workspace, 'csrf-new'));
    return json({ saved: body, workspace });
  });
  const client = new QueryClient();
  client.setQueryData(SESSION_KEY, session('ws_open', 'csrf-old'));
  render(
    <QueryClientProvider client={client}>
      <SessionRenewal />
    </QueryClientProvider>,
  );
  return { sent, client };
}

/** A change through the session-only client (the stub answers with what it was sent, not the contract's shape). */
const saveName = () => call(authApi.PATCH('/workspace', { body: { name: 'Typed' } })) as Promise<unknown>;

describe('signing in again in place', () => {
  it('asks for the password only, then sends the change again in the workspace that was open', async () => {
    const { sent, client } = server();
    const saving = saveName();
    const dialog = await screen.findByRole('dialog', { name: 'Your session ended' });
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ola@example.com');
    expect((screen.getByLabelText('Email') as HTMLInputElement).readOnly).toBe(true);

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('The email or password is wrong.');
    expect(dialog.isConnected).toBe(true);

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'right password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await saving).toEqual({ saved: '{"name":"Typed"}', workspace: 'ws_open' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent.filter((s) => s.path === '/auth/workspaces/switch').map((s) => s.body)).toEqual([
      '{"workspaceId":"ws_open"}',
    ]);
    const [first, again] = sent.filter((s) => s.path === '/auth/workspace');
    expect(first!.csrf).not.toBe('csrf-new');
    expect(again!.csrf).toBe('csrf-new');
    expect(client.getQueryData<{ workspace: { id: string } }>(SESSION_KEY)?.workspace.id).toBe('ws_open');
  });

  it('leaves the 401 to the page when the person would rather not', async () => {
    server();
    const saving = saveName().catch((err: unknown) => err);
    await screen.findByRole('dialog', { name: 'Your session ended' });
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(await saving).toMatchObject({ status: 401 });
    expect((await saving) instanceof Failure).toBe(true);
  });

  it('sends the request again unasked once another tab signed in again, in the same workspace only', async () => {
    const same = server('ws_open');
    expect(await saveName()).toEqual({
      saved: '{"name":"Typed"}',
      workspace: 'ws_open',
    });
    expect(same.sent.map((s) => s.path)).toEqual(['/auth/workspace', '/auth/session', '/auth/workspace']);
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();

    const other = server('ws_first');
    expect(await saveName().catch((err: unknown) => err)).toMatchObject({
      status: 401,
    });
    expect(other.sent.map((s) => s.path)).toEqual(['/auth/workspace', '/auth/session']);
  });
});
