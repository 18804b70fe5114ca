// Approvals: the new posts and the changes to scheduled posts that wait for an owner's or administrator's decision,
// one card each, decided on the card. Only this signed-in page can decide.
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { approvalListQuery } from '../queries/approvals.ts';
import { useSignedIn } from '../session.tsx';
import { atLeast } from '../settings/settingsApi.ts';
import { AdminsOnly, Empty, ErrorNote, Loading, PageHeader } from '../ui.tsx';
import { APPROVAL_WORDS as W } from '../words/approvalWords.ts';
import { ApprovalCard } from './ApprovalCard.tsx';

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
  const list = useQuery(approvalListQuery());
  // What the last decision did; each decision anew, so a second one alike is said again.
  const [done, setDone] = useState<{ words: string }>();
  // The decided card leaves the list with the button that had focus: focus goes to what was done.
  const said = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (done) said.current?.focus();
  }, [done]);
  const posts = list.data?.posts ?? [];
  if (list.isPending) return <Loading />;
  return (
    <section className="stack">
      <PageHeader title={W.title} />
      <ErrorNote error={list.error} />
      {/* Rendered from the start, so that screen readers hear it change. */}
      <p ref={said} tabIndex={-1} className={done ? 'note note-ok' : 'sr-only'} role="status">
        {done?.words}
      </p>
      {posts.length === 0 ? (
        <Empty title={W.empty}>
          <p className="muted">{W.emptyHint}</p>
        </Empty>
      ) : (
        <ul className="stack approvals">
          {posts.map((post) => (
            <ApprovalCard key={post.id} post={post} onDecided={(words) => setDone({ words })} />
          ))}
        </ul>
      )}
    </section>
  );
}
