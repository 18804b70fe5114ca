// @vitest-environment happy-dom
// Settings, Webhooks, for each person who opens it: a member is told who manages webhooks (and the page asks the
// API nothing), a plan without webhooks gets the reason and the way to the plans instead of a form that fails, and
// an administrator sees why Herald turned a webhook off, turns it on again, reads the delivery log in words and
// gets a new secret shown once; the Settings banner names a webhook Herald turned off.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api.ts';
import { SESSION_KEY, type Session } from '../session.tsx';
import { DisabledWebhooksBanner, WebhooksPage } from './WebhooksPage.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const url = 'https://example.com/herald-events';
const offByHerald = {
  id: 'whk_1',
  url,
  events: ['post.live', 'post.failed'],
  enabled: false,
  disabledReason: 'Every attempt of a delivery failed over about three days (8 attempts).',
  createdAt: '2026-11-02T08:15:00.000Z',
};
const failed = {
  id: 'whd_1',
  webhookId: 'whk_1',
  eventId: 'wev_1',
  type: 'post.failed',
  status: 'failed',
  attempts: 8,
  nextAttemptAt: null,
  responseStatus: null,
  responseBody: 'the connection was refused',
  durationMs: 3,
  // The words come from the attempt's noAnswer code, never from the sentence above.
  attemptLog: [
    {
      attempt: 8,
      at: '2026-11-02T09:00:00.000Z',
      responseStatus: null,
      responseBody: 'the connection was refused',
      durationMs: 3,
      noAnswer: 'connection_refused',
    },
  ],
  createdAt: '2026-11-02T09:00:00.000Z',
};
const answered = { ...failed, id: 'whd_2', type: 'post.live', responseStatus: 500, responseBody: 'database down' };

const ok = (data: unknown) => ({ data, response: new Response('{}') });

/** The API as the page sees it: `get` answers each GET by path; every change is recorded and answered. */
function renderAs(role: Session['role'], get: (path: string) => unknown, plan = 'studio', page = <WebhooksPage />) {
  const gets = vi.spyOn(api, 'GET').mockImplementation((async (path: string) => get(path)) as never);
  const changes: { method: string; path: string; body: unknown }[] = [];
  const change = (method: string) =>
    (async (path: string, init: { body?: unknown }) => {
      changes.push({ method, path, body: init?.body });
      if (JSON.stringify(init?.body ?? {}).includes('10.0.0.1'))
        return {
          error: {
            code: 'url_not_allowed',
            message: 'url: https://10.0.0.1/hook points at 10.0.0.1, a private address; only public https addresses…',
            hint: 'Give a public https address of your server that accepts POST requests.',
          },
          response: new Response('{}', { status: 400 }),
        };
      return ok({ ...offByHerald, enabled: true, disabledReason: null, secret: 'whsec_NEWSECRET' });
    }) as never;
  vi.spyOn(api, 'PATCH').mockImplementation(change('PATCH'));
  vi.spyOn(api, 'POST').mockImplementation(change('POST'));
  const client = new QueryClient();
  client.setQueryData(SESSION_KEY, { role, user: {}, workspace: { plan, tz: 'Europe/Berlin' }, csrfToken: '' });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{page}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { gets, changes };
}

