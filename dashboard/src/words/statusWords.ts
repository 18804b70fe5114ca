// A post's status as people say it, keyed by the contract's PostStatus: the calendar and lists show these words
// beside the colour, which neither a screen reader nor a colour-blind reader can use alone.
import type { Schemas } from '../api.ts';

export type PostStatus = Schemas['PostStatus'];

export const STATUS_WORDS: Record<PostStatus, string> = {
  draft: 'Draft',
  queued: 'Scheduled',
  live: 'Published',
  failed: 'Failed',
};

/** The status of posts shown together: "Scheduled" when they agree, else "2 published, 1 failed". */
export function statusesText(statuses: PostStatus[]): string {
  const counts = new Map<PostStatus, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  if (counts.size === 1) return STATUS_WORDS[statuses[0]!];
  return [...counts].map(([s, n]) => `${n} ${STATUS_WORDS[s].toLowerCase()}`).join(', ');
}
