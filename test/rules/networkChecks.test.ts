// The spec's "Network limits" and each network's documented limits as plan rows, decided by the pure
// planner (domain/planPosts.ts planRows with each network's check): every issue code exactly at its
// limit (the row passes) and just past it (the row fails, the message names the failing field). Text
// limits are counted in the network's own unit. planChecks.test.ts proves each code over HTTP.
import { describe, expect, it } from 'vitest';
import { planRows, type PlannedRow, type PostBody } from '../../domain/planPosts.ts';
import type { MediaFacts, Platform } from '../../networks/rules.ts';

const MB = 1024 * 1024;
const FAMILY = '👨\u200D👩\u200D👧\u200D👦'; // 4 emoji joined by 3 ZWJ: 4×4 + 3×3 = 25 UTF-8 bytes
const KEYCAP = '1\uFE0F\u20E3'; // 1️⃣: 1 + 3 + 3 = 7 UTF-8 bytes

/** A post as a plan request carries it, with its files as the planner sees them. */
type Post = Partial<PostBody> & { media?: MediaFacts[]; files?: MediaFacts[]; status?: 'ok' | 'expired' | 'revoked' };

let made = 0;
/** A ready file as processing measured it: a 1080×1080 JPEG, or a 30-second 1080×1920 MP4. */
function file(shape: Partial<MediaFacts> = {}): MediaFacts {
  const kind = shape.kind ?? 'image';
  made += 1;
  return {
    id: `med_${String(made).padStart(16, '0')}`,
    status: 'ready',
    kind,
    mime: kind === 'image' ? 'image/jpeg' : 'video/mp4',
    size: 500_000,
    width: 1080,
    height: kind === 'image' ? 1080 : 1920,
    durationSeconds: kind === 'video' ? 30 : null,
    bytesDeletedAt: null,
    ...shape,
  };
}
const video = (durationSeconds: number, shape: Partial<MediaFacts> = {}) =>
  file({ kind: 'video', durationSeconds, ...shape });
const many = (n: number, shape: Partial<MediaFacts> = {}) => Array.from({ length: n }, () => file(shape));
const words = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i + 1)).join(' ');

function row(platform: Platform, post: Post = {}): PlannedRow {
  const { media = [], files = [], status = 'ok', ...body } = post;
  const account = { id: `acc_${platform}`, platform, displayName: `Acme ${platform}`, status };
  return planRows({
    accounts: [account],
    media,
    files,
    when: { kind: 'draft' },
    body: { text: 'Autumn sale: 30% off until Sunday.', ...body },
  })[0]!;
}

const codes = (r: PlannedRow) => r.issues.map((i) => i.code);

function expectPasses(r: PlannedRow) {
  expect(r.issues, JSON.stringify(r.issues)).toEqual([]);
  expect(r.ok).toBe(true);
}

function expectFails(r: PlannedRow, code: string, field: string, says?: string) {
  expect(r.ok).toBe(false);
  const found = r.issues.find((i) => i.code === code);
  expect(found, `${code} in ${JSON.stringify(r.issues)}`).toBeDefined();
  expect(found!.message).toContain(field);
  if (says) expect(found!.message).toContain(says);
  expect(found!.hint.length).toBeGreaterThan(10);
}

/** One rule's boundary: `at` passes with no issue at all, `past` fails with `code` naming `field`. */
function boundary(
  name: string,
  c: { platform: Platform; at: () => Post; past: () => Post; code: string; field: string; says?: string },
) {
  describe(name, () => {
    it('passes exactly at the limit', () => expectPasses(row(c.platform, c.at())));
    it(`fails just past it with ${c.code}, naming ${c.field}`, () =>
      expectFails(row(c.platform, c.past()), c.code, c.field, c.says));
  });
}

/**
 * The story rules instagram and facebook share: a video up to 60 seconds (story_too_long), an image
 * up to `imageMb` MB, no text. Answers the story post builder for the network's own rules.
 */
function storyRules(platform: 'instagram' | 'facebook', imageMb: number) {
  const story = (media: MediaFacts, text = ''): Post => ({
    text,
    media: [media],
    perPlatform: { [platform]: { contentType: 'story' } },
  });
  boundary('60 seconds (story_too_long)', {
    platform,
    at: () => story(video(60)),
    past: () => story(video(61)),
    code: 'story_too_long',
    field: 'mediaIds[0]',
    says: '61 seconds',
  });
  boundary(`${imageMb} MB image (image_too_large)`, {
    platform,
    at: () => story(file({ size: imageMb * MB })),
    past: () => story(file({ size: imageMb * MB + 1 })),
    code: 'image_too_large',
    field: 'mediaIds[0]',
    says: `${imageMb * MB + 1} bytes`,
  });
  boundary('no text (caption_too_long)', {
    platform,
    at: () => story(file()),
    past: () => story(file(), 'Swipe up'),
    code: 'caption_too_long',
    field: 'text',
  });
  return story;
}

