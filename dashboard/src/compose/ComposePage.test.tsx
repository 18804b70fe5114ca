// @vitest-environment happy-dom
// Compose against a server stub: the accounts offered say a status in words, never the contract's code; and an edit
// the person saves is never reported to them as someone else's change, whenever the post's new version arrives.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postKeys } from '../queries/posts.ts';
import { renderSignedIn } from '../testing/signedInPage.tsx';
import { ComposePage } from './ComposePage.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

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
  return renderSignedIn(
    <>
      <Route path="/compose" element={<ComposePage />} />
      <Route path="/posts/:postId" element={<p>The post page</p>} />
    </>,
    at,
  );
}

describe('compose', () => {
  it("says an account's status in words, not the contract's code", async () => {
    server();
    renderCompose();
    await screen.findByText('Acme Threads');
    const picks = [...document.querySelectorAll('.account-pick .muted')].map((p) => p.textContent);
    expect(picks).toEqual(['Bluesky', 'Threads · signed out', 'Facebook · disconnected']);
  });

  it("never reports the person's own save as someone else's change", async () => {
    const saved = { at: '', release: () => {} };
    const version = (updatedAt: string, text: string) => ({
      id: 'pst_1',
      batchId: 'bat_1',
      accountId: 'acc_1',
      platform: 'bluesky',
      status: 'draft',
      statusLine: 'Draft. Bluesky · Acme Bluesky · no time set.',
      publishAt: null,
      text,
      title: null,
      tags: [],
      mediaIds: [],
      perPlatform: {},
      createdVia: 'dashboard',
      createdAt: '2026-11-20T09:00:00.000Z',
      updatedAt,
    });
    const plan = {
      ok: true,
      status: 'draft',
      awaitingApproval: false,
      table: '',
      quota: { used: 0, limit: 20, requested: 1 },
      rows: [{ accountId: 'acc_1', platform: 'bluesky', publishAt: null, ok: true, issues: [], settings: {} }],
    };
    let gets = 0;
    server((request, path) => {
      if (path === '/v1/posts/plan') return Promise.resolve(json(plan));
      if (path !== '/v1/posts/pst_1') return undefined;
      if (request.method === 'GET') {
        gets++;
        // Once the save has reached the server, the post is the saved version.
        return Promise.resolve(
          json(saved.at ? version(saved.at, 'Autumn menu, new') : version('2026-11-20T09:00:00.000Z', 'Autumn menu')),
        );
      }
      saved.at = '2026-11-20T09:30:00.000Z';
      return new Promise<Response>((answer) => {
        saved.release = () => answer(json(version(saved.at, 'Autumn menu, new')));
      });
    });
    const client = renderCompose('/compose?edit=pst_1');
    const warned: string[] = [];
    const watch = new MutationObserver(() => {
      if (document.body.textContent?.includes('Someone changed this post')) warned.push('shown');
    });
    watch.observe(document.body, { subtree: true, childList: true, characterData: true });

    fireEvent.change(await screen.findByLabelText('Text'), { target: { value: 'Autumn menu, new' } });
    const save = await screen.findByRole('button', { name: 'Save changes' });
    await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(false), { timeout: 3000 });
    fireEvent.click(save);
    await waitFor(() => expect(saved.at).not.toBe(''));
    // The event stream says the post changed (this very save) while its answer is still on the way.
    const before = gets;
    await client.invalidateQueries({ queryKey: postKeys.one('pst_1') });
    expect(gets).toBeGreaterThan(before);
    await new Promise((settle) => setTimeout(settle, 50));
    expect(screen.queryByText(/Someone changed this post/)).toBeNull();

    saved.release();
    await screen.findByText('The post page');
    watch.disconnect();
    expect(warned).toEqual([]);
  });
});
