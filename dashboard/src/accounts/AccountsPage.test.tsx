// @vitest-environment happy-dom
// A member sees the accounts and groups but no Connect, Reconnect, Disconnect or group changes, which the server
// refuses them (domain/roles.ts): the page says who does those instead. An administrator gets every control.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api.ts';
import { SESSION_KEY, type Session } from '../session.tsx';
import { AccountsPage } from './AccountsPage.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const account = { id: 'acc_1', platform: 'instagram', displayName: 'Acme Shop', status: 'expired' };
const group = { id: 'grp_1', name: 'Shops', accountIds: ['acc_1'] };

function renderAs(role: Session['role'], { plan = 'agency', accounts = [account], at = '/' } = {}) {
  vi.spyOn(api, 'GET').mockImplementation((async (path: string) => ({
    data:
      path === '/accounts'
        ? { accounts }
        : path === '/posts/{postId}'
          ? { id: 'pst_1', accountId: 'acc_1' }
          : { groups: [group] },
    response: new Response('{}'),
  })) as never);
  const disconnectPreviews = vi.fn(
    async (_: Request) => new Response(JSON.stringify({ queuedPosts: 0 }), { status: 200 }),
  );
  vi.stubGlobal('fetch', disconnectPreviews);
  const client = new QueryClient();
  client.setQueryData(SESSION_KEY, { role, user: {}, workspace: { plan, tz: 'Europe/Berlin' }, csrfToken: '' });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>
        <AccountsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { disconnectPreviews };
}

describe("an account's status", () => {
  it("is said in words, never by the contract's code", async () => {
    const revoked = { ...account, id: 'acc_2', displayName: 'Acme Café', status: 'revoked' };
    renderAs('member', { accounts: [account, revoked] });
    await screen.findByText('Acme Café');
    const states = [...document.querySelectorAll('.status')].map((s) => s.textContent);
    expect(states).toEqual(['signed out', 'disconnected']);
  });
});

