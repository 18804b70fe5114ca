// Each network counts text in its own unit: YouTube descriptions in UTF-8 bytes
// (https://developers.google.com/youtube/v3/docs/videos), Threads text in graphemes with each emoji charged
// its UTF-8 length (https://developers.facebook.com/docs/threads/posts), TikTok titles in UTF-16 code units
// (https://developers.tiktok.com/doc/content-posting-api-reference-direct-post).

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
// A keycap (1️⃣) or a VS16 sequence is an emoji although its base character is not pictographic.
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3|\uFE0F/u;

/** Unicode code points: what "characters" means for YouTube titles and Instagram captions. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

const utf8 = new TextEncoder();

/** (TextEncoder rather than Buffer: the dashboard counts with this module too.) */
export function utf8Bytes(text: string): number {
  return utf8.encode(text).length;
}

export function utf16Units(text: string): number {
  return text.length;
}

/** Threads: graphemes, except that each emoji is charged its UTF-8 byte length (👍 counts 4). */
export function threadsUnits(text: string): number {
  // Printable ASCII has no emoji and one grapheme per character (\r\n, a single grapheme, is excluded).
  if (/^[\x20-\x7E\n\t]*$/.test(text)) return text.length;
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

/** Addresses in the text, without the sentence punctuation that follows them ("see https://a.example/x."). */
export function links(text: string): string[] {
  return (text.match(/\bhttps?:\/\/[^\s<>"]+/giu) ?? []).map(trimLink);
}

function trimLink(link: string): string {
  let out = link.replace(/[.,;:!?'*]+$/u, '');
  // A closing bracket belongs to the address only when the address opened it (…/Foo_(bar)).
  while (/[)\]}]$/u.test(out)) {
    const close = out.at(-1)!;
    const open = ({ ')': '(', ']': '[', '}': '{' } as Record<string, string>)[close]!;
    if (out.split(open).length >= out.split(close).length) break;
    out = out.slice(0, -1).replace(/[.,;:!?'*]+$/u, '');
  }
  return out;
}

/** One key per distinct address: scheme and host are case-insensitive, the path is not. */
export function linkKey(link: string): string {
  try {
    return new URL(link).href;
  } catch {
    return link;
  }
}
