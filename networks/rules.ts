// What every network module provides to plan checks: its limits as data and a check of one post, with the
// helpers those checks share. Generic code never branches on a network's name.
import type { Facts } from '../domain/errors.ts';
import type { Issue, IssueCode } from '../domain/issues.ts';
import type { components } from '../generated/api.d.ts';

/** The networks of the contract's Platform enum; the registry (networks/index.ts) has one module for each. */
export type Platform = components['schemas']['Platform'];

/** What a check knows of a media file (from its processing metadata). */
export interface MediaFacts {
  id: string;
  status: 'uploading' | 'processing' | 'ready' | 'failed';
  kind: 'image' | 'video' | null;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  /** Set when retention deleted the file's bytes: the record stays, but it cannot be posted. */
  bytesDeletedAt: string | null;
}

/** One post as a network sees it: overrides applied, its own perPlatform entry. */
export interface PostContent {
  text: string;
  title: string | null;
  tags: string[];
  media: MediaFacts[];
  settings: Record<string, unknown>;
  /**
   * The files that the settings in NetworkRules.fileSettings name, by setting name; a setting whose
   * id names no file of this workspace (missing, or another workspace's) has none here.
   */
  settingFiles: Record<string, MediaFacts | undefined>;
}

/** The counting functions of domain/textUnits.ts that networks use for their text limits. */
export type TextUnit = 'codePoints' | 'utf8Bytes' | 'utf16Units' | 'threadsUnits' | 'graphemes';

/** A text field's limit in the network's own unit, as check() applies it; the dashboard's live counters show these. */
export interface TextLimit {
  field: 'text' | 'title';
  unit: TextUnit;
  max: number;
}

export interface NetworkRules {
  platform: Platform;
  /** The network's name as people write it, used in sentences. */
  label: string;
  /** False while the connector is in progress: such accounts cannot be published to yet. */
  available: boolean;
  /**
   * Settings whose value is the id of a file of the workspace (YouTube's
   * `thumbnailMediaId`): the planner loads those files.
   */
  fileSettings?: readonly string[];
  textLimits: readonly TextLimit[];
  /** Settings that take one of a list of values, as check() accepts them; the dashboard offers these. */
  choices?: Readonly<Record<string, readonly string[]>>;
  /** Network-specific findings; readiness of mediaIds, account state and time are checked by the planner. */
  check(post: PostContent): Issue[];
  /**
   * The settings the network uses when a post leaves them out (its own defaults, or what the media
   * implies): the plan fills them in and shows them, so a person sees them before confirming.
   */
  defaults?(post: Pick<PostContent, 'media' | 'settings'>): Record<string, unknown>;
  /** The zone whose midnight resets the network's daily quota (YouTube: Pacific time); the worker waits for it. */
  quotaResetZone?: string;
  /** A setting's value in words for the plan table (say, a category id with its name). */
  describe?(name: string, value: unknown): string;
}

const MB = 1024 * 1024;
export const sizeText = (bytes: number) => `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`;
/** A size and its limit for a message; in bytes when rounding would show them equal ("8.0 MB; up to 8.0 MB"). */
export function sizeTexts(bytes: number, max: number): [string, string] {
  return sizeText(bytes) === sizeText(max) ? [`${bytes} bytes`, `${max} bytes`] : [sizeText(bytes), sizeText(max)];
}
/** `90.1 seconds`, `15 minutes`, `15 minutes 0.1 seconds`: never rounds a too-long video down to its limit. */
export function secondsText(seconds: number): string {
  const s = Math.round(seconds * 1000) / 1000;
  if (s < 120) return `${s} seconds`;
  const minutes = Math.floor(s / 60);
  const rest = Math.round((s - minutes * 60) * 1000) / 1000;
  return rest ? `${minutes} minutes ${rest} seconds` : `${minutes} minutes`;
}

/** An issue; `facts` restate what the message says for programs (the dashboard words its own sentence from them). */
export function issue(code: IssueCode, message: string, hint: string, facts: Facts = {}): Issue {
  return { code, message, hint, ...facts };
}

/** A file that cannot be posted yet, or any more: not `ready`, or its bytes deleted by retention. `field` names it. */
export function checkReady(media: MediaFacts, field: string): Issue | undefined {
  if (media.bytesDeletedAt) {
    return issue(
      'media_not_ready',
      `${field} no longer has its bytes: they were deleted 72 hours after a post with it went live.`,
      'Upload the file again (pin files you reuse) and use the new mediaId.',
      { field, actual: 'deleted' },
    );
  }
  if (media.status === 'ready') return undefined;
  return issue(
    'media_not_ready',
    media.status === 'failed'
      ? `${field} failed processing, so it cannot be posted.`
      : `${field} is ${media.status}; only ready files can be posted.`,
    media.status === 'failed'
      ? 'Upload a file in an accepted format and use its new mediaId.'
      : 'Poll GET /media/{mediaId} until it is ready, then plan again.',
    { field, actual: media.status },
  );
}

