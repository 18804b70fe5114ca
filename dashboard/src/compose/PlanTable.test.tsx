// @vitest-environment happy-dom
// The plan table shows each row's time in the workspace zone and each issue with its hint; the confirm
// button names what will happen.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, type Account, type PlanResponse } from '../api.ts';
import { confirmLabel } from './plan.ts';
import { PlanTable } from './PlanTable.tsx';

const accounts: Account[] = [
  { id: 'acc_1', platform: 'instagram', displayName: 'Acme Shop', status: 'ok' },
  { id: 'acc_2', platform: 'threads', displayName: 'acmeshop', status: 'ok' },
];
const at = '2026-11-24T13:30:00.000Z';
const plan: PlanResponse = {
  ok: false,
  status: 'queued',
  awaitingApproval: false,
  table: '',
  quota: { used: 3, limit: 20, requested: 2 },
  rows: [
    {
      accountId: 'acc_1',
      platform: 'instagram',
      publishAt: at,
      ok: true,
      issues: [],
      settings: { contentType: 'feed' },
    },
    {
      accountId: 'acc_2',
      platform: 'threads',
      publishAt: at,
      settings: {},
      ok: false,
      issues: [
        {
          code: 'caption_too_long',
          message: 'text counts 530 on threads; threads allows 500.',
          field: 'text',
          limit: 500,
          actual: 530,
          hint: 'Shorten the text.',
        },
      ],
    },
  ],
};

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('plan table', () => {
  it('lists each account with its time in the zone, and the failing row with its issue in words', () => {
    render(<PlanTable plan={plan} accounts={accounts} zone="Europe/Berlin" />);
    const table = screen.getByRole('table');
    expect(within(table).getByText(/1 of 2 posts would not pass/)).toBeTruthy();
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByRole('rowheader').textContent).toContain('Acme Shop');
    expect(first!.textContent).toContain('24 Nov 2026, 14:30');
    expect(first!.textContent).toContain('Passes');
    expect(second!.textContent).toContain(
      'Threads allows 500 characters (emoji count their bytes); this text has 530.',
    );
    expect(second!.textContent).not.toMatch(/caption_too_long|overrides\./);
  });

  it('names what the confirm does: schedule at the time in the zone, publish now, or save drafts', () => {
    expect(confirmLabel(plan, 'at', 'Europe/Berlin')).toBe('Schedule 2 posts for 24 November, 14:30 (CET)');
    expect(confirmLabel(plan, 'now', 'Europe/Berlin')).toBe('Publish 2 posts now');
    expect(confirmLabel({ ...plan, status: 'draft', rows: plan.rows.slice(0, 1) }, 'draft', 'UTC')).toBe(
      'Save 1 draft',
    );
    const spread = { ...plan, rows: [plan.rows[0]!, { ...plan.rows[1]!, publishAt: '2026-11-25T13:30:00.000Z' }] };
    expect(confirmLabel(spread, 'at', 'Europe/Berlin')).toBe('Schedule 2 posts');
    expect(confirmLabel(spread, 'queue', 'Europe/Berlin')).toBe('Add 2 posts to the queue');
    expect(confirmLabel({ ...plan, status: 'draft', awaitingApproval: true }, 'queue', 'UTC')).toBe(
      'Ask for approval of 2 posts',
    );
  });

  it("shows the queue's time for each account, and sends an account without posting times to set them", async () => {
    vi.spyOn(api, 'GET').mockImplementation((async () => ({
      data: { accountId: 'acc_2', timezone: 'Europe/Berlin', slots: [], next: [] },
      response: new Response('{}'),
    })) as never);
    const issue = { code: 'queue_empty' as const, message: 'No free posting time.', hint: 'Set its times.' };
    const queued = {
      ...plan,
      rows: [plan.rows[0]!, { ...plan.rows[1]!, publishAt: null, issues: [issue] }],
    };
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <PlanTable plan={queued} accounts={accounts} zone="Europe/Berlin" queue />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const [, first, second] = screen.getAllByRole('row');
    expect(first!.textContent).toContain('24 Nov 2026, 14:30 CETIts next free posting time');
    expect(second!.textContent).toContain('No free posting time');
    await screen.findByText(/acmeshop has no posting times yet\./);
    const link = screen.getByRole('link', { name: 'Set the posting times of acmeshop' });
    expect(link.getAttribute('href')).toBe('/accounts/acc_2/schedule');
  });
});
