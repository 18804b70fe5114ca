// Text counting units per network: characters as code points (YouTube titles, Instagram captions),
// UTF-8 bytes (YouTube descriptions), UTF-16 units (TikTok), Threads' graphemes with each emoji
// charged its UTF-8 bytes, graphemes (Bluesky); and the hashtags, mentions and links the networks count.
import { describe, expect, it } from 'vitest';
import {
  codePoints,
  graphemes,
  hashtags,
  linkKey,
  links,
  mentions,
  threadsUnits,
  utf16Units,
  utf8Bytes,
} from '../../domain/textUnits.ts';

describe("caption_too_long counts text in a network's unit: characters, UTF-8 bytes, UTF-16 units, graphemes", () => {
  it.each([
    // text, code points, UTF-8 bytes, UTF-16 units, Threads units, graphemes
    ['plain ASCII', 'Autumn sale', 11, 11, 11, 11, 11],
    ['é precomposed', 'é', 1, 2, 1, 1, 1],
    ['e and a combining accent: one grapheme, two code points', 'e\u0301', 2, 3, 2, 1, 1],
    ['a CJK character', '日', 1, 3, 1, 1, 1],
    ['👍 outside the BMP', '👍', 1, 4, 2, 4, 1],
    ['👍🏽 with a skin tone', '👍🏽', 2, 8, 4, 8, 1],
    ['a ZWJ family of four', '👨\u200D👩\u200D👧\u200D👦', 7, 25, 11, 25, 1],
    ['a keycap 1️⃣', '1\uFE0F\u20E3', 3, 7, 3, 7, 1],
    ['a flag 🇩🇪', '🇩🇪', 2, 8, 4, 8, 1],
    ['❤️ (a BMP symbol with VS16)', '\u2764\uFE0F', 2, 6, 2, 6, 1],
    ['CRLF, one grapheme', 'a\r\nb', 4, 4, 4, 3, 3],
    ['empty', '', 0, 0, 0, 0, 0],
  ])('%s', (_name, text, points, bytes, units, threads, clusters) => {
    expect({
      points: codePoints(text),
      bytes: utf8Bytes(text),
      units: utf16Units(text),
      threads: threadsUnits(text),
      graphemes: graphemes(text),
    }).toEqual({ points, bytes, units, threads, graphemes: clusters });
  });

  it('counts graphemes as Bluesky does (the library Bluesky posts with), stopping past a limit', async () => {
    const { RichText } = await import('@atproto/api');
    const text = 'Sale 👍🏽 today 🇩🇪! e\u0301 👨\u200D👩\u200D👧\u200D👦 日本 a\r\nb';
    expect(graphemes(text)).toBe(new RichText({ text }).graphemeLength);
    expect(graphemes('🇩🇪'.repeat(100_000), 3000)).toBe(3001);
  });

  it('counts Threads text mixing emoji and letters by adding each part', () => {
    expect(threadsUnits('Sale 👍 today 🇩🇪!')).toBe('Sale '.length + 4 + ' today '.length + 8 + 1);
  });
});

describe('counting hostile text costs its length, not its square', () => {
  const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
  /** The reference: the whole text segmented at once (fine for a short text), each grapheme counted alone. */
  const whole = (text: string) => [...graphemes.segment(text)].reduce((n, g) => n + threadsUnits(g.segment), 0);

  it('counts as the whole text segmented at once, whatever falls on a window edge', () => {
    const tricky = [
      '👨\u200D👩\u200D👧',
      '🇩🇪🇩🇪🇩',
      'a\r\nb',
      '👍🏽',
      '1\uFE0F\u20E3',
      `e${'\u0301'.repeat(600)}`,
      'क्षि',
      '\uD83D',
    ];
    for (const piece of tricky) {
      for (let before = 240; before <= 260; before++) {
        const text = `${'é'.repeat(before)}${piece}${piece}x`;
        expect(threadsUnits(text), `${before} + ${JSON.stringify(piece)}`).toBe(whole(text));
      }
    }
  });

  it('stops counting Threads text once past stopAfter (é × 1,000,000 took minutes whole)', () => {
    expect(threadsUnits('é'.repeat(1_000_000), 5000)).toBe(5001);
    expect(threadsUnits('👍🏽'.repeat(250_000), 5000)).toBe(5008);
    expect(threadsUnits('é'.repeat(4000), 5000)).toBe(4000);
  });

  it('finds hashtags and mentions only as far as a count needs', () => {
    expect(hashtags('#a '.repeat(300_000), 300)).toHaveLength(301);
    expect(mentions('@a '.repeat(300_000), 200)).toHaveLength(201);
    expect(hashtags('#a #b', 300)).toEqual(['#a', '#b']);
  });

  it('trims links ending in 50,000 brackets or dots in one pass', () => {
    expect(links(`https://a${')'.repeat(50_000)}`)).toEqual(['https://a']);
    expect(links(`(https://a/(b)${')'.repeat(50_000)}.`)).toEqual(['https://a/(b)']);
    expect(links(`https://a${'.'.repeat(400_000)}`)).toEqual(['https://a']);
    expect(links(`https://a${'.'.repeat(400_000)}b`)).toEqual([`https://a${'.'.repeat(400_000)}b`]);
  });
});

describe('hashtags and @ mentions as Instagram and Threads count them', () => {
  it('finds tags in any script and ignores # and @ inside words, addresses and entities', () => {
    expect(hashtags('#Autumn sale, #herbst2026 and #秋 #_x')).toEqual(['#Autumn', '#herbst2026', '#秋', '#_x']);
    expect(hashtags('Tom&#39;s page#2 C# # alone')).toEqual([]);
    expect(mentions('Thanks @acme.shop and @Ünal_1, mail shop@acme.example')).toEqual(['@acme.shop', '@Ünal_1']);
  });
});

describe('links: Threads allows at most 5 unique links, duplicates merged', () => {
  it('leaves sentence punctuation after an address out of it', () => {
    expect(
      links('See https://a.example/x. And https://b.example/y, or (https://c.example/z)! Also https://d.example/q?!'),
    ).toEqual(['https://a.example/x', 'https://b.example/y', 'https://c.example/z', 'https://d.example/q']);
  });
  it('keeps brackets the address itself opened', () => {
    expect(
      links('Read https://en.wikipedia.org/wiki/Foo_(bar) and (https://en.wikipedia.org/wiki/Baz_(qux)).'),
    ).toEqual(['https://en.wikipedia.org/wiki/Foo_(bar)', 'https://en.wikipedia.org/wiki/Baz_(qux)']);
  });
  it('finds http and https in any case, nothing else', () => {
    expect(links('HTTPS://SHOP.EXAMPLE/A http://shop.example ftp://shop.example www.shop.example')).toEqual([
      'HTTPS://SHOP.EXAMPLE/A',
      'http://shop.example',
    ]);
  });
  it('takes scheme and host case-insensitively, the path as written', () => {
    expect(linkKey('HTTPS://SHOP1.EXAMPLE/autumn')).toBe(linkKey('https://shop1.example/autumn'));
    expect(linkKey('https://shop1.example/Autumn')).not.toBe(linkKey('https://shop1.example/autumn'));
    expect(linkKey('https://')).toBe('https://');
  });
});
