// @vitest-environment happy-dom
// Deciding on a card: the card leaves the list, and focus goes to the sentence that says what was done, instead of
// falling to the page's body with the card's button.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_KEY } from '../session.tsx';
import { ApprovalsPage } from './ApprovalsPage.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const waiting = {
  id: 'pst_1',
  accountId: 'acc_1',
  platform: 'bluesky',
  status: 'draft',
  text: 'Autumn menu',
  title: null,
  tags: [],
  mediaIds: [],
  publishAt: null,
  updatedAt: '2026-11-21T09:12:44.318Z',
  createdVia: 'dashboard',
  approval: {
    state: 'pending',
    requestedBy: 'Maya Lund',
    requestedAt: '2026-11-21T09:12:44.318Z',
    wantedAt: null,
    comment: null,
    decidedAt: null,
  },
};

describe('approvals', () => {
  it('moves focus to what was done once the decided card leaves the list', async () => {
    let decided = false;
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
    vi.stubGlobal('fetch', async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (path === '/auth/approvals/pst_1/approve') {
        decided = true;
        return json({ ...waiting, status: 'queued', approval: undefined });
      }
      if (path === '/auth/approvals') return json({ posts: decided ? [] : [waiting] });
      if (path === '/v1/accounts') return json({ accounts: [] });
      return new Response('{}', { status: 404 });
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(SESSION_KEY, {
      user: { id: 'usr_1', name: 'Ola', email: 'ola@example.com' },
      workspace: { id: 'ws_1', name: 'Acme', tz: 'UTC', approvalRequiredFor: [] },
      role: 'owner',
      csrfToken: 'csrf',
    });
    render(
      <QueryClientProvider client={client}>
        <ApprovalsPage />
      </QueryClientProvider>,
    );
    const approve = await screen.findByRole('button', { name: 'Approve' });
    approve.focus();
    fireEvent.click(approve);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull());
    const said = screen.getByText('Approved: the post is scheduled.');
    await waitFor(() => expect(document.activeElement).toBe(said));
  });
});