// ------------------------------------------------------------------------------------------ threads
describe('threads', () => {
  const platform = 'threads';

  describe('text: at most 500, counted in graphemes with each emoji charged its UTF-8 bytes (caption_too_long)', () => {
    const text = (at: string, past: string, says: string) =>
      ({
        platform,
        at: () => ({ text: at }),
        past: () => ({ text: past }),
        code: 'caption_too_long',
        field: 'text',
        says,
      }) as const;
    boundary('plain characters: 500', text('a'.repeat(500), 'a'.repeat(501), '501'));
    boundary('👍 counts 4: 125 × 👍', text('👍'.repeat(125), '👍'.repeat(126), '504'));
    boundary(
      'a skin-toned 👍🏽 counts 8: 62 × 👍🏽 and 4 letters',
      text(`${'👍🏽'.repeat(62)}abcd`, `${'👍🏽'.repeat(62)}abcde`, '501'),
    );
    boundary('a ZWJ family 👨‍👩‍👧‍👦 counts 25: 20 families', text(FAMILY.repeat(20), `${FAMILY.repeat(20)}a`, '501'));
    boundary(
      'a keycap 1️⃣ counts 7: 71 keycaps and 3 letters',
      text(`${KEYCAP.repeat(71)}abc`, `${KEYCAP.repeat(71)}abcd`, '501'),
    );
    boundary(
      'a flag 🇩🇪 counts 8: 62 flags and 4 letters',
      text(`${'🇩🇪'.repeat(62)}abcd`, `${'🇩🇪'.repeat(62)}abcde`, '501'),
    );

    it('counts other multi-byte characters and combining sequences as one each', () => {
      expectPasses(row(platform, { text: 'é'.repeat(500) }));
      expectPasses(row(platform, { text: 'e\u0301'.repeat(500) }));
      expectFails(row(platform, { text: '日'.repeat(501) }), 'caption_too_long', 'text', '501');
    });
  });

  describe('links: at most 5 unique links, duplicates merged (links_too_many)', () => {
    const link = (i: number) => `https://shop${i}.example/autumn`;
    boundary('5 unique links, each repeated', {
      platform,
      at: () => ({ text: `${words(5, link)} again: ${words(5, link)}` }),
      past: () => ({ text: `${words(6, link)} again: ${words(5, link)}` }),
      code: 'links_too_many',
      field: 'text',
      says: '6',
    });

    it('merges the same address written with sentence punctuation after it or a differently cased host', () => {
      const same = `New: ${link(1)}. Also ${link(1)}, and (${link(1)}) or HTTPS://SHOP1.EXAMPLE/autumn!`;
      const text = `${same} ${words(4, (i) => link(i + 1))}`;
      expectPasses(row(platform, { text }));
      expectFails(row(platform, { text: `${text} ${link(9)}.` }), 'links_too_many', 'text', '6');
    });

    it('counts links up to 50, then says "more than 50" (80,000 links cost no more)', () => {
      expectFails(row(platform, { text: words(50, link) }), 'links_too_many', 'text', '50 different');
      expectFails(row(platform, { text: words(80_000, link) }), 'links_too_many', 'text', 'more than 50 different');
    });
  });

  describe("perPlatform.threads.link: an https address, on text posts only, counted with the text's links", () => {
    const withLink = (link: string, extra: Post = {}): Post => ({ perPlatform: { threads: { link } }, ...extra });
    const link = (i: number) => `https://shop${i}.example/autumn`;
    it('passes a text post with an https link, with or without a topic tag', () => {
      expectPasses(row(platform, withLink('https://shop.acme.example/autumn')));
      expectPasses(
        row(platform, {
          text: 'Autumn sale',
          perPlatform: { threads: { topicTag: 'Fashion', link: 'https://shop.acme.example/autumn' } },
        }),
      );
    });
    it.each(['http://shop.acme.example/autumn', 'shop.acme.example/autumn', 'https://'])(
      'fails %s (setting_invalid)',
      (bad) => {
        expectFails(row(platform, withLink(bad)), 'setting_invalid', 'perPlatform.threads.link', 'https');
      },
    );
    it('fails a link on a post with a file: threads attaches links to text posts only (setting_invalid)', () => {
      const r = row(platform, withLink('https://shop.acme.example/autumn', { media: [file()] }));
      expectFails(r, 'setting_invalid', 'perPlatform.threads.link', 'text posts only');
      expect(codes(r)).toEqual(['setting_invalid']);
    });
    boundary('4 links in the text and another attached (links_too_many)', {
      platform,
      at: () => withLink(link(5), { text: words(4, link) }),
      past: () => withLink(link(6), { text: words(5, link) }),
      code: 'links_too_many',
      field: 'perPlatform.threads.link',
      says: '6',
    });
    it('counts an attached link that the text also holds once', () =>
      expectPasses(row(platform, withLink(link(1), { text: words(5, link) }))));
  });

  describe('one topic tag per post: perPlatform.threads.topicTag and #tags together (topic_tags_too_many)', () => {
    boundary('topicTag alone', {
      platform,
      at: () => ({ text: 'Autumn sale', perPlatform: { threads: { topicTag: 'Fashion' } } }),
      past: () => ({ text: 'Autumn #sale', perPlatform: { threads: { topicTag: 'Fashion' } } }),
      code: 'topic_tags_too_many',
      field: 'perPlatform.threads.topicTag',
      says: '2 topics',
    });
    boundary('one #tag in the text', {
      platform,
      at: () => ({ text: 'Autumn #sale' }),
      past: () => ({ text: 'Autumn #sale #fashion' }),
      code: 'topic_tags_too_many',
      field: '#tags in text',
      says: '2 topics',
    });

    it('counts topics up to 10, then says "more than 10"', () => {
      expectFails(row(platform, { text: '#a '.repeat(100_000) }), 'topic_tags_too_many', 'text', 'more than 10 topics');
    });
  });

  describe('topicTag: 1 to 50 characters without . or & (setting_invalid)', () => {
    const tag = (topicTag: string): Post => ({ text: 'Autumn sale', perPlatform: { threads: { topicTag } } });
    boundary('50 characters', {
      platform,
      at: () => tag('T'.repeat(50)),
      past: () => tag('T'.repeat(51)),
      code: 'setting_invalid',
      field: 'perPlatform.threads.topicTag',
    });
    it.each(['', 'Food.Drink', 'Salt & Pepper'])('refuses "%s"', (bad) =>
      expectFails(row(platform, tag(bad)), 'setting_invalid', 'perPlatform.threads.topicTag'),
    );
  });

  describe('carousel: 2 to 20 files (carousel_count)', () => {
    boundary('20 files', {
      platform,
      at: () => ({ media: many(20) }),
      past: () => ({ media: many(21) }),
      code: 'carousel_count',
      field: 'mediaIds',
      says: '21',
    });
    it('accepts 2 files, the smallest carousel', () => expectPasses(row(platform, { media: many(2) })));
  });

  boundary('video: at most 5 minutes (video_too_long)', {
    platform,
    at: () => ({ media: [video(300)] }),
    past: () => ({ media: [video(300.1)] }),
    code: 'video_too_long',
    field: 'mediaIds[0]',
    says: '5 minutes 0.1 seconds',
  });
  boundary('video: at most 1 GB (video_too_large)', {
    platform,
    at: () => ({ media: [video(60, { size: 1024 * MB })] }),
    past: () => ({ media: [video(60, { size: 1024 * MB + 1 })] }),
    code: 'video_too_large',
    field: 'mediaIds[0]',
    says: `${1024 * MB + 1} bytes`,
  });
  boundary('image: at most 8 MB (image_too_large)', {
    platform,
    at: () => ({ media: [file({ size: 8 * MB })] }),
    past: () => ({ media: [file({ size: 8 * MB + 1 })] }),
    code: 'image_too_large',
    field: 'mediaIds[0]',
    says: `${8 * MB + 1} bytes`,
  });
  boundary('image: aspect up to 10:1 (aspect_unsupported)', {
    platform,
    at: () => ({ media: [file({ width: 3200, height: 320 }), file({ width: 320, height: 3200 })] }),
    past: () => ({ media: [file(), file({ width: 320, height: 3201 })] }),
    code: 'aspect_unsupported',
    field: 'mediaIds[1]',
  });
  boundary('a post needs text or a file (text_required)', {
    platform,
    at: () => ({ text: '', media: [file()] }),
    past: () => ({ text: '  ' }),
    code: 'text_required',
    field: 'text',
  });
});

