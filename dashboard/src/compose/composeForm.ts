// Compose's form as one value: every choice and text of the post being written, plain JSON so that it can be kept
// and given back whole. It starts empty (emptyForm) or from a post to edit or duplicate (fromPost.ts), and changes
// only through composeReducer.
import type { Platform } from '../api.ts';
import type { Settings } from './NetworkSettings.tsx';
import { defaultWhen, type WhenForm } from './when.ts';

export interface ComposeForm {
  accountIds: string[];
  mediaIds: string[];
  text: string;
  title: string;
  /** As typed: separated by commas. */
  tags: string;
  /** A network's own text, where one was written instead of the main text. */
  overrides: Partial<Record<Platform, string>>;
  settings: Settings;
  when: WhenForm;
  /** The post the form was filled from; for an edit, its time then (saving moves the post only when it changed). */
  source?: { purpose: 'edit' | 'duplicate'; postId: string; when: WhenForm };
}

export type ComposeChange =
  | { type: 'set'; values: Partial<Omit<ComposeForm, 'overrides' | 'source'>> }
  | { type: 'toggleAccount'; accountId: string }
  | { type: 'override'; platform: Platform; text: string }
  | { type: 'dropOverride'; platform: Platform };

/** A new post: nothing chosen, its time the next round quarter hour; a YouTube video public, in People & Blogs. */
export function emptyForm(zone: string): ComposeForm {
  return {
    accountIds: [],
    mediaIds: [],
    text: '',
    title: '',
    tags: '',
    overrides: {},
    settings: { youtube: { visibility: 'public', category: '22' } },
    when: defaultWhen(zone),
  };
}

export function composeReducer(form: ComposeForm, change: ComposeChange): ComposeForm {
  switch (change.type) {
    case 'set':
      return { ...form, ...change.values };
    case 'toggleAccount': {
      const { accountIds: ids } = form;
      const id = change.accountId;
      return { ...form, accountIds: ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id] };
    }
    case 'override':
      return { ...form, overrides: { ...form.overrides, [change.platform]: change.text } };
    case 'dropOverride': {
      const { [change.platform]: _, ...rest } = form.overrides;
      return { ...form, overrides: rest };
    }
  }
}