/** width / height, or undefined before processing measured it. */
export function aspect(media: Pick<MediaFacts, 'width' | 'height'>): number | undefined {
  return media.width && media.height ? media.width / media.height : undefined;
}

/**
 * Counting (units, links, hashtags) stops at ten times a limit: past the limit, the count of anything a person
 * wrote is exact, and a megabyte of text costs no more than that, told as "more than".
 */
export const COUNT_PAST_LIMIT = 10;
export const counted = (n: number, limit: number) =>
  n > COUNT_PAST_LIMIT * limit ? `more than ${COUNT_PAST_LIMIT * limit}` : String(n);

/** A setting that must be one of `allowed`; returns the issue, if any. */
export function checkChoice(
  settings: Record<string, unknown>,
  network: Platform,
  name: string,
  allowed: readonly string[],
): Issue | undefined {
  const value = settings[name];
  if (value === undefined || allowed.includes(value as string)) return undefined;
  return issue(
    'setting_invalid',
    `perPlatform.${network}.${name} "${String(value)}" is not one of: ${allowed.join(', ')}.`,
    `Set perPlatform.${network}.${name} to one of: ${allowed.join(', ')}.`,
    { field: `perPlatform.${network}.${name}`, actual: String(value) },
  );
}

/**
 * A host holding a dot, then anything without spaces. The host's first dot is the one tried (the host may not
 * start with it): `[^\s/]+\.` would try every dot, each time scanning to the end, 50,000 dots their square.
 */
const HTTPS_LINK = /^https:\/\/[^\s/][^\s/.]*\.\S+$/;

/** perPlatform.<network>.link, a link to share: a full https address; returns the issue, if any. */
export function checkLink(settings: Record<string, unknown>, network: Platform): Issue | undefined {
  const link = settings.link;
  if (link === undefined || (typeof link === 'string' && HTTPS_LINK.test(link))) return undefined;
  return issue(
    'setting_invalid',
    `perPlatform.${network}.link "${String(link)}" is not an https address.`,
    'Give a full https:// address.',
    { field: `perPlatform.${network}.link`, actual: String(link) },
  );
}

export function checkVideoDuration(
  media: MediaFacts,
  field: string,
  min: number,
  max: number,
  what: string,
  maxCode: IssueCode = 'video_too_long',
): Issue | undefined {
  const d = media.durationSeconds;
  if (d === null) return undefined;
  if (d < min)
    return issue(
      'video_too_short',
      `${field} is ${secondsText(d)}; ${what} needs at least ${secondsText(min)}.`,
      'Use a longer video.',
      { field, limit: min, actual: d },
    );
  if (d > max)
    return issue(
      maxCode,
      `${field} is ${secondsText(d)}; ${what} allows at most ${secondsText(max)}.`,
      'Trim the video or pick another format.',
      { field, limit: max, actual: d },
    );
  return undefined;
}

export function checkImageSize(media: MediaFacts, field: string, max: number, what: string): Issue | undefined {
  if (media.size <= max) return undefined;
  const [size, limit] = sizeTexts(media.size, max);
  return issue(
    'image_too_large',
    `${field} is ${size}; ${what} accepts images up to ${limit}.`,
    'Export the image smaller or with more compression.',
    { field, limit: max, actual: media.size },
  );
}

/** A video over the size limit (`video_too_large`); `what` names the network or format, as checkVideoDuration's. */
export function checkVideoSize(media: MediaFacts, field: string, max: number, what: string): Issue | undefined {
  if (media.size <= max) return undefined;
  const [size, limit] = sizeTexts(media.size, max);
  return issue(
    'video_too_large',
    `${field} is ${size}; ${what} takes videos up to ${limit}.`,
    'Export the video with a lower bitrate.',
    { field, limit: max, actual: media.size },
  );
}

export function checkCarousel(count: number, min: number, max: number, label: string): Issue | undefined {
  if (count >= min && count <= max) return undefined;
  return issue(
    'carousel_count',
    `mediaIds holds ${count} file${count === 1 ? '' : 's'}; a ${label} carousel takes ${min} to ${max}.`,
    `Give between ${min} and ${max} files, or publish them as separate posts.`,
    { field: 'mediaIds', limit: count < min ? min : max, actual: count },
  );
}
