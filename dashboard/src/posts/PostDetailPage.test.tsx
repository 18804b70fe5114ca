// @vitest-environment happy-dom
// A post's page says its state in the dashboard's words (never the server's statusLine, which for a failed post
// carries the API's error message), and why a failed post failed in the network's own words, quoted from the
// error's networkMessage.
import { cleanup, render, screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../testing/signedInPage.tsx';
import { PostDetailPage, WhyItFailed } from './PostDetailPage.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('why a post failed', () => {
  it('quotes the network’s own words from the post’s error', () => {
    const error = {
      code: 'threads_rejected',
      message: 'Threads answered: "The text is too long for a post."',
      hint: 'Change the post to meet Threads’s rules, then retry it.',
      networkMessage: 'The text is too long for a post.',
    };
    render(<WhyItFailed error={error} />);
    const note = screen.getByRole('alert');
    expect(note.querySelector('blockquote')?.textContent).toBe('The text is too long for a post.');
    expect(note.textContent).toContain('Why it failed');
    expect(note.textContent).not.toContain('threads_rejected');
  });
});

const apiMessage = 'instagram refused the post: (#36003) The aspect ratio is not supported.';
const failed = {
  id: 'pst_1',
  batchId: 'bat_1',
  accountId: 'acc_1',
  platform: 'instagram',
  status: 'failed',
  publishAt: '2030-11-24T13:30:00.000Z',
  text: 'Autumn sale',
  title: null,
  mediaIds: [],
  media: [],
  tags: [],
  perPlatform: {},
  statusLine: `Failed. Instagram · Acme Shop · 24 November, 14:30 (CET): ${apiMessage}`,
  error: { code: 'instagram_token_rejected', message: apiMessage, hint: 'Reconnect the account.' },
  createdVia: 'dashboard',
};

/** The post's server: its account, the post, and its timeline. */
function server(post: Record<string, unknown>, counters: Record<string, unknown> = {}) {
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
  vi.stubGlobal('fetch', async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === '/v1/accounts')
      return json({ accounts: [{ id: 'acc_1', platform: 'instagram', displayName: 'Acme Shop', status: 'ok' }] });
    if (path === '/v1/posts/pst_1') return json(post);
    if (path === '/v1/posts/pst_1/events') return json({ events: [] });
    if (path === '/v1/posts/pst_1/analytics') return json({ postId: 'pst_1', platform: post.platform, ...counters });
    return new Promise<Response>(() => {});
  });
}

function renderPage() {
  renderSignedIn(<Route path="/posts/:postId" element={<PostDetailPage />} />, '/posts/pst_1');
}

describe("a post's page", () => {
  it("says a failed post's state in words and why it failed from its error code, not the API's message", async () => {
    server(failed);
    renderPage();
    const status = await screen.findByText(/^Failed · Instagram · Acme Shop · /);
    expect(status.textContent).toBe('Failed · Instagram · Acme Shop · Sun 24 Nov 2030 at 14:30 CET');
    expect(screen.getByRole('alert').textContent).toContain('Instagram no longer accepts this account’s sign-in.');
    expect(document.body.textContent).not.toContain(apiMessage);
    expect(document.body.textContent).not.toMatch(/Failed\.|\(CET\)|instagram_/);
  });

  it("says a scheduled post's state in words", async () => {
    server({ ...failed, status: 'queued', error: undefined, statusLine: 'Queued. Instagram · Acme Shop · 24 Nov.' });
    renderPage();
    await screen.findByText('Scheduled · Instagram · Acme Shop · Sun 24 Nov 2030 at 14:30 CET');
    expect(document.body.textContent).not.toContain('Queued.');
  });

  it("names a live post's counters in words, and leaves out one it has no words for", async () => {
    const live = { ...failed, platform: 'facebook', status: 'live', error: undefined, statusLine: 'Live.' };
    const metrics = { post_media_view: 1843, post_clicks: 4, post_reactions_by_type_total: 12, video_thruplay: 90 };
    server(live, { fetchedAt: '2030-11-25T08:00:14.530Z', metrics });
    renderPage();
    const counters = await screen.findByRole('region', { name: 'Counters' });
    await screen.findByText('Clicks');
    const terms = [...counters.querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(terms).toEqual(['Views', 'Clicks', 'Reactions']);
    expect(counters.textContent).toContain('Facebook gave 1 more counter that Herald has no words for yet.');
    expect(counters.textContent).not.toMatch(/post |media view|thruplay|_/);
  });
});
