// Compose filled from an existing post: to edit it (saved through PATCH /posts/{postId}) or to duplicate
// it (a new post). Pure: the page loads the post, these decide the form and the edit's body.
import type { PlanResponse, Platform, Post, Schemas } from '../api.ts';
import type { ComposeForm } from './composeForm.ts';
import type { Settings } from './NetworkSettings.tsx';
import { defaultWhen, type WhenForm, type WhenMode, whenAt } from './when.ts';

/**
 * The times an edit may give: a draft may stay one or join the queue; a queued post moves; a failed one is sent by
 * retry. (A queued post is moved in the queue on its account's queue page, where its own time shows.)
 */
export function editModes(post: Pick<Post, 'status'>): WhenMode[] {
  if (post.status === 'draft') return ['draft', 'at', 'queue', 'now'];
  if (post.status === 'queued') return ['at', 'now'];
  return [];
}

/** The form of a post: its account, files, text and settings; its time when editing a queued post. */
export function formFromPost(post: Post, zone: string, purpose: 'edit' | 'duplicate'): ComposeForm {
  const fresh = defaultWhen(zone);
  const when: WhenForm =
    purpose === 'duplicate'
      ? fresh
      : post.status === 'queued' && post.publishAt
        ? whenAt(post.publishAt, zone)
        : { ...fresh, mode: post.status === 'draft' ? 'draft' : 'now' };
  return {
    accountIds: [post.accountId],
    mediaIds: post.mediaIds,
    text: post.text,
    title: post.title ?? '',
    tags: post.tags.join(', '),
    overrides: {},
    settings: { [post.platform]: post.perPlatform } as Settings,
    when,
    source: { purpose, postId: post.id, when },
  };
}

type EditBody = Schemas['EditPostRequest'];

/**
 * The edit of `post` from what compose holds: its content, and `when` only where the time changes (a draft
 * scheduled, a queued post moved). Confirm is the person's click on the save button.
 */
export function editBody(post: Post, request: Schemas['PlanRequest'], form: WhenForm, original: WhenForm): EditBody {
  const platform = post.platform as Platform;
  const moved =
    form.mode !== 'draft' &&
    editModes(post).includes(form.mode) &&
    (post.status === 'draft' ||
      form.mode !== original.mode ||
      form.date !== original.date ||
      form.time !== original.time);
  return {
    text: request.text,
    ...(request.title !== undefined ? { title: request.title } : {}),
    tags: request.tags ?? [],
    mediaIds: request.mediaIds,
    perPlatform: { [platform]: request.perPlatform?.[platform] ?? {} },
    ...(request.overrides?.[platform] ? { overrides: { [platform]: request.overrides[platform] } } : {}),
    ...(moved && request.when !== 'draft' ? { when: request.when } : {}),
    confirm: true,
  };
}

/** Whether saving the edit gives a draft its first time: the only edit that counts toward the month. */
export const schedulesDraft = (post: Pick<Post, 'status'>, mode: WhenMode) =>
  post.status === 'draft' && mode !== 'draft';

/** The plan as an edit of `post` reads it: it adds a post to the month only when it schedules a draft. */
export function editPlan<P extends Pick<PlanResponse, 'quota'>>(
  plan: P,
  post: Pick<Post, 'status'>,
  mode: WhenMode,
): P {
  return schedulesDraft(post, mode) ? plan : { ...plan, quota: { ...plan.quota, requested: 0 } };
}
