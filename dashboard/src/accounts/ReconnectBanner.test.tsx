// @vitest-environment happy-dom
// The banner names what needs reconnecting in words, on every page, and is gone while every account is connected.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api.ts';
import { SESSION_KEY, type Session } from '../session.tsx';
import { ReconnectBanner } from './ReconnectBanner.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderWith(accounts: Record<string, unknown>[], role: Session['role'] = 'owner') {
  vi.spyOn(api, 'GET').mockImplementation((async () => ({
    data: { accounts },
    response: new Response('{}'),
  })) as never);
  const client = new QueryClient();
  client.setQueryData(SESSION_KEY, { role, user: {}, workspace: { plan: 'agency', tz: 'Europe/Berlin' } });
  render(
    <QueryClientProvider client={client}>
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

  it('tells owners and administrators a week before a token can no longer be renewed, in words', async () => {
    const ending = (days: number) => ({
      refreshedAt: new Date(Date.now() - 86_400_000).toISOString(),
      expiresAt: null,
      renewableUntil: new Date(Date.now() + days * 86_400_000).toISOString(),
    });
    const accounts = [
      { id: 'acc_1', platform: 'youtube', displayName: 'Acme TV', status: 'ok', token: ending(6) },
      { id: 'acc_2', platform: 'tiktok', displayName: 'Acme TikTok', status: 'ok', token: ending(100) },
    ];
    renderWith(accounts, 'administrator');
    const title = await screen.findByText(/^Acme TV must be reconnected by \w{3} \d{1,2} \w{3} at \d\d:\d\d/);
    expect(title.textContent).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(screen.getByText(/YouTube stops renewing Herald’s access to it then/)).toBeTruthy();
    cleanup();
    // A member cannot reconnect: no banner for them; nor for anyone while every renewal end is more than a week off.
    renderWith(accounts, 'member');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('status')).toBeNull();
    cleanup();
    renderWith([{ ...accounts[1] }], 'owner');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
