// @vitest-environment happy-dom
// Switching workspace: nothing of the workspace left shows in the one switched to, not even while its own data loads
// (a page that keeps its last data on screen as the next loads, the calendar's, must not keep the other workspace's).
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { calendarQuery } from './queries/posts.ts';
import { SESSION_KEY, SignedInScope } from './session.tsx';
import { WorkspaceSwitcher } from './settings/WorkspaceSwitcher.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = (workspaceId: string) => ({
  user: { id: 'usr_1', name: 'Ola', email: 'ola@example.com' },
  workspace: { id: workspaceId, name: workspaceId, tz: 'UTC' },
  role: 'owner',
  csrfToken: 'csrf',
});

const post = (text: string) => ({ id: 'pst_1', accountId: 'acc_1', platform: 'bluesky', status: 'queued', text });

/** A server with two workspaces; the second's posts are still on their way. */
function server() {
  let open = 'ws_a';
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
  vi.stubGlobal('fetch', async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === '/auth/workspaces')
      return json({
        currentWorkspaceId: open,
        workspaces: [
          { id: 'ws_a', name: 'Acme' },
          { id: 'ws_b', name: 'Bistro' },
        ],
      });
    if (path === '/auth/workspaces/switch') {
      open = JSON.parse(await request.text()).workspaceId;
      return json(session(open));
    }
    if (path === '/auth/session') return json(session(open));
    if (path === '/v1/posts' && open === 'ws_a') return json({ posts: [post('Acme autumn menu')], nextCursor: null });
    return new Promise<Response>(() => {});
  });
}

function Calendar() {
  const posts = useQuery(calendarQuery({ from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' }));
  return <ul>{posts.data ? posts.data.map((p) => <li key={p.id}>{p.text}</li>) : <li>Loading posts</li>}</ul>;
}

describe('switching workspace', () => {
  it("shows none of the last workspace's posts while the next one's load", async () => {
    server();
    const client = new QueryClient();
    client.setQueryData(SESSION_KEY, session('ws_a'));
    render(
      <QueryClientProvider client={client}>
        <WorkspaceSwitcher />
        <SignedInScope>
          <Calendar />
        </SignedInScope>
      </QueryClientProvider>,
    );
    await screen.findByText('Acme autumn menu');
    fireEvent.change(await screen.findByLabelText('Workspace'), { target: { value: 'ws_b' } });
    await waitFor(() =>
      expect(client.getQueryData<{ workspace: { id: string } }>(SESSION_KEY)?.workspace.id).toBe('ws_b'),
    );
    await screen.findByText('Loading posts');
    expect(screen.queryByText('Acme autumn menu')).toBeNull();
  });
});
