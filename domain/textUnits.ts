// Each network counts text in its own unit (see ../shared/notes/networks.md §6).

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/** Unicode code points: what "characters" means for YouTube titles and Instagram captions. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function utf16Units(text: string): number {
  return text.length;
}

/** Threads: graphemes, except that each emoji is charged its UTF-8 byte length (👍 counts 4). */
export function threadsUnits(text: string): number {
  let n = 0;
  for (const { segment } of graphemes.segment(text)) n += EMOJI.test(segment) ? utf8Bytes(segment) : 1;
  return n;
}

export function hashtags(text: string): string[] {
  return text.match(/(?<![\p{L}\p{N}_&])#[\p{L}\p{N}_]+/gu) ?? [];
}

export function mentions(text: string): string[] {
  return text.match(/(?<![\p{L}\p{N}_.])@[\p{L}\p{N}_.]+/gu) ?? [];
}

export function links(text: string): string[] {
  return text.match(/\bhttps?:\/\/[^\s<>"]+/giu) ?? [];
}
