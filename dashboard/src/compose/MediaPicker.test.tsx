// @vitest-environment happy-dom
// The files picked for a post are named by their file names; one that cannot be read (deleted since a kept draft
// picked it) is said so in words, never by its id.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MediaPicker } from './MediaPicker.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('picked files', () => {
  it('names a file that is gone from the library in words, not by its id', async () => {
    const notFound = { code: 'not_found', message: 'No media med_7Gone3 in this workspace.', hint: '' };
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(notFound), { status: 404 }));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MediaPicker value={['med_7Gone3']} onChange={() => {}} />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('list').textContent).not.toMatch(/med_/);
    await screen.findByText('A file no longer in the library', { selector: '.small' });
    expect(screen.getByRole('list').textContent).not.toMatch(/med_/);
    expect(screen.getByRole('button', { name: 'Remove A file no longer in the library' })).toBeTruthy();
  });

  it("says a picked file's state in words, not the contract's status code", async () => {
    const media = { id: 'med_1', status: 'processing', kind: 'video', filename: 'teaser.mp4', thumbnailUrl: null };
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(media), { status: 200 }));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MediaPicker value={['med_1']} onChange={() => {}} />
      </QueryClientProvider>,
    );
    await screen.findByText('teaser.mp4 · being processed', { selector: '.small' });
    expect(screen.getByRole('list').textContent).not.toMatch(/processing/);
  });
});
