// @vitest-environment happy-dom
// Rescheduling a post starts at the time it is set for, so a small move is a small change, not a new time typed.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DateTime } from 'luxon';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Post } from '../api.ts';
import { SESSION_KEY } from '../session.tsx';
import { PostActions } from './postActions.tsx';

afterEach(cleanup);

type Shown = Pick<Post, 'id' | 'status' | 'publishAt'>;

/** Signed in as the owner of a workspace whose changes need no approval. */
function signedIn() {
  const client = new QueryClient();
  const workspace = { tz: 'Asia/Tokyo', approvalRequiredFor: [] };
  client.setQueryData(SESSION_KEY, { role: 'owner', user: {}, workspace, csrfToken: '' });
  return client;
}

const actions = (post: Shown) => (
  <QueryClientProvider client={signedIn()}>
    <MemoryRouter>
      <PostActions post={post as Post} zone="Asia/Tokyo" />
    </MemoryRouter>
  </QueryClientProvider>
);

/** Shows the actions for `post` (then for `movedTo`, as a refetch would), opens Reschedule and reads its time. */
async function open(post: Shown, movedTo?: Shown) {
  const { rerender } = render(actions(post));
  if (movedTo) rerender(actions(movedTo));
  fireEvent.click(screen.getByRole('button', { name: /^(Reschedule|Schedule)$/ }));
  // The dialog's frame loads with the first dialog that opens.
  const value = async (label: string) => ((await screen.findByLabelText(label)) as HTMLInputElement).value;
  return { date: await value('Date'), time: await value('Time') };
}

describe('reschedule', async () => {
  it("starts at the post's own time, in the workspace zone", async () => {
    const at = DateTime.now()
      .plus({ days: 3 })
      .set({ hour: 7, minute: 40 })
      .setZone('Asia/Tokyo', { keepLocalTime: true });
    expect(await open({ id: 'pst_1', status: 'queued', publishAt: at.toUTC().toISO() })).toEqual({
      date: at.toISODate(),
      time: '07:40',
    });
  });

  it('starts at the new time of a post moved while its page was open', async () => {
    const at = (hour: number) => DateTime.now().plus({ days: 2 }).setZone('Asia/Tokyo').set({ hour, minute: 5 });
    const post = { id: 'pst_3', status: 'queued', publishAt: at(9).toUTC().toISO() } as const;
    expect((await open(post, { ...post, publishAt: at(18).toUTC().toISO() })).time).toBe('18:05');
  });

  it('starts at the next quarter hour when the post has no time ahead', async () => {
    const { time } = await open({ id: 'pst_2', status: 'draft', publishAt: null });
    expect(time).toMatch(/:(00|15|30|45)$/);
  });
});
