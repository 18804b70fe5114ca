// @vitest-environment happy-dom
// Compose against a server stub: the accounts offered say a status in words, never the contract's code.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_KEY } from '../session.tsx';
import { ComposePage } from './ComposePage.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const session = {
  user: { id: 'usr_1', name: 'Ola', email: 'ola@example.com' },
  workspace: { id: 'ws_1', name: 'Acme', tz: 'Europe/Berlin', approvalRequiredFor: [] },
  role: 'owner',
  csrfToken: 'csrf',
};

const accounts = [
  { id: 'acc_1', platform: 'bluesky', displayName: 'Acme Bluesky', status: 'ok' },
  { id: 'acc_2', platform: 'threads', displayName: 'Acme Threads', status: 'expired' },
  { id: 'acc_3', platform: 'facebook', displayName: 'Acme Page', status: 'revoked' },
];

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/** A server with the accounts above and no groups; `answer` answers the rest, or it never answers. */
function server(answer: (request: Request, path: string) => Promise<Response> | undefined = () => undefined) {
  vi.stubGlobal('fetch', async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === '/v1/accounts') return json({ accounts });
    if (path === '/v1/groups') return json({ groups: [] });
    return answer(request, path) ?? new Promise<Response>(() => {});
  });
}

function renderCompose(at = '/compose') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(SESSION_KEY, session);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route path="/compose" element={<ComposePage />} />
          <Route path="/posts/:postId" element={<p>The post page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return client;
}

describe('compose', () => {
  it("says an account's status in words, not the contract's code", async () => {
    server();
    renderCompose();
    await screen.findByText('Acme Threads');
    const picks = [...document.querySelectorAll('.account-pick .muted')].map((p) => p.textContent);
    expect(picks).toEqual(['Bluesky', 'Threads · signed out', 'Facebook · disconnected']);
  });
});
