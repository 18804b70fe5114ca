// @vitest-environment happy-dom
// The error note speaks the dashboard's words: an ended session offers signing in again and coming back, and a
// file that posts still use is refused by naming those posts, never by ids.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, Failure, type Post } from './api.ts';
import { groupInUse, namedInUse } from './media/inUse.ts';
import { ErrorNote } from './ui.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('error note', () => {
  it('asks to sign in again when the session ended, and comes back to this page', () => {
    window.history.replaceState({}, '', '/app/compose?from=calendar');
    const ended = new Failure('unauthenticated', 'Send Authorization: Bearer <API_KEY>', 'or sign in again', 401);
    render(<ErrorNote error={ended} />);
    expect(screen.getByRole('alert').textContent).toContain('Your session ended: sign in again.');
    expect(screen.getByRole('alert').textContent).not.toMatch(/Bearer|API_KEY/);
    expect(screen.getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toBe(
      `/app/sign-in?next=${encodeURIComponent('/compose?from=calendar')}`,
    );
  });

  it('names the file and the posts that still use it', async () => {
    const draft = {
      id: 'pst_9Lm3Bv6Kd1',
      accountId: 'acc_1',
      platform: 'instagram',
      status: 'draft',
      title: null,
      createdAt: '2026-11-21T09:04:12.511Z',
    } as const;
    const post = { ...draft, text: 'Autumn sale: 30% off everything until Sunday, in the shop and online.' };
    vi.spyOn(api, 'GET').mockResolvedValue({ data: post as unknown as Post, response: new Response('{}') } as never);
    const refusal = new Failure(
      'media_in_use',
      'The file is used by a post.',
      'Cancel or reschedule those posts.',
      409,
      { posts: [{ id: 'pst_9Lm3Bv6Kd1' }] },
    );
    render(<ErrorNote error={await namedInUse(refusal, 'beach.jpg', [{ id: 'acc_1', displayName: 'Acme Shop' }])} />);
    const note = screen.getByRole('alert').textContent ?? '';
    expect(note).toContain('beach.jpg is used by 1 post that is a draft or queued.');
    expect(note).toContain('Acme Shop (Instagram) · 1 post');
    expect(
      screen.getByRole('link', { name: '“Autumn sale: 30% off everything until…” (Instagram, draft)' }),
    ).toBeTruthy();
    expect(note).not.toMatch(/\b(med|pst)_/);
  });

  it('groups many posts that hold a file by account, newest first, each group with its count', () => {
    const post = (n: number, accountId: string, platform: 'instagram' | 'facebook') =>
      ({
        id: `pst_${n}`,
        accountId,
        platform,
        status: 'queued',
        title: null,
        text: `Post ${n}`,
        createdAt: `2026-11-${String(n).padStart(2, '0')}T09:00:00.000Z`,
      }) as unknown as Post;
    const posts = [post(3, 'acc_ig', 'instagram'), post(9, 'acc_fb', 'facebook'), post(5, 'acc_ig', 'instagram')];
    posts.push(post(7, 'acc_gone', 'facebook'));
    const groups = groupInUse(posts, [
      { id: 'acc_ig', displayName: 'Acme Shop' },
      { id: 'acc_fb', displayName: 'Acme Café' },
    ]);
    expect(groups.map((g) => [g.account, g.posts.map((p) => p.href)])).toEqual([
      ['Acme Café (Facebook)', ['/app/posts/pst_9']],
      ['Facebook', ['/app/posts/pst_7']],
      ['Acme Shop (Instagram)', ['/app/posts/pst_5', '/app/posts/pst_3']],
    ]);
    const refusal = new Failure('media_in_use', '', '', 409, { file: 'beach.jpg', groups });
    render(<ErrorNote error={refusal} />);
    expect(screen.getByRole('alert').textContent).toContain(
      'beach.jpg is used by 4 posts that are drafts or queued on 3 accounts.',
    );
    expect(screen.getByText('Acme Shop (Instagram) · 2 posts')).toBeTruthy();
  });
});