// ------------------------------------------------------------------------------------------ youtube
describe('youtube', () => {
  const platform = 'youtube';
  /** A valid youtube post: one video, a title, visibility and category. */
  const yt = (extra: Post = {}): Post => ({
    title: 'Autumn collection 2026',
    media: [video(120)],
    perPlatform: { youtube: { visibility: 'unlisted', category: '22' } },
    ...extra,
  });

  describe('title: at most 100 characters, counted as code points (title_too_long)', () => {
    boundary('100 letters', {
      platform,
      at: () => yt({ title: 'a'.repeat(100) }),
      past: () => yt({ title: 'a'.repeat(101) }),
      code: 'title_too_long',
      field: 'title',
      says: '101',
    });
    boundary('100 emoji (200 UTF-16 units, 400 bytes)', {
      platform,
      at: () => yt({ title: '😀'.repeat(100) }),
      past: () => yt({ title: '😀'.repeat(101) }),
      code: 'title_too_long',
      field: 'title',
      says: '101',
    });
  });

  describe('title is required for youtube targets (youtube_title_required)', () => {
    it('fails without a title, or with a blank one', () => {
      const { title: _, ...noTitle } = yt();
      expectFails(row(platform, noTitle), 'youtube_title_required', 'title');
      expectFails(row(platform, yt({ title: '   ' })), 'youtube_title_required', 'title');
    });
    it('passes with a one-character title', () => expectPasses(row(platform, yt({ title: 'A' }))));
  });

  describe('title and description may not contain < or > (forbidden_chars)', () => {
    it('passes other punctuation', () =>
      expectPasses(
        row(platform, yt({ title: 'Q&A: "fit" / size = 2', text: 'Prices: 30% off & more, "today" only' })),
      ));
    it.each([
      ['title', 'Sale <today>'],
      ['title', 'Size > 40'],
      ['text', 'Use <b>bold</b>'],
      ['text', 'a > b'],
    ])('fails in %s: %s', (field, value) => {
      expectFails(row(platform, yt({ [field]: value })), 'forbidden_chars', field);
    });
  });

  describe('description: at most 5000 UTF-8 bytes (caption_too_long)', () => {
    boundary('2500 × é (2 bytes each)', {
      platform,
      at: () => yt({ text: 'é'.repeat(2500) }),
      past: () => yt({ text: `${'é'.repeat(2500)}a` }),
      code: 'caption_too_long',
      field: 'text',
      says: '5001',
    });
    boundary('5000 ASCII characters', {
      platform,
      at: () => yt({ text: 'a'.repeat(5000) }),
      past: () => yt({ text: 'a'.repeat(5001) }),
      code: 'caption_too_long',
      field: 'text',
      says: '5001',
    });
  });

  describe('tags: 500 for the whole list, commas counted, a tag with a space 2 more (tags_too_long)', () => {
    boundary('Foo-Baz (7) + comma + 492', {
      platform,
      at: () => yt({ tags: ['Foo-Baz', 'z'.repeat(492)] }),
      past: () => yt({ tags: ['Foo-Baz', 'z'.repeat(493)] }),
      code: 'tags_too_long',
      field: 'tags',
      says: '501',
    });
    boundary('Foo Baz (9 with its quotes) + comma + 490', {
      platform,
      at: () => yt({ tags: ['Foo Baz', 'z'.repeat(490)] }),
      past: () => yt({ tags: ['Foo Baz', 'z'.repeat(492)] }),
      code: 'tags_too_long',
      field: 'tags',
      says: '502',
    });
    const tags = (last: string) => [...Array.from({ length: 99 }, (_, i) => `t${String(i).padStart(3, '0')}`), last];
    boundary('99 tags of 4 and one of 5 (401 + 99 commas)', {
      platform,
      at: () => yt({ tags: tags('fifth') }),
      past: () => yt({ tags: tags('sixth!') }),
      code: 'tags_too_long',
      field: 'tags',
      says: '501',
    });
  });

  describe('perPlatform.youtube: visibility and category are optional and checked (setting_invalid)', () => {
    it.each(['public', 'unlisted', 'private'])('passes %s with a numeric category', (visibility) => {
      expectPasses(row(platform, yt({ perPlatform: { youtube: { visibility, category: '10' } } })));
    });
    it("fills in YouTube's own defaults for what the post leaves out, and names them", () => {
      const { perPlatform: _, ...without } = yt();
      const r = row(platform, without);
      expectPasses(r);
      expect(r.content.perPlatform).toEqual({ visibility: 'public', category: '22' });
      expect(r.defaulted).toEqual(['visibility', 'category']);
      const given = row(platform, yt({ perPlatform: { youtube: { visibility: 'unlisted' } } }));
      expect(given.content.perPlatform).toEqual({ visibility: 'unlisted', category: '22' });
      expect(given.defaulted).toEqual(['category']);
    });
    it('answers a wrong type or an unknown setting as row issues naming each setting', () => {
      const wrong = row(
        platform,
        yt({ perPlatform: { youtube: { visibility: 5, madeForKids: 'yes', colour: 'red' } } }),
      );
      expect(wrong.ok).toBe(false);
      expect(wrong.issues.map((i) => [i.code, i.message])).toEqual([
        ['setting_invalid', 'perPlatform.youtube.colour is not a youtube setting.'],
        ['setting_invalid', 'perPlatform.youtube.visibility must be string.'],
        ['setting_invalid', 'perPlatform.youtube.madeForKids must be boolean.'],
      ]);
      expectFails(
        row(platform, yt({ perPlatform: { youtube: 'public' as never } })),
        'setting_invalid',
        'perPlatform.youtube',
      );
    });
    it('fails an unknown visibility', () =>
      expectFails(
        row(platform, yt({ perPlatform: { youtube: { visibility: 'friends', category: '22' } } })),
        'setting_invalid',
        'perPlatform.youtube.visibility',
      ));
    it('fails a category that is not an id', () =>
      expectFails(
        row(platform, yt({ perPlatform: { youtube: { visibility: 'public', category: 'Music' } } })),
        'setting_invalid',
        'perPlatform.youtube.category',
      ));
  });

  describe('media: exactly one video, up to 12 hours (media_kind, video_too_long)', () => {
    it('fails without media', () => expectFails(row(platform, yt({ media: [] })), 'media_kind', 'mediaIds'));
    it('fails with an image', () => expectFails(row(platform, yt({ media: [file()] })), 'media_kind', 'mediaIds'));
    it('fails with two videos', () =>
      expectFails(row(platform, yt({ media: many(2, { kind: 'video' }) })), 'media_kind', 'mediaIds'));
    boundary('12 hours', {
      platform,
      at: () => yt({ media: [video(12 * 3600)] }),
      past: () => yt({ media: [video(12 * 3600 + 1)] }),
      code: 'video_too_long',
      field: 'mediaIds[0]',
    });
  });

  describe('perPlatform.youtube.thumbnailMediaId: a ready JPEG or PNG of this workspace, at most 2 MB', () => {
    const field = 'perPlatform.youtube.thumbnailMediaId';
    const thumbnail = (image: MediaFacts, files = [image]) =>
      yt({ files, perPlatform: { youtube: { visibility: 'unlisted', category: '22', thumbnailMediaId: image.id } } });

    it('passes a ready JPEG and a ready PNG', () => {
      expectPasses(row(platform, thumbnail(file())));
      expectPasses(row(platform, thumbnail(file({ mime: 'image/png' }))));
    });
    boundary('2 MB (image_too_large)', {
      platform,
      at: () => thumbnail(file({ size: 2 * MB })),
      past: () => thumbnail(file({ size: 2 * MB + 1 })),
      code: 'image_too_large',
      field,
      says: `${2 * MB + 1} bytes`,
    });
    it('fails an id that names no file of the workspace (setting_invalid)', () => {
      const r = row(platform, thumbnail(file(), []));
      expectFails(r, 'setting_invalid', field, 'is not a file of this workspace');
      expect(codes(r)).toEqual(['setting_invalid']);
    });
    it.each([
      ['processing', { status: 'processing' }],
      ['failed', { status: 'failed' }],
      ['whose bytes were deleted after going live', { bytesDeletedAt: '2026-11-20T10:00:00.000Z' }],
    ] as [string, Partial<MediaFacts>][])('fails an image %s (media_not_ready)', (_what, shape) => {
      const r = row(platform, thumbnail(file(shape)));
      expectFails(r, 'media_not_ready', field);
      expect(codes(r)).toEqual(['media_not_ready']);
    });
    it.each([
      ['a video', { kind: 'video' }, 'MP4 video'],
      ['a GIF', { mime: 'image/gif' }, 'GIF image'],
      ['a WebP', { mime: 'image/webp' }, 'WebP image'],
    ] as [string, Partial<MediaFacts>, string][])('fails %s (media_kind)', (_what, shape, says) => {
      expectFails(row(platform, thumbnail(file(shape))), 'media_kind', field, says);
    });
  });
});

