// What a network does to a post when it shows it: the frame it puts a picture or video in and what that
// frame cuts, where it shortens a title or caption, which #tag becomes a Threads topic. The frames and
// content types come from the server's own network rules, so the preview and the plan's checks agree.
import { codePoints, textParts, type TextPart } from '../../../domain/textUnits.ts';
import { facebookContentType, facebookLimits } from '../../../networks/facebook/rules.ts';
import { instagramContentType, instagramLimits } from '../../../networks/instagram/rules.ts';
import { aspect } from '../../../networks/rules.ts';
import { youtubeLimits } from '../../../networks/youtube/rules.ts';
import type { Media } from '../api.ts';

export type PreviewMedia = Pick<
  Media,
  'id' | 'kind' | 'width' | 'height' | 'durationSeconds' | 'thumbnailUrl' | 'filename' | 'status'
>;

/** A frame's shape (width / height) and the share of the picture it cuts, across and down. */
export interface Fit {
  frame: number;
  cutAcross: number;
  cutDown: number;
}

/** Fills `frame` with the picture (CSS object-fit: cover), centred: the longer side loses its ends. */
export function coverFit(media: Pick<PreviewMedia, 'width' | 'height'> | undefined, frame: number): Fit {
  const ratio = media && aspect(media);
  if (!ratio) return { frame, cutAcross: 0, cutDown: 0 };
  return ratio > frame
    ? { frame, cutAcross: 1 - frame / ratio, cutDown: 0 }
    : { frame, cutAcross: 0, cutDown: 1 - ratio / frame };
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/**
 * Instagram's frame: a feed picture keeps its shape inside 4:5 to 1.91:1 (beyond, the check refuses it and
 * this shows the crop it needs); a carousel takes its first item's shape for every item; reels and stories
 * fill 9:16.
 */
export function instagramFrame(type: string, first: PreviewMedia | undefined): number {
  if (type === 'reel' || type === 'story') return 9 / 16;
  const { min, max } = instagramLimits.feedAspect;
  return clamp((first && aspect(first)) ?? 1, min, max);
}

export function instagramType(settings: Record<string, unknown>, media: readonly PreviewMedia[]): string {
  return instagramContentType({ settings, media });
}

/** Instagram's feed shows the caption's first 125 characters, then "… more". */
export const INSTAGRAM_CAPTION_SHOWN = 125;
/** YouTube's search results and suggestions show about 70 characters of a title, then "…". */
export const YOUTUBE_TITLE_SHOWN = 70;

/** The first `max` characters (code points, as the networks count), ending on a word where one is near. */
export function shortened(text: string, max: number): { text: string; cut: boolean } {
  if (codePoints(text) <= max) return { text, cut: false };
  const head = Array.from(text).slice(0, max).join('');
  const space = head.search(/\s\S*$/);
  return { text: (space > max * 0.6 ? head.slice(0, space) : head).trimEnd(), cut: true };
}

/** YouTube marks a square or vertical video up to 3 minutes as a Short, shown 9:16. */
export function youtubeShort(video: PreviewMedia | undefined): boolean {
  const ratio = video && aspect(video);
  return (
    ratio !== undefined &&
    ratio <= 1 &&
    video!.durationSeconds !== null &&
    video!.durationSeconds <= youtubeLimits.shortMaxSeconds
  );
}

export const youtubeVisibility = (settings: Record<string, unknown>) =>
  String(settings.visibility ?? youtubeLimits.defaults.visibility);

export function facebookType(settings: Record<string, unknown>, media: readonly PreviewMedia[]): string {
  return facebookContentType({ settings, media });
}

/** Facebook's reels and stories fill 9:16; its feed shows other pictures and videos in their own shape. */
export function facebookFrame(type: string, first: PreviewMedia | undefined): number {
  return type === 'reel' || type === 'story' ? facebookLimits.reel.aspect : ((first && aspect(first)) ?? 1);
}

/**
 * Threads' topic: the topic tag setting, or else the text's first #tag, which Threads shows as a tag
 * without its #. Only one is allowed (the check refuses more), so later #tags stay plain text here.
 */
export function threadsParts(text: string, topicTag: unknown): { topic: string | undefined; parts: TextPart[] } {
  let topic = typeof topicTag === 'string' && topicTag.trim() ? topicTag.trim() : undefined;
  const given = topic !== undefined;
  const parts = textParts(text).map((part): TextPart => {
    if (part.kind !== 'hashtag') return part;
    if (topic !== undefined && (given || part.text.slice(1) !== topic)) return { kind: 'text', text: part.text };
    topic = part.text.slice(1);
    return part;
  });
  return { topic, parts };
}

/** "4:5", "1.91:1", "9:16": a frame's shape as the networks write it. */
export function aspectText(frame: number): string {
  const named: [number, string][] = [
    [4 / 5, '4:5'],
    [1, '1:1'],
    [9 / 16, '9:16'],
    [16 / 9, '16:9'],
  ];
  const name = named.find(([value]) => Math.abs(value - frame) < 0.005)?.[1];
  return name ?? (frame >= 1 ? `${frame.toFixed(2)}:1` : `1:${(1 / frame).toFixed(2)}`);
}

/** The address's host without "www.", as link cards show it; the address itself if it is not one. */
export function linkHost(link: string): string {
  try {
    return new URL(link).hostname.replace(/^www\./, '');
  } catch {
    return link;
  }
}
