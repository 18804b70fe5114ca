// Each network counts text in its own unit: YouTube descriptions in UTF-8 bytes
// (https://developers.google.com/youtube/v3/docs/videos), Threads text in graphemes with each emoji charged
// its UTF-8 length (https://developers.facebook.com/docs/threads/posts), TikTok titles in UTF-16 code units
// (https://developers.tiktok.com/doc/content-posting-api-reference-direct-post), Bluesky posts in graphemes (the
// lexicon's maxGraphemes of app.bsky.feed.post: what a reader sees as one character, 👨‍👩‍👧 and 🇩🇪 included).

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
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

/** Printable ASCII has no emoji and one grapheme per character (\r\n, a single grapheme, is excluded). */
const plainAscii = (text: string) => /^[\x20-\x7E\n\t]*$/.test(text);

/**
 * Threads: graphemes, except that each emoji is charged its UTF-8 byte length (👍 counts 4). Counting stops
 * once the units pass `stopAfter`: the answer is then some number above it, and a megabyte of text costs no
 * more than the first `stopAfter` graphemes.
 */
export function threadsUnits(text: string, stopAfter = Infinity): number {
  if (plainAscii(text)) return text.length;
  let n = 0;
  for (const segment of graphemesOf(text)) {
    n += EMOJI.test(segment) ? utf8Bytes(segment) : 1;
    if (n > stopAfter) break;
  }
  return n;
}

/**
 * Graphemes (extended grapheme clusters): Bluesky's unit. Counting stops once past `stopAfter`, as threadsUnits.
 */
export function graphemes(text: string, stopAfter = Infinity): number {
  if (plainAscii(text)) return text.length;
  let n = 0;
  for (const _ of graphemesOf(text)) if (++n > stopAfter) break;
  return n;
}

/** Code units segmented at once: each step of Intl.Segmenter costs the length of its string (V8 12, ICU 78). */
const WINDOW = 256;

/**
 * The graphemes of `text`, segmented a window at a time so that the whole costs its length, not its square.
 * A window's last grapheme may go on past it, so it is segmented again at the start of the next window; a
 * window holding a single, unfinished grapheme (thousands of combining marks) is doubled until it ends. A window
 * never ends inside a surrogate pair: half of 👩 after 👨+ZWJ would end that grapheme early.
 */
function* graphemesOf(text: string): Generator<string> {
  let from = 0;
  let size = WINDOW;
  while (from < text.length) {
    let to = Math.min(text.length, from + size);
    if (to < text.length && /[\uD800-\uDBFF]/.test(text[to - 1]!)) to += 1;
    const parts = [...segmenter.segment(text.slice(from, to))];
    const whole = to === text.length ? parts.length : parts.length - 1;
    if (whole === 0) {
      size *= 2;
      continue;
    }
    for (let i = 0; i < whole; i++) yield parts[i]!.segment;
    from = to === text.length ? to : from + parts[whole]!.index;
    size = WINDOW;
  }
}

/** The first `stopAfter` + 1 matches at most: a rule that counts them needs no more past its limit. */
function firstMatches(text: string, pattern: RegExp, stopAfter: number): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(pattern)) if (found.push(match[0]) > stopAfter) break;
  return found;
}

const HASHTAG = /(?<![\p{L}\p{N}_&])#[\p{L}\p{N}_]+/gu;
const MENTION = /(?<![\p{L}\p{N}_.])@[\p{L}\p{N}_.]+/gu;
const LINK = /\bhttps?:\/\/[^\s<>"]+/giu;

export function hashtags(text: string, stopAfter = Infinity): string[] {
  return firstMatches(text, HASHTAG, stopAfter);
}

export function mentions(text: string, stopAfter = Infinity): string[] {
  return firstMatches(text, MENTION, stopAfter);
}

/** Addresses in the text, without the sentence punctuation that follows them ("see https://a.example/x."). */
export function links(text: string): string[] {
  return (text.match(LINK) ?? []).map(trimLink);
}

export interface TextPart {
  kind: 'text' | 'link' | 'hashtag' | 'mention';
  text: string;
}

/**
 * The text cut into plain runs and the links, #tags and @mentions the counts above find, in order: the
 * dashboard's previews show them as the networks do. Joined again, the parts are the text.
 */
export function textParts(text: string): TextPart[] {
  const found = [
    ...[...text.matchAll(LINK)].map((m) => ({ kind: 'link' as const, at: m.index, text: trimLink(m[0]) })),
    ...[...text.matchAll(HASHTAG)].map((m) => ({ kind: 'hashtag' as const, at: m.index, text: m[0] })),
    ...[...text.matchAll(MENTION)].map((m) => ({ kind: 'mention' as const, at: m.index, text: m[0] })),
  ].sort((a, b) => a.at - b.at);
  const parts: TextPart[] = [];
  let end = 0;
  for (const { kind, at, text: part } of found) {
    if (at < end) continue; // a #fragment or @user inside a link stays part of the link
    if (at > end) parts.push({ kind: 'text', text: text.slice(end, at) });
    parts.push({ kind, text: part });
    end = at + part.length;
  }
  if (end < text.length) parts.push({ kind: 'text', text: text.slice(end) });
  return parts;
}

const OPENER: Partial<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };

/**
 * The link without trailing sentence punctuation; a closing bracket stays only when the address opened it
 * (…/Foo_(bar)). The brackets are counted once and the end walked back a character at a time: a link ending in
 * 50,000 brackets or dots costs one pass, where trimming with a regex and recounting per bracket cost its square.
 */
function trimLink(link: string): string {
  const brackets: Record<string, number> = { '(': 0, ')': 0, '[': 0, ']': 0, '{': 0, '}': 0 };
  for (let i = 0; i < link.length; i++) if (Object.hasOwn(brackets, link[i]!)) brackets[link[i]!]! += 1;
  let end = link.length;
  while (end > 0) {
    const char = link[end - 1]!;
    const opener = OPENER[char];
    if (opener === undefined ? !".,;:!?'*".includes(char) : brackets[opener]! >= brackets[char]!) break;
    if (opener !== undefined) brackets[char]! -= 1;
    end -= 1;
  }
  return link.slice(0, end);
}

/** One key per distinct address: scheme and host are case-insensitive, the path is not. */
export function linkKey(link: string): string {
  try {
    return new URL(link).href;
  } catch {
    return link;
  }
}
