// @vitest-environment happy-dom
// The calendar's filters live in the address, which a workspace switch keeps: a group or account of the workspace
// left names nothing in this one, and is dropped rather than filtering every post out ("0 of 1").
import { cleanup, screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BISTRO_ACCOUNTS, BISTRO_POST } from '../testing/bistro.ts';
import { renderSignedIn } from '../testing/signedInPage.tsx';
import CalendarPage from './CalendarPage.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The workspace switched to: its own account, group and post. */
function server() {
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
  vi.stubGlobal('fetch', async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === '/v1/accounts') return json({ accounts: BISTRO_ACCOUNTS });
    if (path === '/v1/groups') return json({ groups: [{ id: 'grp_b1', name: 'Bistros', accountIds: ['acc_b1'] }] });
    if (path === '/v1/posts') return json({ posts: [BISTRO_POST], nextCursor: null });
    return new Promise<Response>(() => {});
  });
}

describe("the calendar's filters", () => {
  it("drop a group and an account of the workspace left, and show this workspace's posts", async () => {
    server();
    renderSignedIn(
      <Route path="/calendar" element={<CalendarPage />} />,
      '/calendar?view=list&date=2030-11-24&group=grp_a1&account=acc_a1&status=queued',
      { id: 'ws_b', name: 'Bistro' },
    );
    await screen.findByText('1 of 1 posts match the filters.');
    await screen.findByText(/Bistro autumn menu/);
    // The filter that still names something here stays; the others leave the address.
    expect(screen.getByLabelText('Address').textContent).toBe('/calendar?view=list&date=2030-11-24&status=queued');
    expect((screen.getByLabelText('Group') as HTMLSelectElement).value).toBe('');
    expect((screen.getByLabelText('Account') as HTMLSelectElement).value).toBe('');
  });
});
