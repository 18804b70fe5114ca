// Compose's unsaved form, kept in the tab's session storage so that leaving compose (its posting-times link, a
// refusal, a reload) loses nothing typed. One draft per thing being composed: a new post, a duplicate of post X, an
// edit of post X; and per person and workspace (signing out leaves the tab, and the next person signed in on it must
// not be handed what the last one typed). Kept while it differs from the form compose opened with, dropped once
// saved or discarded.
import type { ComposeForm } from './composeForm.ts';

/** What is being composed, as compose's address says it. */
export interface DraftSubject {
  /** The signed-in person who typed it. */
  userId: string;
  workspaceId: string;
  purpose: 'new' | 'edit' | 'duplicate';
  /** The post edited or duplicated. */
  postId?: string;
}

export interface KeptDraft {
  form: ComposeForm;
  /** For an edit: the post's updatedAt when the form was filled from it (a later one means it changed since). */
  base?: string;
}

const PREFIX = 'herald.compose';

export const draftKey = ({ userId, workspaceId, purpose, postId }: DraftSubject) =>
  [PREFIX, userId, workspaceId, purpose, ...(postId ? [postId] : [])].join(':');

/** The draft kept for `subject`, if any; one that cannot be read is dropped, as though none were kept. */
export function readDraft(storage: Storage, subject: DraftSubject): KeptDraft | undefined {
  const key = draftKey(subject);
  const raw = storage.getItem(key);
  if (raw === null) return undefined;
  try {
    const kept = JSON.parse(raw) as KeptDraft;
    if (kept && typeof kept.form === 'object' && Array.isArray(kept.form.accountIds)) return kept;
  } catch {
    // Not ours or cut short: fall through and forget it.
  }
  storage.removeItem(key);
  return undefined;
}

/** Keeps `draft` while its form differs from `opened` (the form compose opened with); forgets it once equal. */
export function keepDraft(storage: Storage, subject: DraftSubject, draft: KeptDraft, opened: ComposeForm): void {
  if (!differs(draft.form, opened)) {
    forgetDraft(storage, subject);
    return;
  }
  try {
    storage.setItem(draftKey(subject), JSON.stringify(draft));
  } catch {
    // Storage full or refused (a private window): the form on screen is still whole.
  }
}

export function forgetDraft(storage: Storage, subject: DraftSubject): void {
  storage.removeItem(draftKey(subject));
}

/** Whether the form holds a change from `opened`: something typed that leaving would lose. */
export const differs = (form: ComposeForm, opened: ComposeForm) => JSON.stringify(form) !== JSON.stringify(opened);

/**
 * The form to open with: the kept draft when there is one, its accounts narrowed to those still connected (an
 * account removed meanwhile is no longer offered); else `opened`.
 */
export function restoredForm(kept: KeptDraft | undefined, opened: ComposeForm, accountIds: string[]): ComposeForm {
  if (!kept) return opened;
  return { ...kept.form, accountIds: kept.form.accountIds.filter((id) => accountIds.includes(id)) };
}

/** For an edit restored or kept open: the post's updatedAt now, when the post changed since the form was filled. */
export const changedSince = (kept: Pick<KeptDraft, 'base'>, updatedAt: string | undefined) =>
  kept.base && updatedAt && updatedAt !== kept.base ? updatedAt : undefined;
