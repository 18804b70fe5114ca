// Approvals: the posts that wait for an owner's or administrator's decision, with their text and network,
// approved or rejected one by one or together. Only this signed-in page can decide (server/approvalRoutes.ts).
import { useState } from 'react';
import { DateTime } from 'luxon';
import { useMutation, useQuery } from '@tanstack/react-query';
import { auth } from '../api.ts';
import { labelOf } from '../networks.ts';
import { approvalKeys, approvalListQuery } from '../queries/approvals.ts';
import { postKeys } from '../queries/posts.ts';
import { useRefresh } from '../queries/refresh.ts';
import { useSignedIn } from '../session.tsx';
import { atLeast } from '../settings/settingsApi.ts';
import { AdminsOnly, Button, Empty, ErrorNote, Loading, PageHeader } from '../ui.tsx';
import { APPROVAL_WORDS as W, approvalTime } from '../words/approvalWords.ts';

export function ApprovalsPage() {
  const { role } = useSignedIn();
  if (!atLeast(role, 'administrator'))
    return (
      <section>
        <PageHeader title={W.title} />
        <AdminsOnly what="approve posts" />
      </section>
    );
  return <ApprovalList />;
}

function ApprovalList() {
  const { workspace } = useSignedIn();
  const refresh = useRefresh();
  const list = useQuery(approvalListQuery());
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [comment, setComment] = useState('');
  const [times, setTimes] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string>();
  const posts = list.data?.posts ?? [];
  const chosen = posts.filter((p) => selected.has(p.id));

  const decide = async (how: 'approve' | 'reject') => {
    for (const post of chosen) {
      // An approval names the post as shown here: one edited since is refused, never approved unseen.
      const body =
        how === 'reject'
          ? comment.trim()
            ? { comment: comment.trim() }
            : {}
          : { ...timeOf(post.id), updatedAt: post.updatedAt };
      await auth('POST', `/approvals/${post.id}/${how}`, body);
    }
    setDone(how === 'approve' ? W.approved(chosen.length) : W.rejected(chosen.length));
    setSelected(new Set());
    setComment('');
    await refresh(approvalKeys.all, postKeys.all);
  };
  // The picked time is read in the workspace zone, as every time in the dashboard.
  const timeOf = (id: string) =>
    times[id] ? { publishAt: DateTime.fromISO(times[id], { zone: workspace.tz }).toUTC().toISO() } : {};
  const approve = useMutation({ mutationFn: () => decide('approve') });
  const reject = useMutation({ mutationFn: () => decide('reject') });

  if (list.isPending) return <Loading />;
  return (
    <section className="stack">
      <PageHeader title={W.title} />
      <ErrorNote error={list.error ?? approve.error ?? reject.error} />
      {done && (
        <p className="note note-ok" role="status">
          {done}
        </p>
      )}
      {posts.length === 0 ? (
        <Empty title={W.empty}>
          <p className="muted">{W.emptyHint}</p>
        </Empty>
      ) : (
        <>
          <ul className="stack approvals">
            {posts.map((post) => (
              <li key={post.id} className="card stack">
                <label className="check">
                  <input
                    type="checkbox"
                    checked={selected.has(post.id)}
                    onChange={(e) => {
                      const next = new Set(selected);
                      if (e.target.checked) next.add(post.id);
                      else next.delete(post.id);
                      setSelected(next);
                    }}
                    aria-label={W.select(`${labelOf(post.platform)} · ${post.statusLine.split(' · ')[1] ?? ''}`)}
                  />
                  <strong>{labelOf(post.platform)}</strong>
                </label>
                <p className="post-text">{post.text}</p>
                <p className="muted">
                  {W.asked(
                    post.approval?.requestedBy ?? '',
                    approvalTime(post.approval?.requestedAt ?? null, workspace.tz) ?? '',
                  )}{' '}
                  {W.wanted(approvalTime(post.approval?.wantedAt ?? null, workspace.tz))}
                </p>
                {post.approval?.wantedAt && Date.parse(post.approval.wantedAt) < Date.now() + 120_000 && (
                  <div className="field">
                    <label htmlFor={`time-${post.id}`}>{W.newTime}</label>
                    <input
                      id={`time-${post.id}`}
                      type="datetime-local"
                      value={times[post.id] ?? ''}
                      onChange={(e) => setTimes({ ...times, [post.id]: e.target.value })}
                    />
                  </div>
                )}
              </li>
            ))}
          </ul>
          <div className="field">
            <label htmlFor="approval-comment">{W.comment}</label>
            <textarea id="approval-comment" value={comment} onChange={(e) => setComment(e.target.value)} rows={2} />
          </div>
          <div className="row">
            <Button tone="primary" disabled={!chosen.length} busy={approve.isPending} onClick={() => approve.mutate()}>
              {W.approveSelected(chosen.length)}
            </Button>
            <Button tone="danger" disabled={!chosen.length} busy={reject.isPending} onClick={() => reject.mutate()}>
              {W.rejectSelected(chosen.length)}
            </Button>
          </div>
        </>
      )}
    </section>
  );
}
