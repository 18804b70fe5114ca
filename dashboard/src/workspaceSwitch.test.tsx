// @vitest-environment happy-dom
// Switching workspace: nothing of the workspace left shows in the one switched to, not even while its own data loads
// (a page that keeps its last data on screen as the next loads, the calendar's, must not keep the other workspace's).
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { calendarQuery } from './queries/posts.ts';
import { SESSION_KEY, SignedInScope } from './session.tsx';
import { WorkspaceSwitcher } from './settings/WorkspaceSwitcher.tsx';
import { Shell } from './Shell.tsx';
import { renderSignedIn } from './testing/signedInPage.tsx';

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

/** A server with two workspaces; the second's posts are still on their way. A switch waits for `switched`. */
function server(switched: Promise<void> = Promise.resolve()) {
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
      await switched;
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

  it('shows neither workspace and keeps no event stream while the switch is under way', async () => {
    let release = () => {};
    server(new Promise<void>((resolve) => (release = resolve)));
    // The tab's event streams, open or closed.
    const streams: { url: string; closed: boolean }[] = [];
    vi.stubGlobal(
      'EventSource',
      class {
        stream = { url: '', closed: false };
        constructor(url: string) {
          this.stream.url = url;
          streams.push(this.stream);
        }
        addEventListener() {}
        close() {
          this.stream.closed = true;
        }
      },
    );
    const client = renderSignedIn(
      <Route element={<Shell />}>
        <Route path="/calendar" element={<Calendar />} />
      </Route>,
      '/calendar',
      { id: 'ws_a', name: 'ws_a' },
    );
    await screen.findByText('Acme autumn menu');
    expect(streams).toEqual([{ url: '/auth/events', closed: false }]);
    fireEvent.change(await screen.findByLabelText('Workspace'), { target: { value: 'ws_b' } });
    // The server names the next workspace already; the page waits for the session that says so.
    await screen.findByText('Opening the workspace…');
    expect(screen.queryByText('Acme autumn menu')).toBeNull();
    expect(streams.every((stream) => stream.closed)).toBe(true);
    release();
    await screen.findByText('Loading posts');
    expect(client.getQueryData<{ workspace: { id: string } }>(SESSION_KEY)?.workspace.id).toBe('ws_b');
    expect(streams.filter((stream) => !stream.closed)).toHaveLength(1);
  });
});
