// @vitest-environment happy-dom
// What compose made: each post's link names the post by its network and account, never by its id.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { accountKeys } from '../queries/accounts.ts';
import { postKeys } from '../queries/posts.ts';
import { ComposeResults } from './ComposeResults.tsx';

afterEach(cleanup);

const line = 'Queued. Instagram · Acme Shop · 24 November, 14:30 (CET).';

describe("compose's results", () => {
  it('names each post for a screen reader by its network and account, not its id', () => {
    const client = new QueryClient({
      defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
    });
    client.setQueryData(accountKeys.list, [{ id: 'acc_1', platform: 'instagram', displayName: 'Acme Shop' }]);
    client.setQueryData(postKeys.one('pst_5Jx8Nc2Wq7'), {
      id: 'pst_5Jx8Nc2Wq7',
      accountId: 'acc_1',
      platform: 'instagram',
      status: 'queued',
      statusLine: line,
    });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ComposeResults
            posts={[
              { id: 'pst_5Jx8Nc2Wq7', status: 'queued', statusLine: line },
              { id: 'pst_9Lm3Bv6Kd1', status: 'queued', statusLine: line.replace('Instagram', 'Facebook') },
            ]}
            onAgain={() => {}}
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const links = screen.getAllByRole('link', { name: /^Open/ });
    expect(links.map((l) => l.textContent)).toEqual(['Open the Instagram post to Acme Shop', 'Open post 2']);
    for (const link of links) expect(link.textContent).not.toMatch(/pst_/);
  });
});
