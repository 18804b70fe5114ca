// One post waiting for a decision, as the approver needs to see it: the network and account, who asked and when, the
// time asked for, the files, the post as its network will show it, and for a change to a scheduled post what changes
// (the text word by word, files added or removed, the time moved). Approved or rejected from the card itself.
import { useId, useState } from 'react';
import { DateTime } from 'luxon';
import { useMutation } from '@tanstack/react-query';
import { authApi, call, type Post } from '../api.ts';
import { NetworkMark } from '../NetworkMark.tsx';
import { labelOf } from '../networks.ts';
import { NetworkPreview, PREVIEWED, previewOfPost } from '../previews/NetworkPreview.tsx';
import { useAccounts } from '../queries/accounts.ts';
import { approvalKeys } from '../queries/approvals.ts';
import { useMediaItems } from '../queries/media.ts';
import { postKeys } from '../queries/posts.ts';
import { useRefresh } from '../queries/refresh.ts';
import { useSignedIn } from '../session.tsx';
import { Button, ErrorNote } from '../ui.tsx';
import { APPROVAL_WORDS as W, approvalTime } from '../words/approvalWords.ts';
import { filesDiff, textDiff, type TextPiece } from './changeDiff.ts';

type Change = NonNullable<Post['pendingChange']>;

/** The post as it will be once approved: a waiting change's content applied. */
function proposed(post: Post): Post {
  const { requestedBy: _by, requestedAt: _at, publishAt: _time, ...content } = post.pendingChange ?? {};
  return { ...post, ...content };
}

/** The time a decision is about: a change's (null: now; the post's own when it keeps it), or the one wanted. */
function wantedTime(post: Post): string | null {
  const change = post.pendingChange;
  if (!change) return post.approval?.wantedAt ?? null;
  return 'publishAt' in change ? (change.publishAt ?? null) : post.publishAt;
}

function TimeAsked({ post, zone }: { post: Post; zone: string }) {
  const change = post.pendingChange;
  const at = (iso: string) => approvalTime(iso, zone)!;
  if (!change) return <>{W.wanted(approvalTime(post.approval?.wantedAt ?? null, zone))}</>;
  if (!('publishAt' in change)) return <>{W.keepsTime(at(post.publishAt!))}</>;
  if (change.publishAt === null || change.publishAt === undefined) return <>{W.asksNow(at(post.publishAt!))}</>;
  return <>{W.asksMove(at(post.publishAt!), at(change.publishAt))}</>;
}

function fileNames(files: ReturnType<typeof useMediaItems>, ids: string[]) {
  return ids.map((id) => files.find((f) => f?.id === id)?.filename ?? 'a file').join(', ');
}

/** Pieces keyed by where they start in the text they come from (the old one for kept and removed words). */
function keyed(pieces: TextPiece[]) {
  const at = { old: 0, new: 0 };
  return pieces.map((piece) => {
    const key = `${piece.kind}-${piece.kind === 'added' ? at.new : at.old}`;
    if (piece.kind !== 'added') at.old += piece.text.length;
    if (piece.kind !== 'removed') at.new += piece.text.length;
    return { ...piece, key };
  });
}

/** What a waiting change does, field by field; the preview beside it shows the result. */
function WhatChanges({ post, change }: { post: Post; change: Change }) {
  const files = filesDiff(post.mediaIds, change.mediaIds ?? post.mediaIds);
  const loaded = useMediaItems([...files.added, ...files.removed]);
  return (
    <div className="stack approval-change">
      <h3>{W.whatChanges}</h3>
      {change.text !== undefined && (
        <div>
          <p className="small muted">{W.textChange}</p>
          <p className="post-text diff">
            {keyed(textDiff(post.text, change.text)).map(({ key, kind, text }) =>
              kind === 'same' ? (
                <span key={key}>{text}</span>
              ) : kind === 'removed' ? (
                <del key={key}>
                  <span className="sr-only">{W.removedText}: </span>
                  {text}
                </del>
              ) : (
                <ins key={key}>
                  <span className="sr-only">{W.addedText}: </span>
                  {text}
                </ins>
              ),
            )}
          </p>
        </div>
      )}
      {change.title !== undefined && <p>{W.titleChange(post.title ?? '', change.title ?? '')}</p>}
      {change.tags !== undefined && <p>{W.tagsChange(change.tags.join(', '))}</p>}
      {files.added.length > 0 && <p>{W.filesAdded(fileNames(loaded, files.added))}</p>}
      {files.removed.length > 0 && <p>{W.filesRemoved(fileNames(loaded, files.removed))}</p>}
      {change.perPlatform !== undefined && <p>{W.settingsChange(labelOf(post.platform))}</p>}
    </div>
  );
}

