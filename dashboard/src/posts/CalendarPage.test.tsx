// @vitest-environment happy-dom
// The calendar's filters live in the address, which a workspace switch keeps: a group or account of the workspace
// left names nothing in this one, and is dropped rather than filtering every post out ("0 of 1").
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_KEY } from '../session.tsx';
import CalendarPage from './CalendarPage.tsx';

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
};

/** The workspace switched to: its own account, group and post. */
function server() {
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
  vi.stubGlobal('fetch', async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === '/v1/accounts')
      return json({ accounts: [{ id: 'acc_b1', platform: 'bluesky', displayName: 'Bistro', status: 'ok' }] });
    if (path === '/v1/groups') return json({ groups: [{ id: 'grp_b1', name: 'Bistros', accountIds: ['acc_b1'] }] });
    if (path === '/v1/posts') return json({ posts: [post], nextCursor: null });
    return new Promise<Response>(() => {});
  });
}

function Address() {
  const location = useLocation();
  return <output aria-label="Address">{location.pathname + location.search}</output>;
}

describe("the calendar's filters", () => {
  it("drop a group and an account of the workspace left, and show this workspace's posts", async () => {
    server();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(SESSION_KEY, session);
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter
          initialEntries={['/calendar?view=list&date=2030-11-24&group=grp_a1&account=acc_a1&status=queued']}
        >
          <Routes>
            <Route path="/calendar" element={<CalendarPage />} />
          </Routes>
          <Address />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await screen.findByText('1 of 1 posts match the filters.');
    await screen.findByText(/Bistro autumn menu/);
    // The filter that still names something here stays; the others leave the address.
    expect(screen.getByLabelText('Address').textContent).toBe('/calendar?view=list&date=2030-11-24&status=queued');
    expect((screen.getByLabelText('Group') as HTMLSelectElement).value).toBe('');
    expect((screen.getByLabelText('Account') as HTMLSelectElement).value).toBe('');
  });
});
