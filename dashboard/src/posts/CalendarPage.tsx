// The calendar of posts in the workspace zone: a month, a week or a list (the list first on a phone), filtered by
// group, account, network and status. The view, its date and the filters live in the address, so a link or a
// reload keeps them. A card opens its post, or the posts made together as a group. A queued card can be dragged to
// another day or hour: a move into the past is refused at once, any other is confirmed once, then all its posts
// move in one request, all or none. Loaded on demand, like before.
import { useQuery } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatInZone } from '../../../domain/when.ts';
import { api, call, type Platform } from '../api.ts';
import { dayTimeText, timeText } from '../format.ts';
import { labelOf, NETWORKS } from '../networks.ts';
import { useAccounts } from '../queries/accounts.ts';
import { useGroups } from '../queries/groups.ts';
import { calendarQuery } from '../queries/posts.ts';
import { useSignedIn } from '../session.tsx';
import { Button, ConfirmDialog, ErrorNote, PageHeader } from '../ui.tsx';
import { type PostStatus, STATUS_WORDS } from '../words/statusWords.ts';
import {
  byDay,
  type CalendarCard,
  type CalendarFilter,
  type CalendarView,
  cardsOf,
  matches,
  movesOf,
  stepped,
  viewDays,
} from './calendarCards.ts';
import { useAddressFilters } from './addressFilters.ts';
import { AgendaView, type CardContext, GroupDialog, MonthView, WeekView } from './CalendarViews.tsx';
import { moveProblem } from './moveCheck.ts';
import { useRefreshPosts } from './postActions.tsx';
import { useThumbnails } from './thumbnails.ts';
import { canDrag } from '../pointer.ts';

const VIEWS: { view: CalendarView; label: string }[] = [
  { view: 'month', label: 'Month' },
  { view: 'week', label: 'Week' },
  { view: 'list', label: 'List' },
];
const FILTERS = ['group', 'account', 'network', 'status'] as const;
const PHONE = '(max-width: 640px)';
const NO_CARDS = new Map<string, CalendarCard[]>();

