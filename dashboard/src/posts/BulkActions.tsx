// Cancel, reschedule or delete the selected posts, each behind one confirm step, one post after another through
// the same operations (and so the same checks) as a single post's actions; then a summary of what happened.
import { useState } from 'react';
import { formatInZone } from '../../../domain/when.ts';
import { api, call, Failure, type Post } from '../api.ts';
import { startingWhen, whenOf, type WhenForm } from '../compose/when.ts';
import { Button, ConfirmDialog } from '../ui.tsx';
import { BULK_APPLIES, bulkLeftAlone, type BulkAction } from '../words/postWords.ts';
import { failureWords, type Words } from '../words/words.ts';
import { chosenWhen, RescheduleTime, reschedule, targetOf, useRefreshPosts } from './postActions.tsx';

export interface BulkOutcome {
  action: BulkAction;
  done: number;
  failures: { post: Post; words: Words }[];
  skipped: number;
}

async function perform(action: BulkAction, post: Post, when: ReturnType<typeof chosenWhen> | undefined) {
  const path = { params: { path: { postId: post.id } } };
  if (action === 'reschedule') return reschedule(post.id, when!);
  // A scheduled post is cancelled before it is deleted, as the API asks.
  if (action === 'cancel' || post.status === 'queued')
    await call(api.POST('/posts/{postId}/cancel', { ...path, body: { confirm: true } }));
  if (action === 'delete')
    await call(api.DELETE('/posts/{postId}', { params: { ...path.params, query: { confirm: true } } }));
}

/** Runs `action` on each post it applies to, one after another; a refusal is kept and the others go on. */
export async function runBulk(
  action: BulkAction,
  posts: Post[],
  when?: ReturnType<typeof chosenWhen>,
): Promise<BulkOutcome> {
  const applies = posts.filter((p) => BULK_APPLIES[action].includes(p.status));
  const outcome: BulkOutcome = { action, done: 0, failures: [], skipped: posts.length - applies.length };
  for (const post of applies) {
    try {
      await perform(action, post, when);
      outcome.done += 1;
    } catch (err) {
      const words = err instanceof Failure ? failureWords(err) : { title: String(err) };
      outcome.failures.push({ post, words });
    }
  }
  return outcome;
}

const postsText = (n: number) => (n === 1 ? '1 post' : `${n} posts`);

export function BulkActions({
  posts,
  zone,
  onClear,
  onOutcome,
}: {
  posts: Post[];
  zone: string;
  onClear: () => void;
  onOutcome: (outcome: BulkOutcome) => void;
}) {
  const refresh = useRefreshPosts();
  const [open, setOpen] = useState<BulkAction>();
  const [when, setWhen] = useState<WhenForm>(() => startingWhen(null, zone));
  const count = (action: BulkAction) => posts.filter((p) => BULK_APPLIES[action].includes(p.status)).length;
  const timing = whenOf(when, zone);
  const target = targetOf(timing, zone);
  const start = (action: BulkAction) => {
    // Rescheduling starts at the earliest selected post's time, as a single reschedule starts at its post's.
    const times = posts.flatMap((p) => (p.publishAt ? [p.publishAt] : [])).sort();
    if (action === 'reschedule') setWhen(startingWhen(times[0] ?? null, zone));
    setOpen(action);
  };
  const run = async (action: BulkAction) => {
    const outcome = await runBulk(action, posts, action === 'reschedule' ? chosenWhen(timing) : undefined);
    setOpen(undefined);
    onOutcome(outcome);
    await refresh();
  };
  const n = open ? count(open) : 0;
  const leftAlone = open ? bulkLeftAlone(open, posts.length - n, 'is') : '';
  const dialogs: Record<BulkAction, { title: string; action: string; body: string }> = {
    cancel: {
      title: `Cancel ${postsText(n)}?`,
      action: `Cancel ${postsText(n)}`,
      body: 'They become drafts and will not be published; their places in this month’s count are given back.',
    },
    reschedule: {
      title: `Reschedule ${postsText(n)}`,
      action: target ? `Move to ${formatInZone(target, zone)}` : 'Publish now',
      body: 'Each is checked for its network at the new time, as a single reschedule is; drafts become scheduled.',
    },
    delete: {
      title: `Delete ${postsText(n)}?`,
      action: `Delete ${postsText(n)} for good`,
      body:
        'They and their timelines are removed and cannot come back. Scheduled ones are cancelled first, which ' +
        'gives their places in this month’s count back.',
    },
  };
  const shown = open && dialogs[open];
  return (
    <section className="bulk-bar card" aria-label="Selected posts">
      <p className="bulk-count" aria-live="polite">
        <strong>{postsText(posts.length)} selected</strong>
      </p>
      <div className="actions wrap">
        <Button onClick={() => start('reschedule')} disabled={!count('reschedule')}>
          Reschedule
        </Button>
        <Button tone="ghost" onClick={() => start('cancel')} disabled={!count('cancel')}>
          Cancel posts
        </Button>
        <Button tone="ghost" onClick={() => start('delete')} disabled={!count('delete')}>
          Delete
        </Button>
        <Button tone="ghost" onClick={onClear}>
          Clear selection
        </Button>
      </div>
      {shown && (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && setOpen(undefined)}
          title={shown.title}
          action={shown.action}
          tone={open === 'reschedule' ? 'primary' : 'danger'}
          description={
            <>
              <p>{shown.body}</p>
              {leftAlone && <p>{leftAlone}</p>}
              {open === 'reschedule' && <RescheduleTime value={when} zone={zone} onChange={setWhen} />}
            </>
          }
          onConfirm={() => run(open)}
        />
      )}
    </section>
  );
}
