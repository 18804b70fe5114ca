// A tab left open 10 minutes on a busy calendar, on the injected clock: how many requests the events cost it.
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { affected, type LiveEvent, liveEventHandler } from './liveUpdates.ts';
import { approvalKeys } from './queries/approvals.ts';
import { postKeys } from './queries/posts.ts';

const MINUTE = 60_000;

describe('live updates on a busy calendar', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The calendar of a 300-post month as CalendarPage reads it: 100 posts a request, so 3 requests a fetch. */
  function calendar(client: QueryClient, requests: { n: number }) {
    const month = Array.from({ length: 300 }, (_, i) => ({
      id: `pst_${i}`,
      status: 'queued',
      publishAt: new Date(Date.UTC(2026, 10, 1 + (i % 30), 9)).toISOString(),
    }));
    const observer = new QueryObserver(client, {
      queryKey: postKeys.calendar({ from: '2026-11-01', to: '2026-12-01' }),
      queryFn: async () => {
        requests.n += 3;
        return month.map((p) => ({ ...p }));
      },
      staleTime: 30_000,
    });
    const unsubscribe = observer.subscribe(() => {});
    /** The server's side: a post goes live there, then its events arrive. */
    const goLive = (id: string) => {
      month.find((p) => p.id === id)!.status = 'live';
    };
    return { observer, unsubscribe, goLive };
  }

  it('fetches fewer than 30 times in 10 minutes while a post goes live every 20 s and a colleague adds 5', async () => {
    const client = new QueryClient();
    const requests = { n: 0 };
    const { observer, unsubscribe, goLive } = calendar(client, requests);
    await vi.advanceTimersByTimeAsync(0);
    const first = requests.n;
    const live = liveEventHandler(client, () => Date.now());
    for (let second = 1; second <= 600; second++) {
      if (second % 20 === 0) {
        const id = `pst_${second / 20}`;
        goLive(id);
        const publishing: LiveEvent = {
          type: 'post.publishing',
          objectId: id,
          post: { status: 'queued', publishAt: null },
        };
        live.handle(publishing);
        live.handle({ type: 'post.live', objectId: id, post: { status: 'live', publishAt: null } });
      }
      if (second % 120 === 0)
        live.handle({
          type: 'post.created',
          objectId: `pst_new${second}`,
          post: { status: 'queued', publishAt: null },
        });
      await vi.advanceTimersByTimeAsync(1000);
    }
    await vi.advanceTimersByTimeAsync(MINUTE);
    const during = requests.n - first;
    console.log(`10 minutes of a busy 300-post calendar: ${during} requests after the first load (${first})`);
    expect(during).toBeLessThan(30);
    // Posts that went live show as live without any fetch of theirs.
    const shown = observer.getCurrentResult().data ?? [];
    expect(shown.filter((p) => p.status === 'live').map((p) => p.id)).toEqual(
      Array.from({ length: 30 }, (_, i) => `pst_${i + 1}`),
    );
    live.stop();
    unsubscribe();
  });

  it('fetches lists at once for a first change, then at most once per 30 s, never losing the last', async () => {
    const client = new QueryClient();
    const requests = { n: 0 };
    const { unsubscribe } = calendar(client, requests);
    await vi.advanceTimersByTimeAsync(0);
    const live = liveEventHandler(client, () => Date.now());
    const created = (n: number) => live.handle({ type: 'post.created', objectId: `pst_c${n}` });
    created(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(requests.n).toBe(6);
    for (let n = 2; n < 10; n++) created(n);
    await vi.advanceTimersByTimeAsync(29_000);
    expect(requests.n).toBe(6);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(requests.n).toBe(9);
    live.stop();
    unsubscribe();
  });
});

describe('what an event makes stale', () => {
  it('fetches the approvals list again at once when a post asks for approval or is decided', () => {
    for (const type of ['post.approval_requested', 'post.approved', 'post.rejected'])
      expect(affected({ type, objectId: 'pst_1' }).own).toContainEqual(approvalKeys.all);
    expect(affected({ type: 'post.live', objectId: 'pst_1' }).own).not.toContainEqual(approvalKeys.all);
  });

  it('fetches the approvals list again when a post starts publishing only if the list shows that post', async () => {
    const client = new QueryClient();
    let fetches = 0;
    const observer = new QueryObserver(client, {
      queryKey: approvalKeys.all,
      queryFn: async () => {
        fetches++;
        return { posts: [{ id: 'pst_waiting' }] };
      },
      staleTime: Number.POSITIVE_INFINITY,
    });
    const unsubscribe = observer.subscribe(() => {});
    const asking = () => client.getQueryState(approvalKeys.all)?.fetchStatus;
    await vi.waitFor(() => expect(asking()).toBe('idle'));
    expect(fetches).toBe(1);
    const live = liveEventHandler(client, () => 0);
    const publishing = (objectId: string) =>
      live.handle({ type: 'post.publishing', objectId, post: { status: 'publishing', publishAt: null } });
    publishing('pst_other');
    expect(asking()).toBe('idle');
    publishing('pst_waiting');
    expect(asking()).toBe('fetching');
    await vi.waitFor(() => expect(fetches).toBe(2));
    live.stop();
    unsubscribe();
  });

  it("fetches an account's queue again when its post changes, also where a calendar showed the change", async () => {
    const client = new QueryClient();
    // The calendar, visited earlier, still holds the post: its new state is put there without a request.
    client.setQueryData(postKeys.calendar({ from: '2026-11-01', to: '2026-12-01' }), [
      { id: 'pst_1', status: 'queued', publishAt: '2026-11-24T13:30:00.000Z' },
    ]);
    let fetches = 0;
    const queue = new QueryObserver(client, {
      queryKey: postKeys.queue('acc_1'),
      queryFn: async () => {
        fetches++;
        return [{ id: 'pst_1', status: 'queued' }];
      },
      staleTime: Number.POSITIVE_INFINITY,
    });
    const unsubscribe = queue.subscribe(() => {});
    await vi.waitFor(() => expect(client.getQueryState(postKeys.queue('acc_1'))?.fetchStatus).toBe('idle'));
    expect(fetches).toBe(1);
    const live = liveEventHandler(client, () => 0);
    live.handle({
      type: 'post.live',
      objectId: 'pst_1',
      post: { status: 'live', publishAt: '2026-11-24T13:30:00.000Z' },
    });
    await vi.waitFor(() => expect(fetches).toBe(2));
    live.stop();
    unsubscribe();
  });
});
