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

/**
 * A connected account's status, keyed by the contract's Account.status: an expired access is the account signed
 * out, a revoked one disconnected (as the plan's account_not_ok sentence says it).
 */
export const ACCOUNT_STATUS_WORDS: Record<Schemas['Account']['status'], string> = {
  ok: 'connected',
  expired: 'signed out',
  revoked: 'disconnected',
};

/** A file's status, keyed by the contract's MediaStatus, after its name or size ("autumn.jpg · being processed"). */
export const MEDIA_STATUS_WORDS: Record<Schemas['MediaStatus'], string> = {
  uploading: 'uploading',
  processing: 'being processed',
  ready: 'ready',
  failed: 'could not be processed',
};

/** A file's kind, keyed by the contract's Media.kind, where its thumbnail will be ("File" while unknown). */
export const MEDIA_KIND_WORDS: Record<NonNullable<Schemas['Media']['kind']>, string> = {
  image: 'Photo',
  video: 'Video',
};
export const mediaKindText = (kind: Schemas['Media']['kind']) => (kind ? MEDIA_KIND_WORDS[kind] : 'File');
