// The list of posts, searched and filtered (status, account, dates in the workspace zone; all kept in the address),
// paged, with the posts of one create call shown together, and bulk cancel, reschedule and delete of a selection.
import { useInfiniteQuery } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Post, PostQuery, Schemas } from '../api.ts';
import { labelOf } from '../networks.ts';
import { useAccounts } from '../queries/accounts.ts';
import { postSearchQuery } from '../queries/posts.ts';
import { useSignedIn } from '../session.tsx';
import { Button, Empty, ErrorNote, FailureText, Loading, PageHeader } from '../ui.tsx';
import { bulkLeftAlone, bulkSummary, postHeading } from '../words/postWords.ts';
import { STATUS_WORDS } from '../words/statusWords.ts';
import { useAddressFilters } from './addressFilters.ts';
import { batchLabel, groupByBatch } from './batches.ts';
import { BulkActions, type BulkOutcome } from './BulkActions.tsx';
import { PostRow } from './PostRow.tsx';

const SEARCH_SETTLE_MS = 300;
/** The filters that name something of the workspace, checked against it. */
const NAMED_FILTERS = ['status', 'account'] as const;

/** The search box: typed words go into the address once typing pauses; a change of address (back) shows in it. */
function SearchField({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [typed, setTyped] = useState(value);
  const sent = useRef(value);
  const search = useRef(onSearch);
  search.current = onSearch;
  useEffect(() => {
    if (value !== sent.current) setTyped(value);
    sent.current = value;
  }, [value]);
  useEffect(() => {
    const q = typed.trim().slice(0, 200);
    if (q === sent.current) return;
    const t = setTimeout(() => {
      sent.current = q;
      search.current(q);
    }, SEARCH_SETTLE_MS);
    return () => clearTimeout(t);
  }, [typed]);
  return (
    <label className="search">
      Search
      <input
        type="search"
        value={typed}
        placeholder="Words in the text or title"
        onChange={(e) => setTyped(e.target.value)}
      />
    </label>
  );
}

/** A group's checkbox: on when all its posts are selected, mixed when some are. */
function GroupCheckbox({
  posts,
  selected,
  onSelect,
}: {
  posts: Post[];
  selected: Set<string>;
  onSelect: (on: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const on = posts.filter((p) => selected.has(p.id)).length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = on > 0 && on < posts.length;
  }, [on, posts.length]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="post-select"
      checked={on === posts.length}
      onChange={(e) => onSelect(e.target.checked)}
      aria-label={`Select the ${posts.length} posts of ${postHeading(posts[0]!)}`}
    />
  );
}

function Outcome({
  outcome,
  accountName,
  onDismiss,
}: {
  outcome: BulkOutcome;
  accountName: (p: Post) => string | undefined;
  onDismiss: () => void;
}) {
  const left = bulkLeftAlone(outcome.action, outcome.skipped, 'was');
  return (
    <div className={`note ${outcome.failures.length ? 'note-error' : 'note-ok'} bulk-outcome`} role="status">
      <p className="note-title">
        {bulkSummary(outcome.action, { done: outcome.done, failed: outcome.failures.length })}
      </p>
      {outcome.failures.length > 0 && (
        <ul>
          {outcome.failures.map(({ post, words }) => (
            <li key={post.id}>
              <Link to={`/posts/${post.id}`}>{postHeading(post)}</Link> (
              {[labelOf(post.platform), accountName(post)].filter(Boolean).join(', ')}): <FailureText words={words} />
            </li>
          ))}
        </ul>
      )}
      {left && <p>{left}</p>}
      <Button tone="ghost" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}

export function PostsPage() {
  const { workspace } = useSignedIn();
  const zone = workspace.tz;
  const accounts = useAccounts();
  const [params, setParams] = useSearchParams();
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [outcome, setOutcome] = useState<BulkOutcome>();
  // An account (or status) that names nothing in this workspace is dropped once its list has loaded
  // (addressFilters.ts): the address outlives a workspace switch.
  const named = useAddressFilters(NAMED_FILTERS, (f, value) =>
    f === 'account' ? accounts.data && accounts.data.some((a) => a.id === value) : Object.hasOwn(STATUS_WORDS, value),
  );
  const filter = {
    q: params.get('q') ?? '',
    status: named.status,
    accountId: named.account,
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
  const set = (name: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const query: PostQuery = {
    ...(filter.q ? { q: filter.q } : {}),
    ...(filter.status ? { status: filter.status as Schemas['PostStatus'] } : {}),
    ...(filter.accountId ? { accountId: filter.accountId } : {}),
    // Dates are days in the workspace zone; `to` includes its whole day.
    ...(filter.from ? { from: DateTime.fromISO(filter.from, { zone }).toUTC().toISO()! } : {}),
    ...(filter.to ? { to: DateTime.fromISO(filter.to, { zone }).plus({ days: 1 }).toUTC().toISO()! } : {}),
    limit: 25,
  };
  const posts = useInfiniteQuery(postSearchQuery(query));
  const all = posts.data?.pages.flatMap((p) => p.posts) ?? [];
  const chosen = all.filter((p) => selected.has(p.id));
  const names = new Map(accounts.data?.map((a) => [a.id, a.displayName]));
  // An account the list of accounts no longer holds was disconnected; none is named before that list loads.
  const accountName = (p: Post) => names.get(p.accountId) ?? (accounts.data ? 'a disconnected account' : undefined);
  const select = (ids: string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) on ? next.add(id) : next.delete(id);
      return next;
    });
  const row = (p: Post) => (
    <PostRow
      key={p.id}
      post={p}
      accountName={accountName(p)}
      zone={zone}
      selected={selected.has(p.id)}
      onSelect={(on) => select([p.id], on)}
    />
  );
  return (
    <>
      <PageHeader title="Posts">
        <Link className="btn btn-primary" to="/compose">
          New post
        </Link>
      </PageHeader>
      <form className="filters card" onSubmit={(e) => e.preventDefault()} aria-label="Find posts">
        <SearchField value={filter.q} onSearch={(q) => set('q', q)} />
        <label>
          Status
          <select value={filter.status} onChange={(e) => set('status', e.target.value)}>
            <option value="">All</option>
            {Object.entries(STATUS_WORDS).map(([status, words]) => (
              <option key={status} value={status}>
                {words}
              </option>
            ))}
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
      {outcome && <Outcome outcome={outcome} accountName={accountName} onDismiss={() => setOutcome(undefined)} />}
      {chosen.length > 0 && (
        <BulkActions
          posts={chosen}
          zone={zone}
          onClear={() => setSelected(new Set())}
          onOutcome={(o) => {
            setOutcome(o);
            setSelected(new Set());
          }}
        />
      )}
      <section className="card" aria-label="Posts">
        {posts.isPending ? (
          <Loading label="Loading posts" />
        ) : posts.isError ? (
          <ErrorNote error={posts.error} />
        ) : all.length === 0 ? (
          <Empty title="No posts match">
            {params.size ? (
              'Change the search or the filters above.'
            ) : (
              <>
                Write your first one in <Link to="/compose">Compose</Link>.
              </>
            )}
          </Empty>
        ) : (
          <ul className="post-groups">
            {groupByBatch(all).map((group) =>
              group.length === 1 ? (
                <li key={group[0]!.batchId}>
                  <ul className="rows">{row(group[0]!)}</ul>
                </li>
              ) : (
                <li key={group[0]!.batchId} className="post-group">
                  <div className="group-head">
                    <GroupCheckbox
                      posts={group}
                      selected={selected}
                      onSelect={(on) =>
                        select(
                          group.map((p) => p.id),
                          on,
                        )
                      }
                    />
                    <span className="muted small">{batchLabel(group.length, posts.hasNextPage)}</span>
                  </div>
                  <ul className="rows">{group.map(row)}</ul>
                </li>
              ),
            )}
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
