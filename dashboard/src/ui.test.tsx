// @vitest-environment happy-dom
// The error note speaks the dashboard's words: an ended session offers signing in again and coming back, and a
// file that posts still use is refused by naming those posts, never by ids.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, Failure, type Post } from './api.ts';
import { namedInUse } from './media/inUse.ts';
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
    const draft = { id: 'pst_9Lm3Bv6Kd1', platform: 'instagram', status: 'draft', title: null } as const;
    const post = { ...draft, text: 'Autumn sale: 30% off everything until Sunday, in the shop and online.' };
    vi.spyOn(api, 'GET').mockResolvedValue({ data: post as unknown as Post, response: new Response('{}') } as never);
    const refusal = new Failure(
      'media_in_use',
      'File med_8Rk3Tz6Nv1 is used by 1 post that is draft or queued (pst_9Lm3Bv6Kd1).',
      'Cancel or reschedule those posts.',
      409,
    );
    render(<ErrorNote error={await namedInUse(refusal, 'beach.jpg')} />);
    const note = screen.getByRole('alert').textContent ?? '';
    expect(note).toContain('beach.jpg is used by 1 post that is a draft or queued.');
    expect(
      screen.getByRole('link', { name: '“Autumn sale: 30% off everything until…” (Instagram, draft)' }),
    ).toBeTruthy();
    expect(note).not.toMatch(/\b(med|pst)_/);
  });
});
