// The calendar of posts (month and week) in the workspace zone, with FullCalendar and its luxon zone
// plugin. A queued post can be dragged to another time: a confirm says where to, then it is rescheduled
// (or put back). Loaded on demand: it is the heaviest page.
import type { DatesSetArg, EventClickArg, EventDropArg, EventInput } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import luxonPlugin from '@fullcalendar/luxon3';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { useQuery } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, call, type Post } from '../api.ts';
import { useAccounts } from '../accounts/AccountsPage.tsx';
import { formatInZone } from '../../../domain/when.ts';
import { timeText } from '../format.ts';
import { labelOf } from '../networks.ts';
import { useSignedIn } from '../session.tsx';
import { ConfirmDialog, ErrorNote, PageHeader } from '../ui.tsx';
import { moveProblem } from './moveCheck.ts';
import { reschedule, useRefreshPosts } from './postActions.tsx';

/** Every post with a time in [from, to), all pages. */
async function postsBetween(from: string, to: string): Promise<Post[]> {
  const out: Post[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(
      api.GET('/posts', { params: { query: { from, to, limit: 100, ...(cursor ? { cursor } : {}) } } }),
    );
    out.push(...page.posts);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

interface Move {
  post: Post;
  to: DateTime;
  revert: () => void;
}

export default function CalendarPage() {
  const { workspace } = useSignedIn();
  const zone = workspace.tz;
  const navigate = useNavigate();
  const refresh = useRefreshPosts();
  const accounts = useAccounts();
  const [range, setRange] = useState<{ from: string; to: string }>();
  const [moving, setMoving] = useState<Move>();
  const [moveRefused, setMoveRefused] = useState<string>();

  const posts = useQuery({
    queryKey: ['posts', 'calendar', range],
    queryFn: () => postsBetween(range!.from, range!.to),
    enabled: Boolean(range),
    placeholderData: (previous) => previous,
  });
  const nameOf = (id: string) => accounts.data?.find((a) => a.id === id)?.displayName ?? id;
  const events: EventInput[] = (posts.data ?? [])
    .filter((p) => p.publishAt)
    .map((p) => ({
      id: p.id,
      title: `${labelOf(p.platform)} · ${nameOf(p.accountId)}`,
      start: p.publishAt!,
      url: `/app/posts/${p.id}`,
      classNames: [`cal-${p.status}`],
      startEditable: p.status === 'queued',
      extendedProps: { post: p },
    }));

  const onDates = (arg: DatesSetArg) => {
    const next = { from: arg.start.toISOString(), to: arg.end.toISOString() };
    if (next.from !== range?.from || next.to !== range?.to) setRange(next);
  };
  const onClick = (arg: EventClickArg) => {
    arg.jsEvent.preventDefault();
    navigate(`/posts/${arg.event.id}`);
  };
  const onDrop = (arg: EventDropArg) => {
    const post = arg.event.extendedProps.post as Post;
    const to = DateTime.fromJSDate(arg.event.start!, { zone });
    const problem = moveProblem(to, zone);
    setMoveRefused(problem);
    if (problem) return arg.revert();
    setMoving({ post, to, revert: arg.revert });
  };

  return (
    <>
      <PageHeader title="Calendar">
        <Link className="btn btn-primary" to="/compose">
          New post
        </Link>
      </PageHeader>
      <p className="muted">Times in {zone}. Drag a queued post to move it; open any post for its details.</p>
      {posts.isError && <ErrorNote error={posts.error} />}
      {moveRefused && <ErrorNote error={new Error(moveRefused)} />}
      {posts.data?.length === 0 && (
        <p className="note note-quiet">
          Nothing planned in these dates. <Link to="/compose">Write a post</Link> and it shows up here.
        </p>
      )}
      <div className="card calendar-card" aria-busy={posts.isFetching}>
        <FullCalendar
          plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin, luxonPlugin]}
          timeZone={zone}
          initialView="dayGridMonth"
          headerToolbar={{ left: 'prev,next today', center: 'title', right: 'dayGridMonth,timeGridWeek' }}
          buttonIcons={false}
          buttonText={{ prev: 'Previous', next: 'Next', today: 'Today', month: 'Month', week: 'Week' }}
          firstDay={1}
          height="auto"
          dayMaxEvents={4}
          eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
          slotLabelFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
          events={events}
          eventDurationEditable={false}
          datesSet={onDates}
          eventClick={onClick}
          eventDrop={onDrop}
        />
      </div>
      {moving && (
        <ConfirmDialog
          open
          title="Move this post?"
          action={`Move to ${formatInZone(moving.to, zone)}`}
          description={
            <p>
              The post to {nameOf(moving.post.accountId)} on {labelOf(moving.post.platform)} moves from{' '}
              {timeText(moving.post.publishAt!, zone)} to {timeText(moving.to.toUTC().toISO()!, zone)}.
            </p>
          }
          onOpenChange={(open) => {
            if (open) return;
            moving.revert();
            setMoving(undefined);
          }}
          onConfirm={async () => {
            await reschedule(moving.post.id, { publishAt: moving.to.toFormat("yyyy-LL-dd'T'HH:mm"), timezone: zone });
            setMoving(undefined);
            await refresh();
          }}
        />
      )}
    </>
  );
}
