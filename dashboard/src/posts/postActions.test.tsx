// @vitest-environment happy-dom
// Rescheduling a post starts at the time it is set for, so a small move is a small change, not a new time typed.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DateTime } from 'luxon';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Post } from '../api.ts';
import { PostActions } from './postActions.tsx';

afterEach(cleanup);

function open(post: Pick<Post, 'id' | 'status' | 'publishAt'>) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <PostActions post={post as Post} zone="Asia/Tokyo" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: /^(Reschedule|Schedule)$/ }));
  const value = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;
  return { date: value('Date'), time: value('Time') };
}

describe('reschedule', () => {
  it("starts at the post's own time, in the workspace zone", () => {
    const at = DateTime.now()
      .plus({ days: 3 })
      .set({ hour: 7, minute: 40 })
      .setZone('Asia/Tokyo', { keepLocalTime: true });
    expect(open({ id: 'pst_1', status: 'queued', publishAt: at.toUTC().toISO() })).toEqual({
      date: at.toISODate(),
      time: '07:40',
    });
  });

  it('starts at the next quarter hour when the post has no time ahead', () => {
    const { time } = open({ id: 'pst_2', status: 'draft', publishAt: null });
    expect(time).toMatch(/:(00|15|30|45)$/);
  });
});
