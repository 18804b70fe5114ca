// Retry, cancel, reschedule and delete, each behind a confirm step that says what will happen; edit and
// duplicate open compose filled with the post.
import { useQueryClient } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { needsApproval } from '../../../domain/approvals.ts';
import { formatInZone } from '../../../domain/when.ts';
import { api, call, Failure, type Post } from '../api.ts';
import { dayTimeText, timeText } from '../format.ts';
import { useSignedIn } from '../session.tsx';
import { ASK_WORDS } from '../words/approvalWords.ts';
import { postKeys } from '../queries/posts.ts';
import { WhenInput } from '../compose/WhenInput.tsx';
import { startingWhen, whenOf, type WhenForm } from '../compose/when.ts';
import { Button, Confirm } from '../ui.tsx';

export function useRefreshPosts() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: postKeys.all });
}

export function reschedule(postId: string, when: { publishAt: string; timezone: string } | 'now') {
  return call(api.PATCH('/posts/{postId}', { params: { path: { postId } }, body: { when, confirm: true } }));
}

type Timing = ReturnType<typeof whenOf>;

/** The instant a reschedule form names ("at" a valid time), for the confirm button's words; undefined for "now". */
export function targetOf(timing: Timing, zone: string): DateTime | undefined {
  return 'when' in timing && typeof timing.when === 'object'
    ? DateTime.fromISO(timing.when.publishAt, { zone })
    : undefined;
}

/** What a reschedule form sends, or the form's own problem as the refusal the dialog shows. */
export function chosenWhen(timing: Timing): { publishAt: string; timezone: string } | 'now' {
  if ('when' in timing && timing.when !== 'draft' && timing.when !== 'queue') return timing.when;
  throw new Failure(
    'time_missing',
    'problem' in timing ? timing.problem : 'Pick a time.',
    'Fill in the date and time above.',
  );
}

/** The time a reschedule moves to: a date and time in the zone, or now, with the form's problem shown. */
export function RescheduleTime({
  value,
  zone,
  onChange,
}: {
  value: WhenForm;
  zone: string;
  onChange: (when: WhenForm) => void;
}) {
  const timing = whenOf(value, zone);
  return (
    <WhenInput
      value={value}
      modes={['at', 'now']}
      zone={zone}
      problem={'problem' in timing ? timing.problem : undefined}
      onChange={onChange}
    />
  );
}

export function PostActions({ post, zone }: { post: Post; zone: string }) {
  const refresh = useRefreshPosts();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [when, setWhen] = useState<WhenForm>(() => startingWhen(post.publishAt, zone));
  // A post moved meanwhile (the calendar, another tab) starts the next reschedule at its new time.
  useEffect(() => setWhen(startingWhen(post.publishAt, zone)), [post.publishAt, zone]);
  const path = { params: { path: { postId: post.id } }, body: { confirm: true } };
  const timing = whenOf(when, zone);
  const target = targetOf(timing, zone);
  // A change to a scheduled post by one whose changes need approval waits beside it: the dialog asks, and says so.
  const asks = needsApproval(useSignedIn(), 'dashboard') && post.status === 'queued';
  const moveWords = (time: string) =>
    asks ? ASK_WORDS.moveAction(time) : `${post.status === 'draft' ? 'Schedule for' : 'Move to'} ${time}`;
  return (
    <div className="actions wrap">
      {post.status === 'failed' && (
        <Confirm
          trigger={<Button tone="primary">Retry</Button>}
          title="Retry this post now?"
          action="Retry now"
          description={<p>Herald sends it to the network again now.</p>}
          onConfirm={async () => {
            await call(api.POST('/posts/{postId}/retry', path));
            await refresh();
          }}
        />
      )}
      {(post.status === 'queued' || post.status === 'draft') && (
        <Confirm
          trigger={<Button>{post.status === 'draft' ? 'Schedule' : 'Reschedule'}</Button>}
          title={
            post.status === 'draft'
              ? 'Schedule this draft'
              : asks
                ? target
                  ? ASK_WORDS.moveTitle
                  : ASK_WORDS.publishTitle
                : 'Reschedule this post'
          }
          action={target ? moveWords(formatInZone(target, zone)) : asks ? ASK_WORDS.publishAction : 'Publish now'}
          description={
            <>
              {post.publishAt && <p>Now set for {timeText(post.publishAt, zone)}.</p>}
              <RescheduleTime value={when} zone={zone} onChange={setWhen} />
              {asks && post.publishAt && <p>{ASK_WORDS.stays(dayTimeText(post.publishAt, zone))}</p>}
            </>
          }
          onConfirm={async () => {
            await reschedule(post.id, chosenWhen(timing));
            await refresh();
          }}
        />
      )}
      {post.status !== 'live' && (
        <Link className="btn btn-secondary" to={`/compose?edit=${post.id}`}>
          Edit
        </Link>
      )}
      <Link className="btn btn-ghost" to={`/compose?from=${post.id}`}>
        Duplicate
      </Link>
      {(post.status === 'draft' || post.status === 'failed') && (
        <Confirm
          trigger={<Button tone="ghost">Delete</Button>}
          title="Delete this post?"
          tone="danger"
          action="Delete for good"
          description={
            <p>
              The post and its timeline are removed and cannot come back. This month's count of posts does not change.
            </p>
          }
          onConfirm={async () => {
            await call(
              api.DELETE('/posts/{postId}', { params: { path: { postId: post.id }, query: { confirm: true } } }),
            );
            navigate('/posts');
            client.removeQueries({ queryKey: postKeys.one(post.id) });
            await refresh();
          }}
        />
      )}
      {post.status === 'queued' && (
        <Confirm
          trigger={<Button tone="ghost">Cancel post</Button>}
          title="Cancel this post?"
          tone="danger"
          action="Cancel to draft"
          description={
            <p>It becomes a draft again and will not be published; its place in this month's count is given back.</p>
          }
          onConfirm={async () => {
            await call(api.POST('/posts/{postId}/cancel', path));
            await refresh();
          }}
        />
      )}
    </div>
  );
}
