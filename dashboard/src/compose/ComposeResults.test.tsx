// @vitest-environment happy-dom
// What compose made: each post's state in the dashboard's words (a failed one's reason from the error table, never
// the server's statusLine, which carries the API's error message), and each link names its post by network and
// account, never by its id.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountKeys } from '../queries/accounts.ts';
import { postKeys } from '../queries/posts.ts';
import { SESSION_KEY } from '../session.tsx';
import { ComposeResults } from './ComposeResults.tsx';

// A post not put in the cache is still on its way.
beforeEach(() => vi.stubGlobal('fetch', () => new Promise(() => {})));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const line = 'Queued. Instagram · Acme Shop · 24 November, 14:30 (CET).';
const at = '2030-11-24T13:30:00.000Z';

function renderResults(posts: Record<string, unknown>[], created: { id: string; status: string }[]) {
  const client = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
  });
  client.setQueryData(SESSION_KEY, { workspace: { tz: 'Europe/Berlin' } });
  client.setQueryData(accountKeys.list, [{ id: 'acc_1', platform: 'instagram', displayName: 'Acme Shop' }]);
  for (const post of posts) client.setQueryData(postKeys.one(post.id as string), post);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ComposeResults posts={created.map((p) => ({ ...p, statusLine: line })) as never} onAgain={() => {}} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("compose's results", () => {
  it('names each post for a screen reader by its network and account, not its id', () => {
    renderResults(
      [{ id: 'pst_5Jx8Nc2Wq7', accountId: 'acc_1', platform: 'instagram', status: 'queued', publishAt: at }],
      [
        { id: 'pst_5Jx8Nc2Wq7', status: 'queued' },
        { id: 'pst_9Lm3Bv6Kd1', status: 'queued' },
      ],
    );
    const links = screen.getAllByRole('link', { name: /^Open/ });
    expect(links.map((l) => l.textContent)).toEqual(['Open the Instagram post to Acme Shop', 'Open post 2']);
    for (const link of links) expect(link.textContent).not.toMatch(/pst_/);
  });

  it("says each post's state in the dashboard's words, a failed one's reason from its error code", () => {
    const apiMessage = 'instagram refused the post: (#36003) The aspect ratio is not supported.';
    const failedLine = `Failed. Instagram · Acme Shop · 24 November, 14:30 (CET): ${apiMessage}`;
    renderResults(
      [
        {
          id: 'pst_1',
          accountId: 'acc_1',
          platform: 'instagram',
          status: 'failed',
          publishAt: at,
          statusLine: failedLine,
          error: { code: 'instagram_token_rejected', message: apiMessage, hint: 'Reconnect the account.' },
        },
        { id: 'pst_2', accountId: 'acc_1', platform: 'instagram', status: 'queued', publishAt: at, statusLine: line },
      ],
      [
        { id: 'pst_1', status: 'queued' },
        { id: 'pst_2', status: 'queued' },
        { id: 'pst_3', status: 'draft' },
      ],
    );
    const rows = screen.getAllByRole('listitem').map((r) => r.querySelector('.row-main')!.textContent);
    expect(rows[0]).toMatch(/^Failed · Instagram · Acme Shop · Sun 24 Nov 2030 at 14:30 CET/);
    expect(rows[0]).toContain('Instagram no longer accepts this account’s sign-in.');
    expect(rows[0]).toContain('Reconnect the account on the Accounts page');
    expect(rows[1]).toMatch(/^Scheduled · Instagram · Acme Shop · Sun 24 Nov 2030 at 14:30 CET$/);
    // Until its post loads, a row says the state it was created in.
    expect(rows[2]).toBe('Draft');
    const all = rows.join(' ');
    expect(all).not.toContain(apiMessage);
    expect(all).not.toMatch(/Queued\.|\(CET\)|instagram_/);
  });
});
