// The list of posts, filtered by status, account and date range (in the workspace zone), paged.
import { useInfiniteQuery } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import { Link, useSearchParams } from 'react-router';
import { api, call, type PostQuery, type Schemas } from '../api.ts';
import { useAccounts } from '../accounts/AccountsPage.tsx';
import { labelOf } from '../networks.ts';
import { NetworkMark } from '../NetworkMark.tsx';
import { useSignedIn } from '../session.tsx';
import { Button, Empty, ErrorNote, Loading, PageHeader, StatusBadge } from '../ui.tsx';

export function PostsPage() {
  const { workspace } = useSignedIn();
  const zone = workspace.tz;
  const accounts = useAccounts();
  const [params, setParams] = useSearchParams();
  const filter = {
    status: params.get('status') ?? '',
    accountId: params.get('account') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const query: PostQuery = {
    ...(filter.status ? { status: filter.status as Schemas['PostStatus'] } : {}),
    ...(filter.accountId ? { accountId: filter.accountId } : {}),
    // Dates are days in the workspace zone; `to` includes its whole day.
    ...(filter.from ? { from: DateTime.fromISO(filter.from, { zone }).toUTC().toISO()! } : {}),
    ...(filter.to ? { to: DateTime.fromISO(filter.to, { zone }).plus({ days: 1 }).toUTC().toISO()! } : {}),
    limit: 25,
  };
  const posts = useInfiniteQuery({
    queryKey: ['posts', 'list', query],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(api.GET('/posts', { params: { query: { ...query, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const all = posts.data?.pages.flatMap((p) => p.posts) ?? [];
  return (
    <>
      <PageHeader title="Posts">
        <Link className="btn btn-primary" to="/compose">
          New post
        </Link>
      </PageHeader>
      <form className="filters card" onSubmit={(e) => e.preventDefault()} aria-label="Filter posts">
        <label>
          Status
          <select value={filter.status} onChange={(e) => set('status', e.target.value)}>
            <option value="">All</option>
            <option value="draft">Draft</option>
            <option value="queued">Queued</option>
            <option value="live">Live</option>
            <option value="failed">Failed</option>
          </select>
        </label>
        <label>
          Account
          <select value={filter.accountId} onChange={(e) => set('account', e.target.value)}>
            <option value="">All</option>
            {accounts.data?.map((a) => (
              <option key={a.id} value={a.id}>
                {a.displayName} ({labelOf(a.platform)})
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={filter.from} onChange={(e) => set('from', e.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={filter.to} onChange={(e) => set('to', e.target.value)} />
        </label>
      </form>
      <section className="card" aria-label="Posts">
        {posts.isPending ? (
          <Loading label="Loading posts" />
        ) : posts.isError ? (
          <ErrorNote error={posts.error} />
        ) : all.length === 0 ? (
          <Empty title="No posts match">
            {params.size ? (
              'Change the filters above.'
            ) : (
              <>
                Write your first one in <Link to="/compose">Compose</Link>.
              </>
            )}
          </Empty>
        ) : (
          <ul className="rows">
            {all.map((p) => (
              <li key={p.id} className="row">
                <NetworkMark platform={p.platform} />
                <StatusBadge status={p.status} />
                <div className="row-main">
                  <p className="row-title">
                    <Link to={`/posts/${p.id}`}>{p.title || p.text.slice(0, 80) || '(no text)'}</Link>
                  </p>
                  <p className="muted small">{p.statusLine}</p>
                </div>
              </li>
            ))}
          </ul>
        )}
        {posts.hasNextPage && (
          <Button onClick={() => posts.fetchNextPage()} busy={posts.isFetchingNextPage}>
            Load more
          </Button>
        )}
      </section>
    </>
  );
}
