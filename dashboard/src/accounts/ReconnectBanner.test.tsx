// @vitest-environment happy-dom
// The banner names what needs reconnecting in words, on every page, and is gone while every account is connected.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api.ts';
import { ReconnectBanner } from './ReconnectBanner.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderWith(accounts: { id: string; platform: string; displayName: string; status: string }[]) {
  vi.spyOn(api, 'GET').mockImplementation((async () => ({
    data: { accounts },
    response: new Response('{}'),
  })) as never);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <ReconnectBanner />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('reconnect banner', () => {
  it('names the one account that needs reconnecting and leads to Accounts', async () => {
    renderWith([
      { id: 'acc_1', platform: 'threads', displayName: 'Acme Threads', status: 'expired' },
      { id: 'acc_2', platform: 'bluesky', displayName: 'acme.bsky.social', status: 'ok' },
    ]);
    expect(await screen.findByText('Acme Threads needs reconnecting')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Accounts' }).getAttribute('href')).toBe('/accounts');
  });

  it('counts several, and shows nothing when every account is connected', async () => {
    renderWith([
      { id: 'acc_1', platform: 'threads', displayName: 'Acme Threads', status: 'expired' },
      { id: 'acc_2', platform: 'youtube', displayName: 'Acme', status: 'revoked' },
    ]);
    expect(await screen.findByText('2 accounts need reconnecting')).toBeTruthy();
    cleanup();
    renderWith([{ id: 'acc_2', platform: 'bluesky', displayName: 'acme.bsky.social', status: 'ok' }]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