export function ApprovalCard({ post, onDecided }: { post: Post; onDecided: (outcome: string) => void }) {
  const { workspace } = useSignedIn();
  const zone = workspace.tz;
  const refresh = useRefresh();
  const heading = useId();
  const accounts = useAccounts();
  const account = accounts.data?.find((a) => a.id === post.accountId)?.displayName ?? labelOf(post.platform);
  const after = proposed(post);
  const files = useMediaItems(after.mediaIds);
  const change = post.pendingChange;
  const asked = change ?? post.approval;
  const wanted = wantedTime(post);
  const passed = wanted !== null && Date.parse(wanted) < Date.now() + 120_000;
  const [time, setTime] = useState('');
  const [comment, setComment] = useState('');
  const decide = (how: 'approve' | 'reject') => async () => {
    // An approval names the post as shown here: one changed since is refused, never approved unseen. The picked
    // time is read in the workspace zone, as every time in the dashboard; one luxon cannot read goes as '', which
    // the server refuses.
    const picked = time ? { publishAt: DateTime.fromISO(time, { zone }).toUTC().toISO() ?? '' } : {};
    const path = { params: { path: { postId: post.id } } };
    await call(
      how === 'approve'
        ? authApi.POST('/approvals/{postId}/approve', { ...path, body: { ...picked, updatedAt: post.updatedAt } })
        : authApi.POST('/approvals/{postId}/reject', {
            ...path,
            body: comment.trim() ? { comment: comment.trim() } : {},
          }),
    );
    onDecided(
      how === 'approve' ? (change ? W.changeApproved : W.approved(1)) : change ? W.changeRejected : W.rejected(1),
    );
    await refresh(approvalKeys.all, postKeys.all);
  };
  const approve = useMutation({ mutationFn: decide('approve') });
  const reject = useMutation({ mutationFn: decide('reject') });
  return (
    <li className="card stack" aria-labelledby={heading}>
      <div className="row approval-head">
        <h2 id={heading} className="row">
          <NetworkMark platform={post.platform} decorative />
          {labelOf(post.platform)} · {account}
        </h2>
        <span className="badge badge-words">{change ? W.changeOf : W.newPost}</span>
      </div>
      <p>
        {W.asked(
          `${asked?.requestedBy ?? ''}${change ? '' : W.via[post.createdVia]}`,
          approvalTime(asked?.requestedAt ?? null, zone) ?? '',
        )}{' '}
        <TimeAsked post={post} zone={zone} />
      </p>
      <div className="detail">
        <div className="stack">
          {change && <WhatChanges post={post} change={change} />}
          {!change && !PREVIEWED.includes(post.platform) && <p className="post-text">{post.text}</p>}
          <p className="muted">{after.mediaIds.length ? W.files(fileNames(files, after.mediaIds)) : W.noFiles}</p>
          {passed && (
            <div className="field">
              <label htmlFor={`${heading}-time`}>{W.newTime}</label>
              <input
                id={`${heading}-time`}
                type="datetime-local"
                value={time}
                onChange={(e) => setTime(e.target.value)}
              />
            </div>
          )}
          <div className="field">
            <label htmlFor={`${heading}-comment`}>{W.comment}</label>
            <textarea id={`${heading}-comment`} value={comment} onChange={(e) => setComment(e.target.value)} rows={2} />
          </div>
          <ErrorNote error={approve.error ?? reject.error} />
          <div className="row">
            <Button tone="primary" busy={approve.isPending} onClick={() => approve.mutate()} aria-describedby={heading}>
              {W.approve}
            </Button>
            <Button tone="danger" busy={reject.isPending} onClick={() => reject.mutate()} aria-describedby={heading}>
              {W.reject}
            </Button>
          </div>
        </div>
        {PREVIEWED.includes(post.platform) && (
          <section aria-label={W.previewAfter}>
            <NetworkPreview
              post={previewOfPost(after, account, wanted ? approvalTime(wanted, zone)! : W.wanted(null))}
            />
          </section>
        )}
      </div>
    </li>
  );
}