describe('the webhooks page', () => {
  it('tells a member who manages webhooks, and asks the API nothing', async () => {
    const { gets } = renderAs('member', () => ok({ webhooks: [] }));
    await screen.findByText(/Administrators and the owner manage webhooks/);
    expect(screen.queryByRole('button', { name: 'Create webhook' })).toBeNull();
    expect(gets).not.toHaveBeenCalled();
  });

  it('says which plans have webhooks, with the way to the plans, where the API refuses the plan', async () => {
    renderAs(
      'owner',
      () => ({
        error: {
          code: 'quota_exceeded',
          message: 'Webhooks need the Studio plan or above; this workspace is on creator.',
          hint: 'Read GET /events for what changed, or upgrade to Studio (webhooks).',
          upgradeUrl: 'https://herald.test/app/settings/billing',
        },
        response: new Response('{}', { status: 402 }),
      }),
      'creator',
    );
    await screen.findByText('Webhooks come with the Studio and Agency plans');
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe(
      'https://herald.test/app/settings/billing',
    );
    expect(screen.queryByRole('button', { name: 'Create webhook' })).toBeNull();
    expect(document.body.textContent).not.toMatch(/quota_exceeded|GET \/events/);
  });

  it('says why Herald turned a webhook off, turns it on again, and reads the log in words', async () => {
    const { changes } = renderAs('administrator', (path) =>
      path === '/webhooks' ? ok({ webhooks: [offByHerald] }) : ok({ deliveries: [answered, failed], nextCursor: null }),
    );
    await screen.findByText('Herald turned this webhook off');
    expect(screen.getByText('Turned off by Herald')).toBeTruthy();
    expect(screen.getByText(/failed for about three days, so Herald stopped sending to it/)).toBeTruthy();
    // The server's own sentence (for programs) is not what the page says.
    expect(screen.queryByText(/8 attempts\)/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Show the delivery log' }));
    const log = await screen.findByRole('region', { name: 'Delivery log' });
    expect(within(log).getByText('Your server refused the connection.')).toBeTruthy();
    expect(within(log).getByText('database down')).toBeTruthy();
    expect(within(log).getAllByText(/All 8 attempts failed over about three days/)).toHaveLength(2);
    expect(within(log).getByText(/HTTP 500/).textContent).toMatch(/^Mon 2 Nov at 10:00 CET · HTTP 500 · 3\u00a0ms$/);
    expect(log.textContent).not.toMatch(/whd_|wev_|post\.failed|2026-11-02T/);

    fireEvent.click(screen.getByRole('button', { name: 'Turn on again' }));
    await vi.waitFor(() => expect(changes).toHaveLength(1));
    expect(changes[0]).toEqual({ method: 'PATCH', path: '/webhooks/{webhookId}', body: { enabled: true } });
  });

  it('makes a new secret only once confirmed, and shows it with the 24 hours of both signatures', async () => {
    const on = { ...offByHerald, enabled: true, disabledReason: null };
    const { changes } = renderAs('owner', () => ok({ webhooks: [on] }));
    fireEvent.click(await screen.findByRole('button', { name: 'Make a new secret' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Make a new signing secret?' });
    expect(dialog.textContent).toMatch(/For the next 24 hours the current secret keeps signing every delivery/);
    expect(changes).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make a new secret' }));
    const secret = await screen.findByRole('region', { name: 'Your signing secret' });
    expect(within(secret).getByLabelText('Signing secret')).toHaveProperty('value', 'whsec_NEWSECRET');
    expect(secret.textContent).toMatch(/this is the only time it is shown/);
    expect(secret.textContent).toMatch(/Herald will not show it again/);
    expect(changes.map((c) => c.path)).toEqual(['/webhooks/{webhookId}/rotate-secret']);
  });

  it('creates with the events chosen, and says a refused address as a webhook’s', async () => {
    const { changes } = renderAs('owner', () => ok({ webhooks: [] }));
    fireEvent.change(await screen.findByLabelText('Web address'), { target: { value: 'https://10.0.0.1/hook' } });
    fireEvent.click(screen.getByLabelText('Post failed to publish'));
    fireEvent.click(screen.getByLabelText('File ready to post'));
    fireEvent.click(screen.getByRole('button', { name: 'Create webhook' }));
    await screen.findByText('Herald sends events only to a public https:// address.');
    expect(screen.queryByText(/Herald does not download/)).toBeNull();
    expect(changes).toEqual([
      {
        method: 'POST',
        path: '/webhooks',
        body: { url: 'https://10.0.0.1/hook', events: ['post.live', 'media.ready'] },
      },
    ]);
    expect(screen.queryByRole('region', { name: 'Your signing secret' })).toBeNull();
  });
});

describe('the Settings banner', () => {
  it('names a webhook Herald turned off to an administrator', async () => {
    renderAs('administrator', () => ok({ webhooks: [offByHerald] }), 'studio', <DisabledWebhooksBanner />);
    await screen.findByText(
      `Herald turned off the webhook to ${url}: its deliveries kept failing for about three days.`,
    );
    expect(screen.getByRole('link', { name: 'Open Webhooks' }).getAttribute('href')).toBe('/settings/webhooks');
  });

  it('asks nothing for a member or a plan without webhooks', async () => {
    const member = renderAs('member', () => ok({ webhooks: [offByHerald] }), 'studio', <DisabledWebhooksBanner />);
    cleanup();
    const creator = renderAs('owner', () => ok({ webhooks: [offByHerald] }), 'creator', <DisabledWebhooksBanner />);
    expect(member.gets).not.toHaveBeenCalled();
    expect(creator.gets).not.toHaveBeenCalled();
  });
});
