// What an edit changes in a post's content, and the timeline's sentence for it.
import type { NewEvent } from '../../db/postEvents.ts';
import type { ContentPatch, PostRecord, StoredChange } from '../../db/postRecords.ts';
import type { PlannedRow } from '../../domain/planPosts.ts';

/** How a timeline sentence names each stored field of a post's content. */
const CONTENT_NAMES: Record<keyof ContentPatch, string> = {
  text: 'the text',
  title: 'the title',
  tags: 'the tags',
  mediaIds: 'the files',
  perPlatform: 'the settings',
};

/** The stored fields an edit changes, from the planned row (overrides applied, the network's defaults added). */
export function contentChanges(post: PostRecord, row: PlannedRow, mediaIds: string[]): ContentPatch {
  const next: Required<ContentPatch> = { ...row.content, mediaIds };
  const changed = (Object.keys(CONTENT_NAMES) as (keyof ContentPatch)[]).filter(
    (field) => JSON.stringify(next[field]) !== JSON.stringify(post[field]),
  );
  return Object.fromEntries(changed.map((field) => [field, next[field]]));
}

/** The content fields a queued post's waiting change sets, without its time. */
export const changedContent = ({ publishAt: _, ...content }: StoredChange): ContentPatch => content;

export const editedEvent = (patch: ContentPatch): NewEvent => {
  const names = (Object.keys(patch) as (keyof ContentPatch)[]).map((field) => CONTENT_NAMES[field]);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  return { kind: 'edited', message: `Changed ${list}.`, changed: Object.keys(patch) as (keyof ContentPatch)[] };
};
