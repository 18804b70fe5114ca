// @vitest-environment happy-dom
// The list's filters live in the address, which a workspace switch keeps: an account of the workspace left names
// nothing in this one, and is dropped rather than filtering every post out ("No posts match").
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_KEY } from '../session.tsx';
import { PostsPage } from './PostsPage.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = {
  user: { id: 'usr_1', name: 'Ola', email: 'ola@example.com' },
  workspace: { id: 'ws_b', name: 'Bistro', tz: 'Europe/Berlin', approvalRequiredFor: [] },
  role: 'owner',
  csrfToken: 'csrf',
};

const post = {
  id: 'pst_b1',
  batchId: 'bat_b1',
  accountId: 'acc_b1',
  platform: 'bluesky',
  status: 'queued',
  publishAt: '2030-11-24T11:00:00.000Z',
  text: 'Bistro autumn menu',
  title: null,
  mediaIds: [],
  media: [],
};

/** The workspace switched to: its own account and post; the list filters by account and status as the server does. */
function server() {
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    if (url.pathname === '/v1/accounts')
      return json({ accounts: [{ id: 'acc_b1', platform: 'bluesky', displayName: 'Bistro', status: 'ok' }] });
    if (url.pathname === '/v1/posts') {
      const account = url.searchParams.get('accountId');
      const status = url.searchParams.get('status');
      const posts = [post].filter((p) => (!account || p.accountId === account) && (!status || p.status === status));
      return json({ posts, nextCursor: null });
    }
    return new Promise<Response>(() => {});
  });
}

function Address() {
  const location = useLocation();
  return <output aria-label="Address">{location.pathname + location.search}</output>;
}

describe("the posts list's filters", () => {
  it("drop an account of the workspace left, and show this workspace's posts", async () => {
    server();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(SESSION_KEY, session);
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/posts?account=acc_a1&status=queued&q=menu']}>
          <Routes>
            <Route path="/posts" element={<PostsPage />} />
          </Routes>
          <Address />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await screen.findByText('Bistro autumn menu');
    // The filters that still name something here stay; the account leaves the address.
    await waitFor(() => expect(screen.getByLabelText('Address').textContent).toBe('/posts?status=queued&q=menu'));
    expect((screen.getByLabelText('Account') as HTMLSelectElement).value).toBe('');
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('queued');
  });
});