// ---------------------------------------------------------------------------------------- instagram
describe('instagram', () => {
  const platform = 'instagram';
  const ig = (extra: Post = {}): Post => ({ media: [file()], ...extra });
  const as = (contentType: string) => ({ instagram: { contentType } });

  describe('caption: at most 2,200 characters (caption_too_long)', () => {
    boundary('2200 letters', {
      platform,
      at: () => ig({ text: 'a'.repeat(2200) }),
      past: () => ig({ text: 'a'.repeat(2201) }),
      code: 'caption_too_long',
      field: 'text',
      says: '2201',
    });
    boundary('2200 emoji, one character each', {
      platform,
      at: () => ig({ text: '😀'.repeat(2200) }),
      past: () => ig({ text: '😀'.repeat(2201) }),
      code: 'caption_too_long',
      field: 'text',
      says: '2201',
    });
  });

  boundary('at most 30 hashtags (hashtags_too_many)', {
    platform,
    at: () => ig({ text: `Autumn ${words(30, (i) => `#tag${i}`)}` }),
    past: () => ig({ text: `Autumn ${words(31, (i) => `#tag${i}`)}` }),
    code: 'hashtags_too_many',
    field: 'text',
    says: '31',
  });
  boundary('at most 20 mentions, an e-mail address not one (mentions_too_many)', {
    platform,
    at: () => ig({ text: `Thanks ${words(20, (i) => `@friend${i}`)} (mail: shop@acme.example)` }),
    past: () => ig({ text: `Thanks ${words(21, (i) => `@friend${i}`)}` }),
    code: 'mentions_too_many',
    field: 'text',
    says: '21',
  });
  it('counts hashtags and mentions up to ten times their limits, then says "more than"', () => {
    expectFails(row(platform, ig({ text: words(300, (i) => `#t${i}`) })), 'hashtags_too_many', 'text', '300');
    expectFails(row(platform, ig({ text: '#t '.repeat(100_000) })), 'hashtags_too_many', 'text', 'more than 300');
    expectFails(row(platform, ig({ text: '@a '.repeat(100_000) })), 'mentions_too_many', 'text', 'more than 200');
  });

  describe('carousel: 2 to 10 files (carousel_count)', () => {
    boundary('10 files', {
      platform,
      at: () => ({ media: many(10) }),
      past: () => ({ media: many(11) }),
      code: 'carousel_count',
      field: 'mediaIds',
      says: '11',
    });
    boundary('2 files', {
      platform,
      at: () => ({ media: many(2), perPlatform: as('carousel') }),
      past: () => ({ media: many(1), perPlatform: as('carousel') }),
      code: 'carousel_count',
      field: 'mediaIds',
      says: 'holds 1 file;',
    });
  });

  describe('feed image aspect: from 4:5 to 1.91:1 (aspect_unsupported)', () => {
    boundary('4:5 portrait: 1080×1350', {
      platform,
      at: () => ig({ media: [file({ width: 1080, height: 1350 })] }),
      past: () => ig({ media: [file({ width: 1080, height: 1351 })] }),
      code: 'aspect_unsupported',
      field: 'mediaIds[0]',
      says: '1080×1351',
    });
    boundary('1.91:1 landscape: 1910×1000', {
      platform,
      at: () => ig({ media: [file({ width: 1910, height: 1000 })] }),
      past: () => ig({ media: [file({ width: 1911, height: 1000 })] }),
      code: 'aspect_unsupported',
      field: 'mediaIds[0]',
      says: '1911×1000',
    });
    it('checks every image of a carousel', () =>
      expectFails(
        row(platform, { media: [file(), file({ width: 1080, height: 1920 })] }),
        'aspect_unsupported',
        'mediaIds[1]',
      ));
  });

  boundary('image: at most 8 MB (image_too_large)', {
    platform,
    at: () => ig({ media: [file({ size: 8 * MB })] }),
    past: () => ig({ media: [file({ size: 8 * MB + 1 })] }),
    code: 'image_too_large',
    field: 'mediaIds[0]',
    says: `${8 * MB + 1} bytes`,
  });

  describe('reel: 3 seconds to 15 minutes, at most 300 MB (video_too_short, video_too_long, video_too_large)', () => {
    boundary('3 seconds', {
      platform,
      at: () => ({ media: [video(3)] }),
      past: () => ({ media: [video(2.9)] }),
      code: 'video_too_short',
      field: 'mediaIds[0]',
      says: '2.9 seconds',
    });
    boundary('15 minutes', {
      platform,
      at: () => ({ media: [video(900)], perPlatform: as('reel') }),
      past: () => ({ media: [video(900.1)], perPlatform: as('reel') }),
      code: 'video_too_long',
      field: 'mediaIds[0]',
      says: '15 minutes 0.1 seconds',
    });
    boundary('300 MB', {
      platform,
      at: () => ({ media: [video(30, { size: 300 * MB })] }),
      past: () => ({ media: [video(30, { size: 300 * MB + 1 })] }),
      code: 'video_too_large',
      field: 'mediaIds[0]',
    });
  });

  describe('a story disappears after 24 hours and carries no text: video 3 to 60 seconds, image at most 8 MB', () => {
    const story = storyRules('instagram', 8);
    boundary('3 seconds (video_too_short)', {
      platform,
      at: () => story(video(3)),
      past: () => story(video(2.9)),
      code: 'video_too_short',
      field: 'mediaIds[0]',
    });
  });

  describe('media kind and count per content type (media_kind)', () => {
    it('fails a reel given an image', () =>
      expectFails(row(platform, ig({ perPlatform: as('reel') })), 'media_kind', 'mediaIds[0]'));
    it('fails a feed post given two files', () =>
      expectFails(row(platform, { media: many(2), perPlatform: as('feed') }), 'media_kind', 'mediaIds'));
    it('fails without media', () => expectFails(row(platform, {}), 'media_kind', 'mediaIds'));
    it('passes a feed image, a reel and a carousel of an image and a video', () => {
      expectPasses(row(platform, ig({ perPlatform: as('feed') })));
      expectPasses(row(platform, { media: [video(45)], perPlatform: as('reel') }));
      expectPasses(row(platform, { media: [file(), video(45)], perPlatform: as('carousel') }));
    });
  });

  it('contentType must be feed, reel, story or carousel (setting_invalid)', () => {
    expectFails(row(platform, ig({ perPlatform: as('igtv') })), 'setting_invalid', 'perPlatform.instagram.contentType');
  });
});

// ----------------------------------------------------------------------------------------- facebook
describe('facebook (Pages only)', () => {
  const platform = 'facebook';
  const as = (contentType: string, extra: Record<string, unknown> = {}) => ({ facebook: { contentType, ...extra } });

  it('takes contentType from the media when it is left out, and names it as a default', () => {
    const typeFor = (media: MediaFacts[]) => {
      const r = row(platform, { media });
      expectPasses(r);
      expect(r.defaulted).toEqual(['contentType']);
      return r.content.perPlatform.contentType;
    };
    expect(typeFor([])).toBe('text');
    expect(typeFor([file()])).toBe('photo');
    expect(typeFor(many(3))).toBe('photo');
    expect(typeFor([video(30)])).toBe('reel');
    expect(typeFor([video(300)])).toBe('video');
    expect(typeFor([video(30, { width: 1920, height: 1080 })])).toBe('video');
  });

  describe('reel: 3 to 90 seconds, 9:16 (video_too_short, video_too_long, aspect_unsupported)', () => {
    const reel = (seconds: number, shape: Partial<MediaFacts> = {}): Post => ({
      media: [video(seconds, shape)],
      perPlatform: as('reel'),
    });
    boundary('3 seconds', {
      platform,
      at: () => reel(3),
      past: () => reel(2.9),
      code: 'video_too_short',
      field: 'mediaIds[0]',
    });
    boundary('90 seconds', {
      platform,
      at: () => reel(90),
      past: () => reel(90.1),
      code: 'video_too_long',
      field: 'mediaIds[0]',
      says: '90.1 seconds',
    });
    boundary('9:16 (1080×1920); 1:1 is refused', {
      platform,
      at: () => reel(30),
      past: () => reel(30, { width: 1080, height: 1080 }),
      code: 'aspect_unsupported',
      field: 'mediaIds[0]',
      says: '1080×1080',
    });
    it('fails a reel given an image (media_kind)', () =>
      expectFails(row(platform, { media: [file()], perPlatform: as('reel') }), 'media_kind', 'mediaIds[0]'));
  });

  describe('link: an https address (setting_invalid)', () => {
    it('passes a link post with an https link', () =>
      expectPasses(row(platform, { perPlatform: as('link', { link: 'https://shop.acme.example/autumn' }) })));
    it.each(['http://shop.acme.example/autumn', 'shop.acme.example/autumn', 'https://', 'ftp://shop.acme.example'])(
      'fails %s',
      (link) => {
        expectFails(
          row(platform, { perPlatform: as('link', { link }) }),
          'setting_invalid',
          'perPlatform.facebook.link',
        );
      },
    );
    it('fails a link post without a link', () =>
      expectFails(row(platform, { perPlatform: as('link') }), 'setting_invalid', 'perPlatform.facebook.link'));
  });

  describe('text and link posts carry no file (media_kind, text_required)', () => {
    it('passes a text post', () => expectPasses(row(platform, { perPlatform: as('text') })));
    it('fails a text post with a file', () =>
      expectFails(row(platform, { media: [file()], perPlatform: as('text') }), 'media_kind', 'mediaIds'));
    it('fails a link post with a file', () =>
      expectFails(
        row(platform, { media: [file()], perPlatform: as('link', { link: 'https://shop.acme.example/' }) }),
        'media_kind',
        'mediaIds',
      ));
    it('fails a text post without text', () => expectFails(row(platform, { text: ' ' }), 'text_required', 'text'));
  });

  describe('a story disappears after 24 hours and carries no text: video up to 60 seconds, image up to 10 MB', () => {
    storyRules('facebook', 10);
  });

  describe('photo post: 1 to 10 images (carousel_count, media_kind)', () => {
    boundary('10 images', {
      platform,
      at: () => ({ media: many(10) }),
      past: () => ({ media: many(11) }),
      code: 'carousel_count',
      field: 'mediaIds',
      says: '11',
    });
    it('fails a photo post holding a video', () =>
      expectFails(row(platform, { media: [file(), video(10)], perPlatform: as('photo') }), 'media_kind', 'mediaIds'));
    it('fails a photo or video post without a file', () => {
      expectFails(row(platform, { perPlatform: as('photo') }), 'media_kind', 'mediaIds');
      expectFails(row(platform, { perPlatform: as('video') }), 'media_kind', 'mediaIds');
    });
    it('fails a video post given two files', () =>
      expectFails(
        row(platform, { media: many(2, { kind: 'video' }), perPlatform: as('video') }),
        'media_kind',
        'mediaIds',
      ));
  });

  it('contentType must be one of text, link, photo, video, reel, story (setting_invalid)', () => {
    expectFails(row(platform, { perPlatform: as('carousel') }), 'setting_invalid', 'perPlatform.facebook.contentType');
  });
});

// ------------------------------------------------------------------------------------------- tiktok
describe('tiktok: one video or 2 to 35 photos, a privacy level the person chose', () => {
  const platform = 'tiktok';
  const tt = (settings: Record<string, unknown> = {}) => ({
    tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE', ...settings },
  });

  it('a video seen by everyone passes; without a privacy level it fails (no default: setting_invalid)', () => {
    expectPasses(row(platform, { media: [video(30)], perPlatform: tt() }));
    expectFails(
      row(platform, { media: [video(30)] }),
      'setting_invalid',
      'perPlatform.tiktok.privacyLevel',
      'required',
    );
    expectFails(
      row(platform, { media: [video(30)], perPlatform: { tiktok: { privacyLevel: 'FRIENDS' } } }),
      'setting_invalid',
      'perPlatform.tiktok.privacyLevel',
    );
  });
  boundary('the video caption is 2200 UTF-16 units (caption_too_long)', {
    platform,
    at: () => ({ media: [video(30)], perPlatform: tt(), text: '😀'.repeat(1100) }),
    past: () => ({ media: [video(30)], perPlatform: tt(), text: `${'😀'.repeat(1100)}a` }),
    code: 'caption_too_long',
    field: 'text',
    says: '2201',
  });
  boundary('a photo post takes 2 to 35 photos (carousel_count)', {
    platform,
    at: () => ({ media: many(35), perPlatform: tt() }),
    past: () => ({ media: many(36), perPlatform: tt() }),
    code: 'carousel_count',
    field: 'mediaIds',
    says: '2 to 35',
  });
  it('one photo alone is not a tiktok photo post (carousel_count)', () =>
    expectFails(row(platform, { media: many(1), perPlatform: tt() }), 'carousel_count', 'mediaIds'));
  boundary("a photo post's title is 90 UTF-16 units (title_too_long)", {
    platform,
    at: () => ({ media: many(2), perPlatform: tt(), title: '😀'.repeat(45) }),
    past: () => ({ media: many(2), perPlatform: tt(), title: `${'😀'.repeat(45)}a` }),
    code: 'title_too_long',
    field: 'title',
    says: '91',
  });
  boundary("a photo post's description is 4000 UTF-16 units (caption_too_long)", {
    platform,
    at: () => ({ media: many(2), perPlatform: tt(), text: '😀'.repeat(2000) }),
    past: () => ({ media: many(2), perPlatform: tt(), text: `${'😀'.repeat(2000)}a` }),
    code: 'caption_too_long',
    field: 'text',
    says: '4001',
  });
  boundary('a video lasts 3 seconds at least (video_too_short)', {
    platform,
    at: () => ({ media: [video(3)], perPlatform: tt() }),
    past: () => ({ media: [video(2.9)], perPlatform: tt() }),
    code: 'video_too_short',
    field: 'mediaIds[0]',
  });
  boundary('a photo is 20 MB at most (image_too_large)', {
    platform,
    at: () => ({ media: many(2, { size: 20 * MB }), perPlatform: tt() }),
    past: () => ({ media: [file(), file({ size: 20 * MB + 1 })], perPlatform: tt() }),
    code: 'image_too_large',
    field: 'mediaIds[1]',
  });
  it('no file, a mix of kinds, or a GIF is media_kind', () => {
    expectFails(row(platform, { perPlatform: tt() }), 'media_kind', 'mediaIds');
    expectFails(row(platform, { media: [video(30), file()], perPlatform: tt() }), 'media_kind', 'mediaIds');
    expectFails(
      row(platform, { media: [file(), file({ mime: 'image/gif' })], perPlatform: tt() }),
      'media_kind',
      'mediaIds[1]',
    );
  });
  it('settings of the other kind of post, a cover past the end and private branded content are setting_invalid', () => {
    expectFails(
      row(platform, { media: many(2), perPlatform: tt({ disableDuet: true }) }),
      'setting_invalid',
      'disableDuet',
    );
    expectFails(
      row(platform, { media: [video(30)], perPlatform: tt({ autoAddMusic: true }) }),
      'setting_invalid',
      'autoAddMusic',
    );
    expectPasses(row(platform, { media: [video(30)], perPlatform: tt({ coverTimestampMs: 30_000 }) }));
    expectFails(
      row(platform, { media: [video(30)], perPlatform: tt({ coverTimestampMs: 30_001 }) }),
      'setting_invalid',
      'coverTimestampMs',
    );
    expectFails(
      row(platform, { media: [video(30)], perPlatform: tt({ privacyLevel: 'SELF_ONLY', brandContent: true }) }),
      'setting_invalid',
      'brandContent',
    );
  });
});

// ------------------------------------------------------------------------------------------ bluesky

describe('bluesky: 300 graphemes, up to 4 images or one MP4 video, alt text per file', () => {
  const platform = 'bluesky';
  boundary('text is 300 graphemes, an emoji sequence counting one (caption_too_long)', {
    platform,
    at: () => ({ text: `${'🇩🇪'.repeat(100)}${'a'.repeat(200)}` }),
    past: () => ({ text: `${'🇩🇪'.repeat(100)}${'a'.repeat(201)}` }),
    code: 'caption_too_long',
    field: 'text',
    says: '301 graphemes',
  });
  boundary('text is 3,000 UTF-8 bytes too, which long emoji sequences reach first (caption_too_long)', {
    platform,
    at: () => ({ text: `${FAMILY.repeat(119)}${'a'.repeat(25)}` }),
    past: () => ({ text: `${FAMILY.repeat(119)}${'a'.repeat(26)}` }),
    code: 'caption_too_long',
    field: 'text',
    says: '3001 bytes',
  });
  it('a post needs text or a file (text_required)', () => {
    expectPasses(row(platform, { text: '', media: many(1) }));
    expectFails(row(platform, { text: '  ' }), 'text_required', 'text');
  });
  boundary('up to 4 images (carousel_count)', {
    platform,
    at: () => ({ media: many(4) }),
    past: () => ({ media: many(5) }),
    code: 'carousel_count',
    field: 'mediaIds',
    says: 'up to 4',
  });
  it('images over 2 MB pass: they are sent scaled down', () =>
    expectPasses(row(platform, { media: [file({ size: 30 * MB, mime: 'image/png' })] })));
  it('one video, not two, and not with images (media_kind)', () => {
    expectPasses(row(platform, { media: [video(30)] }));
    expectFails(row(platform, { media: [video(30), video(30)] }), 'media_kind', 'mediaIds', '2 videos');
    expectFails(row(platform, { media: [video(30), file()] }), 'media_kind', 'mediaIds', 'both kinds');
  });
  it('the video is MP4 (media_kind)', () =>
    expectFails(row(platform, { media: [video(30, { mime: 'video/quicktime' })] }), 'media_kind', 'mediaIds[0]'));
  boundary('a video lasts up to 3 minutes (video_too_long)', {
    platform,
    at: () => ({ media: [video(180)] }),
    past: () => ({ media: [video(180.1)] }),
    code: 'video_too_long',
    field: 'mediaIds[0]',
  });
  boundary('a video is up to 100 MB (video_too_large)', {
    platform,
    at: () => ({ media: [video(30, { size: 100_000_000 })] }),
    past: () => ({ media: [video(30, { size: 100_000_001 })] }),
    code: 'video_too_large',
    field: 'mediaIds[0]',
  });
  boundary('one alt text per file at most (setting_invalid)', {
    platform,
    at: () => ({ media: many(2), perPlatform: { bluesky: { altTexts: ['A coat.', 'A scarf.'] } } }),
    past: () => ({ media: many(2), perPlatform: { bluesky: { altTexts: ['A coat.', 'A scarf.', 'Boots.'] } } }),
    code: 'setting_invalid',
    field: 'perPlatform.bluesky.altTexts',
    says: '3 texts for 2 files',
  });
  boundary("an image's alt text is 2,000 graphemes (setting_invalid)", {
    platform,
    at: () => ({ media: many(1), perPlatform: { bluesky: { altTexts: ['é'.repeat(2000)] } } }),
    past: () => ({ media: many(1), perPlatform: { bluesky: { altTexts: ['é'.repeat(2001)] } } }),
    code: 'setting_invalid',
    field: 'perPlatform.bluesky.altTexts[0]',
  });
  boundary("a video's alt text is 1,000 graphemes (setting_invalid)", {
    platform,
    at: () => ({ media: [video(30)], perPlatform: { bluesky: { altTexts: ['a'.repeat(1000)] } } }),
    past: () => ({ media: [video(30)], perPlatform: { bluesky: { altTexts: ['a'.repeat(1001)] } } }),
    code: 'setting_invalid',
    field: 'perPlatform.bluesky.altTexts[0]',
  });
  it('alt texts are strings, 4 at most (setting_invalid from the contract)', () => {
    expectFails(
      row(platform, { media: many(1), perPlatform: { bluesky: { altTexts: 'A coat.' } } }),
      'setting_invalid',
      'perPlatform.bluesky.altTexts',
    );
    expectFails(
      row(platform, { media: many(4), perPlatform: { bluesky: { altTexts: ['a', 'b', 'c', 'd', 'e'] } } }),
      'setting_invalid',
      'perPlatform.bluesky.altTexts',
    );
  });
});