describe('accounts by role', () => {
  it('offers a member no control that the server refuses, and says who does it', async () => {
    const { disconnectPreviews } = renderAs('member');
    await screen.findByText('Shops');
    expect(screen.getByText(/posts to it wait until an administrator reconnects it/)).toBeTruthy();
    expect(screen.queryAllByRole('link', { name: /^(Connect|Reconnect)/ })).toEqual([]);
    expect(screen.queryAllByRole('button', { name: /^(Disconnect|New group|Edit|Delete)/ })).toEqual([]);
    expect(screen.getByText(/Administrators and the owner connect, reconnect and disconnect accounts/)).toBeTruthy();
    expect(screen.getByText(/Administrators and the owner make and change groups/)).toBeTruthy();
    // Nor does the page ask what only an administrator may read (each account's disconnect preview).
    expect(disconnectPreviews).not.toHaveBeenCalled();
  });

  it('gives an administrator connect, reconnect, disconnect and the group controls', async () => {
    renderAs('administrator');
    await screen.findByRole('button', { name: 'Edit Shops' });
    expect(screen.getByRole('link', { name: 'Connect Instagram' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Reconnect Acme Shop' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New group' })).toBeTruthy();
    expect(screen.queryByText(/Administrators and the owner/)).toBeNull();
  });

  it("tells a full plan's limit before the consent page: no Connect, the reason and the way to more", async () => {
    const second = { ...account, id: 'acc_2', platform: 'youtube', displayName: 'Acme Videos', status: 'ok' };
    renderAs('owner', { plan: 'free', accounts: [account, second] });
    await screen.findByText('The Free plan connects up to 2 accounts, and 2 are connected.');
    expect(
      screen.getByText(/Disconnect one to connect another, or move to the Creator plan for up to 6 accounts\./),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/settings/billing');
    expect(screen.queryAllByRole('link', { name: /^Connect / })).toEqual([]);
    const tile = screen.getByText('Connect Instagram');
    expect(tile.getAttribute('aria-disabled')).toBe('true');
    expect(tile.getAttribute('aria-describedby')).toBe('connect-limit');
  });

  it('names the Pages a Facebook grant reached but could not connect, with why', async () => {
    const why = 'Not connected: Locked Page (you are not assigned to it in Acme Agency).';
    renderAs('administrator', { at: `/?connected=2&notConnected=${encodeURIComponent(why)}` });
    await screen.findByText(/Connected 2 accounts/);
    expect(screen.getByText(why)).toBeTruthy();
  });

  it('says why a personal Instagram account was not connected, and the next step, never the code', async () => {
    const refusal = new URLSearchParams({
      error: 'nothing_to_connect',
      message: 'None of the granted Facebook Pages has an Instagram account linked.',
      hint: 'In Instagram, switch the account to a professional account.',
      reason: 'instagram_not_professional',
    });
    renderAs('administrator', { at: `/?${refusal}` });
    await screen.findByText(/A personal account cannot be connected\./);
    expect(screen.getByText(/switch to a professional account; link it to your Facebook Page/)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/nothing_to_connect|instagram_not_professional|offered no account/);
  });

  it('says a grant over the plan’s limit in the singular, with a hint about accounts, not posts', async () => {
    const refusal = new URLSearchParams({
      error: 'quota_exceeded',
      message: 'The free plan allows 2 connected accounts and 1 are connected; this would add 2.',
      hint: 'Disconnect an account, or upgrade to Creator (more accounts).',
      limit: '2',
      used: '1',
    });
    renderAs('administrator', { plan: 'free', at: `/?${refusal}` });
    await screen.findByText(
      'The Free plan connects up to 2 accounts. 1 is connected, so there is room for 1 more, and the network ' +
        'granted more than that.',
    );
    expect(screen.getByText(/^Connect again and choose fewer accounts at the network, or disconnect one/)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/1 are|queued post/);
  });

  it('names the reconnected account and each post it sent again, linked, by the time it was meant for', async () => {
    const at = '/?connected=1&reconnected=acc_1&requeued=2&sentAgain=pst_1%402026-11-24T11%3A00%3A00.000Z';
    renderAs('administrator', { at });
    await screen.findByText('Reconnected Acme Shop.');
    const post = await screen.findByRole('link', { name: /^your post of Tue 24 Nov at 12:00 CET to Acme Shop$/ });
    expect(post.getAttribute('href')).toBe('/posts/pst_1');
    expect(screen.getByText('and 1 more post, sent again too.')).toBeTruthy();
    expect(screen.queryByText(/Connected 1 account/)).toBeNull();
  });

  it('offers Connect while the plan has room', async () => {
    renderAs('owner', { plan: 'free' });
    await screen.findByRole('link', { name: 'Connect Instagram' });
    expect(screen.queryByText(/plan connects up to/)).toBeNull();
  });

  it('connects Bluesky with the form the server sent the person to: handle, app password and server', async () => {
    const { disconnectPreviews: sent } = renderAs('administrator', {
      at: '/?connect=bluesky&server=https%3A%2F%2Fbsky.social',
    });
    await screen.findByRole('heading', { name: 'Connect a Bluesky account' });
    expect((screen.getByLabelText('Server') as HTMLInputElement).value).toBe('https://bsky.social');
    expect(document.activeElement).toBe(screen.getByLabelText('Handle or email'));
    fireEvent.change(screen.getByLabelText('Handle or email'), { target: { value: 'acmeshop.bsky.social' } });
    fireEvent.change(screen.getByLabelText('App password'), { target: { value: 'abcd-efgh-ijkl-mnop' } });
    // The connection refreshes every query, the session too (which the page reads the workspace's zone from).
    const session = { role: 'administrator', user: {}, workspace: { plan: 'agency', tz: 'Europe/Berlin' } };
    sent.mockImplementation(
      async (r: Request) =>
        new Response(JSON.stringify(r.url.endsWith('/session') ? session : { connected: 1, requeued: 0 }), {
          status: 200,
        }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByText(/Connected 1 account/);
    const request = (sent.mock.calls as unknown as [Request][]).map(([r]) => r).find((r) => r.method === 'POST')!;
    expect(new URL(request.url).pathname).toBe('/auth/connect/bluesky');
    expect(await request.json()).toEqual({
      identifier: 'acmeshop.bsky.social',
      password: 'abcd-efgh-ijkl-mnop',
      server: 'https://bsky.social',
    });
    expect(screen.queryByRole('heading', { name: 'Connect a Bluesky account' })).toBeNull();
  });

  it('keeps the form with the refusal in the dashboard’s words, never the code', async () => {
    const { disconnectPreviews: sent } = renderAs('administrator', {
      at: '/?connect=bluesky&server=https%3A%2F%2Fbsky.social&accountId=acc_1',
    });
    await screen.findByRole('heading', { name: 'Reconnect Acme Shop' });
    fireEvent.change(screen.getByLabelText('Handle or email'), { target: { value: 'acmeshop.bsky.social' } });
    fireEvent.change(screen.getByLabelText('App password'), { target: { value: 'my own password' } });
    sent.mockImplementation(
      async () =>
        new Response(JSON.stringify({ code: 'app_password_required', message: 'm', hint: 'h' }), { status: 400 }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByText('This is the account’s own password; Herald connects with an app password.');
    expect(document.body.textContent).not.toMatch(/app_password_required/);
    expect(screen.getByRole('heading', { name: 'Reconnect Acme Shop' })).toBeTruthy();
  });
});

describe("each account's health", () => {
  const now = Date.now();
  const at = (days: number) => new Date(now + days * 86_400_000).toISOString();
  const tiktok = {
    id: 'acc_2',
    platform: 'tiktok',
    displayName: 'Acme TikTok',
    status: 'ok',
    token: { refreshedAt: at(-1), expiresAt: at(0.05), renewableUntil: at(179) },
    restrictions: [{ code: 'tiktok_unaudited_app', usersLeft: 4 }],
  };
  const bluesky = {
    id: 'acc_3',
    platform: 'bluesky',
    displayName: 'acme.bsky.social',
    status: 'ok',
    token: { refreshedAt: at(-85), expiresAt: null, renewableUntil: at(5) },
    restrictions: [],
  };

  it('says the token life and the restrictions in words, with the network guide linked', async () => {
    renderAs('member', { accounts: [tiktok, bluesky] });
    await screen.findByText(/4 of 5 places are left today/);
    const row = screen.getByText('Acme TikTok').closest('li')!;
    expect(row.textContent).toMatch(/Access last refreshed yesterday at \d\d:\d\d/);
    expect(row.textContent).toMatch(/Herald can keep renewing it until \w{3} \d{1,2} \w{3}/);
    expect(row.textContent).toMatch(/TikTok shows its posts to the creator only/);
    const guide = screen.getByRole('link', { name: 'TikTok guide for operators' });
    expect(guide.getAttribute('href')).toBe('/docs/networks-tiktok');
    // Bluesky needs no app of the operator's, so it has no guide; its renewal end is near, said in its colour.
    const sky = screen.getByText('acme.bsky.social').closest('li')!;
    expect(sky.querySelector('a[href^="/docs/"]')).toBeNull();
    expect(sky.querySelector('.health-soon')).not.toBeNull();
    // No codes, ids or ISO timestamps on screen.
    const text = document.body.textContent ?? '';
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT|tiktok_unaudited_app|acc_\d/);
  });
});
