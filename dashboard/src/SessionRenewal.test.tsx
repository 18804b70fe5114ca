// @vitest-environment happy-dom
// A session that ends mid-work: the request that met the 401 waits while the person signs in again in place, then is
// sent again with the new session's CSRF token, in the workspace that was open (signing in lands in the first one).
// Declining leaves the 401 to the page. A session that answers for another person sends nothing again and keeps
// nothing of the first.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authApi, call, Failure } from './api.ts';
import { SessionRenewal } from './SessionRenewal.tsx';
import { SESSION_KEY } from './session.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const OLA = { id: 'usr_1', name: 'Ola', email: 'ola@example.com' };
const BO = { id: 'usr_2', name: 'Bo', email: 'bo@example.com' };

type User = { id: string; name: string; email: string | null };

const session = (workspaceId: string, csrfToken: string, user: User = OLA) => ({
  user,
  workspace: { id: workspaceId, name: workspaceId, tz: 'UTC' },
  role: 'owner',
  csrfToken,
});

/**
 * A server whose session has ended until /auth/sign-in with the right password; it records what it was sent.
 * `signedInElsewhere`: another tab already signed in again, in that workspace, after the first request left.
 */
function server(signedInElsewhere?: string, { before = OLA as User } = {}) {
  const sent: { path: string; csrf: string | null; body: string }[] = [];
  let signedIn = false;
  let user: User = OLA;
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
      user = JSON.parse(body).email === BO.email ? BO : OLA;
      return json(session(workspace, 'csrf-new', user));
    }
    if (signedInElsewhere && sent.length > 1) signedIn = true;
    if (!signedIn) return json(ended, 401);
    if (path === '/auth/workspaces/switch') workspace = JSON.parse(body).workspaceId;
    if (path === '/auth/session') return json(session(workspace, 'csrf-new', user));
    return json({ saved: body, workspace });
  });
  const client = new QueryClient();
  client.setQueryData(SESSION_KEY, session('ws_open', 'csrf-old', before));
  // What the page holds for the person signed in: the posts it shows.
  client.setQueryData(['posts', 'list'], [{ id: 'pst_1', text: 'Ola’s autumn menu' }]);
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
  // The dialog's frame loads with the first dialog that opens; loaded here first, the test waits on no transform.
  beforeAll(() => import('./dialogBoxes.tsx'));
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

  it('starts afresh, sending nothing again, when one without an email on record signs in as someone else', async () => {
    const { sent, client } = server(undefined, { before: { ...OLA, email: null } });
    const saving = saveName().catch((err: unknown) => err);
    await screen.findByRole('dialog', { name: 'Your session ended' });
    expect((screen.getByLabelText('Email') as HTMLInputElement).readOnly).toBe(false);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: BO.email } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'right password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    // Ola's change is not made as Bo, nor is Bo taken into Ola's workspace.
    expect(await saving).toMatchObject({ status: 401 });
    expect(sent.filter((s) => s.path === '/auth/workspace')).toHaveLength(1);
    expect(sent.filter((s) => s.path === '/auth/workspaces/switch')).toEqual([]);
    // Bo is signed in, in his own workspace, and nothing the page held for Ola is left.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const now = client.getQueryData<{ user: { id: string }; workspace: { id: string } }>(SESSION_KEY);
    expect(now?.user.id).toBe(BO.id);
    expect(now?.workspace.id).toBe('ws_first');
    expect(client.getQueryData(['posts', 'list'])).toBeUndefined();
  });

  it('starts afresh, sending nothing again, when another tab signed in as another person', async () => {
    const { sent, client } = server('ws_open');
    // The other tab's sign-in was Bo's, in the same workspace.
    client.setQueryData(SESSION_KEY, session('ws_open', 'csrf-old', { ...BO, id: 'usr_other' }));
    expect(await saveName().catch((err: unknown) => err)).toMatchObject({ status: 401 });
    expect(sent.map((s) => s.path)).toEqual(['/auth/workspace', '/auth/session']);
    expect(client.getQueryData<{ user: { id: string } }>(SESSION_KEY)?.user.id).toBe(OLA.id);
    expect(client.getQueryData(['posts', 'list'])).toBeUndefined();
  });
});
