// Approvals: the new posts and the changes to scheduled posts that wait for an owner's or administrator's decision,
// one card each, decided on the card. Only this signed-in page can decide.
import { useState } from 'react';
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
  const [done, setDone] = useState<string>();
  const posts = list.data?.posts ?? [];
  if (list.isPending) return <Loading />;
  return (
    <section className="stack">
      <PageHeader title={W.title} />
      <ErrorNote error={list.error} />
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
        <ul className="stack approvals">
          {posts.map((post) => (
            <ApprovalCard key={post.id} post={post} onDecided={setDone} />
          ))}
        </ul>
      )}
    </section>
  );
}