/** One filter: "All …" (no value), or one of `options` ([value, words]). */
function FilterSelect(props: {
  label: string;
  all: string;
  value: string;
  options: [string, string][];
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{props.all}</option>
        {props.options.map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
    </label>
  );
}

interface Move {
  card: CalendarCard;
  to: DateTime;
}

export default function CalendarPage() {
  const { workspace } = useSignedIn();
  const zone = workspace.tz;
  const refresh = useRefreshPosts();
  const accounts = useAccounts();
  const groups = useGroups();
  const [params, setParams] = useSearchParams();
  const [moving, setMoving] = useState<Move>();
  const [moveRefused, setMoveRefused] = useState<string>();
  const [openGroup, setOpenGroup] = useState<{ card: CalendarCard; opener: HTMLElement }>();
  const dragged = useRef<CalendarCard>(undefined);

  const now = DateTime.now().setZone(zone);
  const view = (VIEWS.find((v) => v.view === params.get('view'))?.view ??
    (window.matchMedia(PHONE).matches ? 'list' : 'month')) as CalendarView;
  const asked = params.get('date') ? DateTime.fromISO(params.get('date')!, { zone }) : undefined;
  const date = asked?.isValid ? asked : now.startOf('day');
  const days = viewDays(view, date);
  const from = days[0]!.toUTC().toISO()!;
  const to = days.at(-1)!.plus({ days: 1 }).toUTC().toISO()!;
  const posts = useQuery(calendarQuery({ from, to }));

  // From the address as it is now: react-router hands a functional update the params of the last render, so two
  // changes in quick succession (a group, then a status) would lose the first.
  const change = (next: Record<string, string | undefined>) => {
    const out = new URLSearchParams(window.location.search);
    for (const [k, v] of Object.entries(next)) v ? out.set(k, v) : out.delete(k);
    setParams(out, { replace: true });
  };
  // A value that names nothing in this workspace is dropped once its list has loaded (addressFilters.ts).
  const chosen = useAddressFilters(FILTERS, (f, value) => {
    if (f === 'group') return groups.data && groups.data.some((g) => g.id === value);
    if (f === 'account') return accounts.data && accounts.data.some((a) => a.id === value);
    if (f === 'network') return NETWORKS.some((n) => n.platform === value);
    return Object.hasOwn(STATUS_WORDS, value);
  });
  const filter: CalendarFilter = {
    accountIds: chosen.group ? (groups.data?.find((g) => g.id === chosen.group)?.accountIds ?? []) : undefined,
    accountId: chosen.account || undefined,
    network: (chosen.network || undefined) as Platform | undefined,
    status: (chosen.status || undefined) as PostStatus | undefined,
  };
  const filterKey = JSON.stringify(filter);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter is compared by its content (filterKey).
  const shown = useMemo(() => (posts.data ?? []).filter((p) => matches(p, filter)), [posts.data, filterKey]);
  const cardsByDay = useMemo(() => byDay(cardsOf(shown, zone)), [shown, zone]);
  // The cards render in the background, in slices that leave the page responsive (a busy month is a few thousand
  // elements); until they have, the calendar says it is busy.
  const drawn = useDeferredValue(cardsByDay, NO_CARDS);
  const thumbs = useThumbnails(useMemo(() => shown.flatMap((p) => p.mediaIds.slice(0, 1)), [shown]));

  const names = accounts.data;
  // The accounts list holds the connected ones: a post's account missing from it was disconnected since.
  const nameOf = useCallback(
    (id: string) => names?.find((a) => a.id === id)?.displayName ?? (names ? 'a disconnected account' : 'an account'),
    [names],
  );
  const ctx: CardContext = useMemo(
    () => ({
      nameOf,
      thumbs,
      onOpenGroup: setOpenGroup,
      onDragStart: (card) => {
        dragged.current = card;
      },
      onDrop: (day, hour) => {
        const card = dragged.current;
        dragged.current = undefined;
        if (!card) return;
        const was = DateTime.fromISO(card.publishAt, { zone });
        const target = DateTime.fromISO(day, { zone }).set({ hour: hour ?? was.hour, minute: was.minute });
        if (target.equals(was)) return;
        const problem = moveProblem(target, zone);
        setMoveRefused(problem);
        if (!problem) setMoving({ card, to: target });
      },
    }),
    [nameOf, thumbs, zone],
  );

  const groupAccounts = filter.accountIds;
  const accountChoices = (accounts.data ?? []).filter((a) => !groupAccounts || groupAccounts.includes(a.id));
  const networks = NETWORKS.filter((n) => accounts.data?.some((a) => a.platform === n.platform));
  const filtered = FILTERS.some((f) => chosen[f]);
  const total = posts.data?.filter((p) => p.publishAt).length ?? 0;
  const count = shown.filter((p) => p.publishAt).length;
  const title =
    view === 'week'
      ? `${days[0]!.setLocale('en-GB').toFormat('d LLL')} – ${days[6]!.setLocale('en-GB').toFormat('d LLL yyyy')}`
      : date.setLocale('en-GB').toFormat('LLLL yyyy');
  const moved = moving && (moving.card.posts.length === 1 ? 'this post' : `these ${moving.card.posts.length} posts`);
  const movingTitle = moving && `Move ${moved} to ${dayTimeText(moving.to.toUTC().toISO()!, zone)}?`;
  const viewProps = { days, cardsByDay: drawn, ctx, today: now.toISODate()! };

  return (
    <>
      <PageHeader title="Calendar">
        <Link className="btn btn-primary" to="/compose">
          New post
        </Link>
      </PageHeader>
      <p className="muted">
        Times in {zone}.{' '}
        {view !== 'list' && canDrag()
          ? 'Drag a scheduled post to move it; open any post for its details.'
          : 'Open any post for its details, or to move it.'}
      </p>
      <form className="cal-filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect
          label="Group"
          all="All groups"
          value={chosen.group}
          options={(groups.data ?? []).map((g) => [g.id, g.name])}
          onChange={(group) => change({ group, account: undefined })}
        />
        <FilterSelect
          label="Account"
          all="All accounts"
          value={chosen.account}
          options={accountChoices.map((a) => [a.id, `${labelOf(a.platform)} · ${a.displayName}`])}
          onChange={(account) => change({ account })}
        />
        <FilterSelect
          label="Network"
          all="All networks"
          value={chosen.network}
          options={networks.map((n) => [n.platform, n.label])}
          onChange={(network) => change({ network })}
        />
        <FilterSelect
          label="Status"
          all="All statuses"
          value={chosen.status}
          options={Object.entries(STATUS_WORDS)}
          onChange={(status) => change({ status })}
        />
        {filtered && (
          <Button tone="ghost" onClick={() => change(Object.fromEntries(FILTERS.map((f) => [f, undefined])))}>
            Clear filters
          </Button>
        )}
      </form>
      {posts.isError && <ErrorNote error={posts.error} />}
      {moveRefused && <ErrorNote error={new Error(moveRefused)} />}
      <div className="card calendar-card" aria-busy={posts.isFetching || drawn !== cardsByDay}>
        <div className="cal-toolbar">
          <div className="cal-nav">
            <Button onClick={() => change({ date: stepped(view, date, -1).toISODate()! })}>Previous</Button>
            <Button onClick={() => change({ date: undefined })}>Today</Button>
            <Button onClick={() => change({ date: stepped(view, date, 1).toISODate()! })}>Next</Button>
          </div>
          <h2 className="cal-title" aria-live="polite">
            {title}
          </h2>
          <fieldset className="cal-views">
            <legend className="sr-only">View</legend>
            {VIEWS.map((v) => (
              <Button
                key={v.view}
                aria-pressed={v.view === view}
                tone={v.view === view ? 'primary' : 'secondary'}
                onClick={() => change({ view: v.view })}
              >
                {v.label}
              </Button>
            ))}
          </fieldset>
        </div>
        <p className="muted small" role="status">
          {posts.isPending
            ? 'Loading posts…'
            : filtered
              ? `${count} of ${total} posts match the filters.`
              : `${total === 1 ? '1 post' : `${total} posts`} in these dates.`}
        </p>
        {posts.data && count === 0 && (
          <p className="note note-quiet">
            {filtered ? (
              'No post in these dates matches the filters.'
            ) : (
              <>
                Nothing planned in these dates. <Link to="/compose">Write a post</Link> and it shows up here.
              </>
            )}
          </p>
        )}
        {view === 'month' && <MonthView {...viewProps} month={date.month} />}
        {view === 'week' && <WeekView {...viewProps} />}
        {view === 'list' && <AgendaView {...viewProps} />}
      </div>
      {openGroup && <GroupDialog {...openGroup} ctx={ctx} onClose={() => setOpenGroup(undefined)} />}
      {moving && movingTitle && (
        <ConfirmDialog
          open
          title={movingTitle}
          action={`Move to ${formatInZone(moving.to, zone)}`}
          description={
            <p>
              {moving.card.posts.length === 1 ? 'The post to ' : 'The posts to '}
              {moving.card.posts.map((p) => `${nameOf(p.accountId)} on ${labelOf(p.platform)}`).join(', ')}
              {moving.card.posts.length === 1 ? ' moves' : ' move together'} from{' '}
              {timeText(moving.card.publishAt, zone)} to {timeText(moving.to.toUTC().toISO()!, zone)}
              {moving.card.posts.length === 1 ? '.' : ', all of them or none.'}
            </p>
          }
          onOpenChange={(open) => {
            if (!open) setMoving(undefined);
          }}
          onConfirm={async () => {
            const moves = movesOf(moving.card, moving.to.toUTC().toISO()!);
            await call(api.POST('/posts/reschedule', { body: { moves, confirm: true } }));
            setMoving(undefined);
            await refresh();
          }}
        />
      )}
    </>
  );
}
