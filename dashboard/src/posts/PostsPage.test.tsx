// @vitest-environment happy-dom
// The list's filters live in the address, which a workspace switch keeps: an account of the workspace left names
// nothing in this one, and is dropped rather than filtering every post out ("No posts match").
import { cleanup, screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BISTRO_ACCOUNTS, BISTRO_POST } from '../testing/bistro.ts';
import { renderSignedIn } from '../testing/signedInPage.tsx';
import { PostsPage } from './PostsPage.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The workspace switched to: its own account and post; the list filters by account and status as the server does. */
function server() {
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    if (url.pathname === '/v1/accounts') return json({ accounts: BISTRO_ACCOUNTS });
    if (url.pathname === '/v1/posts') {
      const account = url.searchParams.get('accountId');
      const status = url.searchParams.get('status');
      const posts = [BISTRO_POST].filter(
        (p) => (!account || p.accountId === account) && (!status || p.status === status),
      );
      return json({ posts, nextCursor: null });
    }
    return new Promise<Response>(() => {});
  });
}

describe("the posts list's filters", () => {
  it("drop an account of the workspace left, and show this workspace's posts", async () => {
    server();
    renderSignedIn(<Route path="/posts" element={<PostsPage />} />, '/posts?account=acc_a1&status=queued&q=menu', {
      id: 'ws_b',
      name: 'Bistro',
    });
    await screen.findByText('Bistro autumn menu');
    // The filters that still name something here stay; the account leaves the address.
    await waitFor(() => expect(screen.getByLabelText('Address').textContent).toBe('/posts?status=queued&q=menu'));
    expect((screen.getByLabelText('Account') as HTMLSelectElement).value).toBe('');
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('queued');
  });
});
