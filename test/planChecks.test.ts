// Plan checks through HTTP on both databases: every row issue code exactly at its limit (the row
// passes) and just past it (the row fails, the issue names the failing field). Limits come from the
// spec's Network limits and ../shared/notes/networks.md; each text limit is counted in the
// network's own unit.
import { DateTime, Settings } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, call, DATABASES, seedWorkspace, startHerald, type Seeded, type TestEnv } from './support/harness.ts';
import { seedMedia, type MediaShape } from './support/posts.ts';

const MB = 1024 * 1024;
const FAMILY = '👨\u200D👩\u200D👧\u200D👦'; // 4 emoji joined by 3 ZWJ: 4×4 + 3×3 = 25 UTF-8 bytes
const KEYCAP = '1\uFE0F\u20E3'; // 1️⃣: 1 + 3 + 3 = 7 UTF-8 bytes

interface Issue { code: string; message: string; hint: string }
interface Row { accountId: string; platform: string; publishAt: string | null; ok: boolean; issues: Issue[]; settings: Record<string, unknown> }
interface Plan { ok: boolean; status: string; rows: Row[]; quota: { used: number; limit: number; requested: number }; table: string }
type Body = Record<string, unknown>;

/** A local time in Berlin `days` ahead (the workspace zone), as `when` takes it. */
function ahead(days: number, time = '12:00') {
  return { publishAt: `${DateTime.now().setZone('Europe/Berlin').plus({ days }).toFormat('yyyy-MM-dd')}T${time}`, timezone: 'Europe/Berlin' };
}

/** `when` written in UTC for an instant, to the minute. */
const utcWhen = (at: DateTime) => ({ publishAt: at.toUTC().toFormat("yyyy-MM-dd'T'HH:mm"), timezone: 'UTC' });

const codes = (row: Row) => row.issues.map((i) => i.code);
const words = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i + 1)).join(' ');

describe.each(DATABASES)('plan checks on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  const acc = {} as Record<'youtube' | 'instagram' | 'facebook' | 'threads' | 'tiktok' | 'expired' | 'revoked', string>;
  const names = new Map<string, string>();

  beforeAll(async () => {
    env = await startHerald(kind);
    ws = await seedWorkspace(env, { plan: 'agency', tz: 'Europe/Berlin' });
    const add = async (key: keyof typeof acc, platform: 'youtube' | 'instagram' | 'facebook' | 'threads' | 'tiktok', name: string,
      status: 'ok' | 'expired' | 'revoked' = 'ok') => {
      acc[key] = await addAccount(env, ws.workspaceId, platform, name, status);
      names.set(acc[key], name);
    };
    await add('youtube', 'youtube', 'Acme Channel');
    await add('instagram', 'instagram', 'Acme Shop');
    await add('facebook', 'facebook', 'Acme Page');
    await add('threads', 'threads', 'Acme Threads');
    await add('tiktok', 'tiktok', 'Acme TikTok');
    await add('expired', 'threads', 'Old Threads', 'expired');
    await add('revoked', 'instagram', 'Old Shop', 'revoked');
  });
  afterAll(() => env.close());

  const media = (shape: MediaShape = {}) => seedMedia(env, ws.workspaceId, shape);
  const many = (n: number, shape: MediaShape = {}) => Promise.all(Array.from({ length: n }, () => media(shape)));
  const video = (durationSeconds: number, shape: MediaShape = {}) => media({ kind: 'video', durationSeconds, ...shape });

  /**
   * Plans through HTTP with a read key and checks what holds for every plan: `ok` is false when any
   * row fails, every issue has a message and a hint, and the table's line for a failing row shows
   * every failing code.
   */
  async function plan(accountIds: string[], body: Body = {}): Promise<Plan> {
    const res = await call(env, 'post', '/v1/posts/plan', { key: ws.readKey,
      body: { targets: { accountIds }, mediaIds: [], text: 'Autumn sale: 30% off until Sunday.', when: ahead(3), ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const result = res.body as Plan;
    expect(result.ok).toBe(result.rows.every((r) => r.ok));
    const lines = result.table.split('\n');
    for (const row of result.rows) {
      for (const issue of row.issues) {
        expect(issue.message.length, issue.code).toBeGreaterThan(10);
        expect(issue.hint.length, issue.code).toBeGreaterThan(10);
      }
      const line = lines.find((l) => l.startsWith(`${names.get(row.accountId)} `));
      expect(line, result.table).toBeDefined();
      if (!row.ok) for (const issue of row.issues.filter((i) => i.code !== 'time_ambiguous')) expect(line).toContain(`${issue.code}: ${issue.message}`);
      else expect(line).toMatch(/ ok( \(.*\))?(; by default .*)?$/);
    }
    return result;
  }

  async function row(account: string, body: Body = {}): Promise<Row> {
    const result = await plan([account], body);
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0]!.accountId).toBe(account);
    return result.rows[0]!;
  }

  function expectPasses(r: Row) {
    expect(r.issues, JSON.stringify(r.issues)).toEqual([]);
    expect(r.ok).toBe(true);
  }

  function expectFails(r: Row, code: string, field: string, says?: string) {
    expect(r.ok).toBe(false);
    const found = r.issues.find((i) => i.code === code);
    expect(found, `${code} in ${JSON.stringify(r.issues)}`).toBeDefined();
    expect(found!.message).toContain(field);
    if (says) expect(found!.message).toContain(says);
  }

  /** One rule's boundary: `at` passes with no issue at all, `past` fails with `code` naming `field`. */
  function boundary(name: string, c: { account: () => string; at: () => Body | Promise<Body>; past: () => Body | Promise<Body>;
    code: string; field: string; says?: string }) {
    describe(name, () => {
      it('passes exactly at the limit', async () => expectPasses(await row(c.account(), await c.at())));
      it(`fails just past it with ${c.code}, naming ${c.field}`, async () => expectFails(await row(c.account(), await c.past()), c.code, c.field, c.says));
    });
  }

  // ------------------------------------------------------------------------------------ threads
  describe('threads', () => {
    const threads = () => acc.threads;

    describe('text: at most 500, counted in graphemes with each emoji charged its UTF-8 bytes (caption_too_long)', () => {
      boundary('plain characters: 500', { account: threads, at: () => ({ text: 'a'.repeat(500) }), past: () => ({ text: 'a'.repeat(501) }),
        code: 'caption_too_long', field: 'text', says: '501' });
      boundary('👍 counts 4: 125 × 👍', { account: threads, at: () => ({ text: '👍'.repeat(125) }), past: () => ({ text: '👍'.repeat(126) }),
        code: 'caption_too_long', field: 'text', says: '504' });
      boundary('a skin-toned 👍🏽 counts 8: 62 × 👍🏽 and 4 letters', { account: threads, at: () => ({ text: `${'👍🏽'.repeat(62)}abcd` }),
        past: () => ({ text: `${'👍🏽'.repeat(62)}abcde` }), code: 'caption_too_long', field: 'text', says: '501' });
      boundary('a ZWJ family 👨‍👩‍👧‍👦 counts 25: 20 families', { account: threads, at: () => ({ text: FAMILY.repeat(20) }),
        past: () => ({ text: `${FAMILY.repeat(20)}a` }), code: 'caption_too_long', field: 'text', says: '501' });
      boundary('a keycap 1️⃣ counts 7: 71 keycaps and 3 letters', { account: threads, at: () => ({ text: `${KEYCAP.repeat(71)}abc` }),
        past: () => ({ text: `${KEYCAP.repeat(71)}abcd` }), code: 'caption_too_long', field: 'text', says: '501' });
      boundary('a flag 🇩🇪 counts 8: 62 flags and 4 letters', { account: threads, at: () => ({ text: `${'🇩🇪'.repeat(62)}abcd` }),
        past: () => ({ text: `${'🇩🇪'.repeat(62)}abcde` }), code: 'caption_too_long', field: 'text', says: '501' });

      it('counts other multi-byte characters and combining sequences as one each', async () => {
        expectPasses(await row(acc.threads, { text: 'é'.repeat(500) }));
        expectPasses(await row(acc.threads, { text: 'e\u0301'.repeat(500) }));
        expectFails(await row(acc.threads, { text: '日'.repeat(501) }), 'caption_too_long', 'text', '501');
      });
    });

    describe('links: at most 5 unique links, duplicates merged (links_too_many)', () => {
      const link = (i: number) => `https://shop${i}.example/autumn`;
      boundary('5 unique links, each repeated', { account: threads,
        at: () => ({ text: `${words(5, link)} again: ${words(5, link)}` }),
        past: () => ({ text: `${words(6, link)} again: ${words(5, link)}` }), code: 'links_too_many', field: 'text', says: '6' });

      it('merges the same address written with sentence punctuation after it or a differently cased host', async () => {
        const text = `New: ${link(1)}. Also ${link(1)}, and (${link(1)}) or HTTPS://SHOP1.EXAMPLE/autumn! ${words(4, (i) => link(i + 1))}`;
        expectPasses(await row(acc.threads, { text }));
        expectFails(await row(acc.threads, { text: `${text} ${link(9)}.` }), 'links_too_many', 'text', '6');
      });
    });

    describe('perPlatform.threads.link: an https address, on text posts only, counted with the text\'s links', () => {
      const withLink = (link: string, extra: Body = {}) => ({ perPlatform: { threads: { link } }, ...extra });
      it('passes a text post with an https link, with or without a topic tag', async () => {
        expectPasses(await row(acc.threads, withLink('https://shop.acme.example/autumn')));
        expectPasses(await row(acc.threads, { text: 'Autumn sale', perPlatform: { threads: { topicTag: 'Fashion', link: 'https://shop.acme.example/autumn' } } }));
      });
      for (const link of ['http://shop.acme.example/autumn', 'shop.acme.example/autumn', 'https://']) {
        it(`fails ${link} (setting_invalid)`, async () => expectFails(await row(acc.threads, withLink(link)), 'setting_invalid', 'perPlatform.threads.link', 'https'));
      }
      it('fails a link on a post with a file: threads attaches links to text posts only (setting_invalid)', async () => {
        const r = await row(acc.threads, withLink('https://shop.acme.example/autumn', { mediaIds: [await media()] }));
        expectFails(r, 'setting_invalid', 'perPlatform.threads.link', 'text posts only');
        expect(codes(r)).toEqual(['setting_invalid']);
      });
      const link = (i: number) => `https://shop${i}.example/autumn`;
      boundary('4 links in the text and another attached (links_too_many)', { account: threads,
        at: () => withLink(link(5), { text: words(4, link) }), past: () => withLink(link(6), { text: words(5, link) }),
        code: 'links_too_many', field: 'perPlatform.threads.link', says: '6' });
      it('counts an attached link that the text also holds once', async () => expectPasses(await row(acc.threads, withLink(link(1), { text: words(5, link) }))));
    });

    describe('one topic tag per post: perPlatform.threads.topicTag and #tags together (topic_tags_too_many)', () => {
      boundary('topicTag alone', { account: threads, at: () => ({ text: 'Autumn sale', perPlatform: { threads: { topicTag: 'Fashion' } } }),
        past: () => ({ text: 'Autumn #sale', perPlatform: { threads: { topicTag: 'Fashion' } } }),
        code: 'topic_tags_too_many', field: 'perPlatform.threads.topicTag', says: '2 topics' });
      boundary('one #tag in the text', { account: threads, at: () => ({ text: 'Autumn #sale' }), past: () => ({ text: 'Autumn #sale #fashion' }),
        code: 'topic_tags_too_many', field: '#tags in text', says: '2 topics' });
    });

    describe('topicTag: 1 to 50 characters without . or & (setting_invalid)', () => {
      const tag = (topicTag: string) => ({ text: 'Autumn sale', perPlatform: { threads: { topicTag } } });
      boundary('50 characters', { account: threads, at: () => tag('T'.repeat(50)), past: () => tag('T'.repeat(51)),
        code: 'setting_invalid', field: 'perPlatform.threads.topicTag' });
      for (const bad of ['', 'Food.Drink', 'Salt & Pepper']) {
        it(`refuses "${bad}"`, async () => expectFails(await row(acc.threads, tag(bad)), 'setting_invalid', 'perPlatform.threads.topicTag'));
      }
    });

    describe('carousel: 2 to 20 files (carousel_count)', () => {
      boundary('20 files', { account: threads, at: async () => ({ mediaIds: await many(20) }), past: async () => ({ mediaIds: await many(21) }),
        code: 'carousel_count', field: 'mediaIds', says: '21' });
      it('accepts 2 files, the smallest carousel', async () => expectPasses(await row(acc.threads, { mediaIds: await many(2) })));
    });

    boundary('video: at most 5 minutes (video_too_long)', { account: threads,
      at: async () => ({ mediaIds: [await video(300)] }), past: async () => ({ mediaIds: [await video(300.1)] }),
      code: 'video_too_long', field: 'mediaIds[0]', says: '5 minutes 0.1 seconds' });
    boundary('video: at most 1 GB (video_too_large)', { account: threads,
      at: async () => ({ mediaIds: [await video(60, { size: 1024 * MB })] }), past: async () => ({ mediaIds: [await video(60, { size: 1024 * MB + 1 })] }),
      code: 'video_too_large', field: 'mediaIds[0]', says: `${1024 * MB + 1} bytes` });
    boundary('image: at most 8 MB (image_too_large)', { account: threads,
      at: async () => ({ mediaIds: [await media({ size: 8 * MB })] }), past: async () => ({ mediaIds: [await media({ size: 8 * MB + 1 })] }),
      code: 'image_too_large', field: 'mediaIds[0]', says: `${8 * MB + 1} bytes` });
    boundary('image: aspect up to 10:1 (aspect_unsupported)', { account: threads,
      at: async () => ({ mediaIds: [await media({ width: 3200, height: 320 }), await media({ width: 320, height: 3200 })] }),
      past: async () => ({ mediaIds: [await media({ width: 1080, height: 1080 }), await media({ width: 320, height: 3201 })] }),
      code: 'aspect_unsupported', field: 'mediaIds[1]' });
    boundary('a post needs text or a file (text_required)', { account: threads,
      at: async () => ({ text: '', mediaIds: [await media()] }), past: () => ({ text: '  ' }), code: 'text_required', field: 'text' });
  });

  // ------------------------------------------------------------------------------------ youtube
  describe('youtube', () => {
    const youtube = () => acc.youtube;
    /** A valid youtube post: one video, a title, visibility and category. */
    const yt = async (extra: Body = {}): Promise<Body> => ({ title: 'Autumn collection 2026', mediaIds: [await video(120)],
      perPlatform: { youtube: { visibility: 'unlisted', category: '22' } }, ...extra });

    describe('title: at most 100 characters, counted as code points (title_too_long)', () => {
      boundary('100 letters', { account: youtube, at: () => yt({ title: 'a'.repeat(100) }), past: () => yt({ title: 'a'.repeat(101) }),
        code: 'title_too_long', field: 'title', says: '101' });
      boundary('100 emoji (200 UTF-16 units, 400 bytes)', { account: youtube, at: () => yt({ title: '😀'.repeat(100) }),
        past: () => yt({ title: '😀'.repeat(101) }), code: 'title_too_long', field: 'title', says: '101' });
    });

    describe('title is required for youtube targets (youtube_title_required)', () => {
      it('fails without a title, or with a blank one', async () => {
        const { title: _, ...noTitle } = await yt();
        expectFails(await row(acc.youtube, noTitle), 'youtube_title_required', 'title');
        expectFails(await row(acc.youtube, await yt({ title: '   ' })), 'youtube_title_required', 'title');
      });
      it('passes with a one-character title', async () => expectPasses(await row(acc.youtube, await yt({ title: 'A' }))));
    });

    describe('title and description may not contain < or > (forbidden_chars)', () => {
      it('passes other punctuation', async () => expectPasses(await row(acc.youtube, await yt({ title: 'Q&A: "fit" / size = 2', text: 'Prices: 30% off & more, "today" only' }))));
      for (const [field, value] of [['title', 'Sale <today>'], ['title', 'Size > 40'], ['text', 'Use <b>bold</b>'], ['text', 'a > b']] as const) {
        it(`fails with ${value} in ${field}`, async () => expectFails(await row(acc.youtube, await yt({ [field]: value })), 'forbidden_chars', field));
      }
    });

    describe('description: at most 5000 UTF-8 bytes (caption_too_long)', () => {
      boundary('2500 × é (2 bytes each)', { account: youtube, at: () => yt({ text: 'é'.repeat(2500) }), past: () => yt({ text: `${'é'.repeat(2500)}a` }),
        code: 'caption_too_long', field: 'text', says: '5001' });
      boundary('5000 ASCII characters', { account: youtube, at: () => yt({ text: 'a'.repeat(5000) }), past: () => yt({ text: 'a'.repeat(5001) }),
        code: 'caption_too_long', field: 'text', says: '5001' });
    });

    describe('tags: at most 500 for the whole list, commas counted, a tag with a space counts 2 more (tags_too_long)', () => {
      boundary('Foo-Baz (7) + comma + 492', { account: youtube, at: () => yt({ tags: ['Foo-Baz', 'z'.repeat(492)] }),
        past: () => yt({ tags: ['Foo-Baz', 'z'.repeat(493)] }), code: 'tags_too_long', field: 'tags', says: '501' });
      boundary('Foo Baz (9 with its quotes) + comma + 490', { account: youtube, at: () => yt({ tags: ['Foo Baz', 'z'.repeat(490)] }),
        past: () => yt({ tags: ['Foo Baz', 'z'.repeat(492)] }), code: 'tags_too_long', field: 'tags', says: '502' });
      const tags = (last: string) => [...Array.from({ length: 99 }, (_, i) => `t${String(i).padStart(3, '0')}`), last];
      boundary('99 tags of 4 and one of 5 (401 + 99 commas)', { account: youtube, at: () => yt({ tags: tags('fifth') }),
        past: () => yt({ tags: tags('sixth!') }), code: 'tags_too_long', field: 'tags', says: '501' });
    });

    describe('perPlatform.youtube: visibility and category are optional and checked (setting_invalid)', () => {
      it('passes public, unlisted and private with a numeric category', async () => {
        for (const visibility of ['public', 'unlisted', 'private']) {
          expectPasses(await row(acc.youtube, await yt({ perPlatform: { youtube: { visibility, category: '10' } } })));
        }
      });
      it('passes without perPlatform, with YouTube\'s own defaults in the row and its table line', async () => {
        const { perPlatform: _, ...without } = await yt();
        const result = await plan([acc.youtube], without);
        expectPasses(result.rows[0]!);
        expect(result.rows[0]!.settings).toEqual({ visibility: 'public', category: '22' });
        expect(result.table).toContain(' ok; by default visibility public, category 22 (People & Blogs)');
        const given = await plan([acc.youtube], await yt({ perPlatform: { youtube: { visibility: 'unlisted' } } }));
        expect(given.rows[0]!.settings).toEqual({ visibility: 'unlisted', category: '22' });
        expect(given.table).toContain(' ok; by default category 22 (People & Blogs)');
      });
      it('answers a wrong type or an unknown setting as a row issue, never a 400', async () => {
        const wrong = await row(acc.youtube, await yt({ perPlatform: { youtube: { visibility: 5, madeForKids: 'yes', colour: 'red' } } }));
        expect(wrong.ok).toBe(false);
        expect(wrong.issues.map((i) => [i.code, i.message])).toEqual([
          ['setting_invalid', 'perPlatform.youtube.colour is not a youtube setting.'],
          ['setting_invalid', 'perPlatform.youtube.visibility must be string.'],
          ['setting_invalid', 'perPlatform.youtube.madeForKids must be boolean.'],
        ]);
        expectFails(await row(acc.youtube, await yt({ perPlatform: { youtube: 'public' } })), 'setting_invalid', 'perPlatform.youtube');
      });
      it('fails an unknown visibility', async () => expectFails(await row(acc.youtube, await yt({ perPlatform: { youtube: { visibility: 'friends', category: '22' } } })),
        'setting_invalid', 'perPlatform.youtube.visibility'));
      it('fails a category that is not an id', async () => expectFails(await row(acc.youtube, await yt({ perPlatform: { youtube: { visibility: 'public', category: 'Music' } } })),
        'setting_invalid', 'perPlatform.youtube.category'));
    });

    describe('media: exactly one video (media_kind)', () => {
      it('fails without media', async () => expectFails(await row(acc.youtube, await yt({ mediaIds: [] })), 'media_kind', 'mediaIds'));
      it('fails with an image', async () => expectFails(await row(acc.youtube, await yt({ mediaIds: [await media()] })), 'media_kind', 'mediaIds'));
      it('fails with two videos', async () => expectFails(await row(acc.youtube, await yt({ mediaIds: await many(2, { kind: 'video' }) })), 'media_kind', 'mediaIds'));
      it('passes one video up to 12 hours', async () => expectPasses(await row(acc.youtube, await yt({ mediaIds: [await video(12 * 3600)] }))));
      it('fails a video over 12 hours (video_too_long)', async () => expectFails(await row(acc.youtube, await yt({ mediaIds: [await video(12 * 3600 + 1)] })),
        'video_too_long', 'mediaIds[0]'));
    });

    describe('perPlatform.youtube.thumbnailMediaId: a ready JPEG or PNG of this workspace, at most 2 MB', () => {
      const field = 'perPlatform.youtube.thumbnailMediaId';
      const thumbnail = async (thumbnailMediaId: string) => yt({ perPlatform: { youtube: { visibility: 'unlisted', category: '22', thumbnailMediaId } } });

      it('passes a ready JPEG and a ready PNG', async () => {
        expectPasses(await row(acc.youtube, await thumbnail(await media())));
        expectPasses(await row(acc.youtube, await thumbnail(await media({ mime: 'image/png' }))));
      });
      boundary('2 MB (image_too_large)', { account: youtube, at: async () => thumbnail(await media({ size: 2 * MB })),
        past: async () => thumbnail(await media({ size: 2 * MB + 1 })), code: 'image_too_large', field, says: `${2 * MB + 1} bytes` });

      it('answers a missing id and another workspace\'s id alike (setting_invalid), telling nothing of the other file', async () => {
        const other = await seedWorkspace(env, { plan: 'agency' });
        const foreign = await seedMedia(env, other.workspaceId);
        const missing = 'med_doesNotExist0';
        const foreignRow = await row(acc.youtube, await thumbnail(foreign));
        expectFails(foreignRow, 'setting_invalid', `${field} (${foreign})`, 'is not a file of this workspace');
        expect(codes(foreignRow)).toEqual(['setting_invalid']);
        const missingRow = await row(acc.youtube, await thumbnail(missing));
        expect(JSON.stringify(foreignRow.issues).replaceAll(foreign, 'ID')).toBe(JSON.stringify(missingRow.issues).replaceAll(missing, 'ID'));
      });

      for (const [what, shape] of [['processing', { status: 'processing' }], ['failed', { status: 'failed' }],
        ['whose bytes were deleted after going live', { bytesDeletedAt: new Date().toISOString() }]] as [string, MediaShape][]) {
        it(`fails an image ${what} (media_not_ready)`, async () => {
          const r = await row(acc.youtube, await thumbnail(await media(shape)));
          expectFails(r, 'media_not_ready', field);
          expect(codes(r)).toEqual(['media_not_ready']);
        });
      }

      for (const [what, shape, says] of [['a video', { kind: 'video' }, 'MP4 video'], ['a GIF', { mime: 'image/gif' }, 'GIF image'],
        ['a WebP', { mime: 'image/webp' }, 'WebP image']] as [string, MediaShape, string][]) {
        it(`fails ${what} (media_kind)`, async () => expectFails(await row(acc.youtube, await thumbnail(await media(shape))), 'media_kind', field, says));
      }

      it('stops a create as it stops a plan: 422 checks_failed, nothing created', async () => {
        const body = { targets: { accountIds: [acc.youtube] }, text: 'Autumn', when: ahead(3), confirm: true, ...(await thumbnail('med_doesNotExist0')) };
        const res = await call(env, 'post', '/v1/posts', { key: ws.writeKey, body });
        expect(res.status).toBe(422);
        expect(res.body.code).toBe('checks_failed');
        expect(res.body.rows[0].issues.map((i: Issue) => i.code)).toEqual(['setting_invalid']);
        const queued = await call(env, 'get', `/v1/posts?accountId=${acc.youtube}`, { key: ws.readKey });
        expect(queued.body.posts).toEqual([]);
      });
    });
  });

  // ---------------------------------------------------------------------------------- instagram
  describe('instagram', () => {
    const instagram = () => acc.instagram;
    const image = (shape: MediaShape = {}) => media({ kind: 'image', width: 1080, height: 1080, ...shape });
    const ig = async (extra: Body = {}): Promise<Body> => ({ mediaIds: [await image()], ...extra });
    const as = (contentType: string) => ({ instagram: { contentType } });

    describe('caption: at most 2,200 characters (caption_too_long)', () => {
      boundary('2200 letters', { account: instagram, at: () => ig({ text: 'a'.repeat(2200) }), past: () => ig({ text: 'a'.repeat(2201) }),
        code: 'caption_too_long', field: 'text', says: '2201' });
      boundary('2200 emoji, one character each', { account: instagram, at: () => ig({ text: '😀'.repeat(2200) }), past: () => ig({ text: '😀'.repeat(2201) }),
        code: 'caption_too_long', field: 'text', says: '2201' });
    });

    boundary('at most 30 hashtags (hashtags_too_many)', { account: instagram,
      at: () => ig({ text: `Autumn ${words(30, (i) => `#tag${i}`)}` }), past: () => ig({ text: `Autumn ${words(31, (i) => `#tag${i}`)}` }),
      code: 'hashtags_too_many', field: 'text', says: '31' });
    boundary('at most 20 mentions (mentions_too_many)', { account: instagram,
      at: () => ig({ text: `Thanks ${words(20, (i) => `@friend${i}`)} (mail: shop@acme.example)` }),
      past: () => ig({ text: `Thanks ${words(21, (i) => `@friend${i}`)}` }), code: 'mentions_too_many', field: 'text', says: '21' });

    describe('carousel: 2 to 10 files (carousel_count)', () => {
      boundary('10 files', { account: instagram, at: async () => ({ mediaIds: await many(10) }), past: async () => ({ mediaIds: await many(11) }),
        code: 'carousel_count', field: 'mediaIds', says: '11' });
      boundary('2 files', { account: instagram, at: async () => ({ mediaIds: await many(2), perPlatform: as('carousel') }),
        past: async () => ({ mediaIds: await many(1), perPlatform: as('carousel') }), code: 'carousel_count', field: 'mediaIds', says: 'holds 1 file;' });
    });

    describe('feed image aspect: from 4:5 to 1.91:1 (aspect_unsupported)', () => {
      boundary('4:5 portrait: 1080×1350', { account: instagram, at: async () => ig({ mediaIds: [await image({ width: 1080, height: 1350 })] }),
        past: async () => ig({ mediaIds: [await image({ width: 1080, height: 1351 })] }), code: 'aspect_unsupported', field: 'mediaIds[0]', says: '1080×1351' });
      boundary('1.91:1 landscape: 1910×1000', { account: instagram, at: async () => ig({ mediaIds: [await image({ width: 1910, height: 1000 })] }),
        past: async () => ig({ mediaIds: [await image({ width: 1911, height: 1000 })] }), code: 'aspect_unsupported', field: 'mediaIds[0]', says: '1911×1000' });
      it('checks every image of a carousel', async () => expectFails(await row(acc.instagram,
        { mediaIds: [await image(), await image({ width: 1080, height: 1920 })] }), 'aspect_unsupported', 'mediaIds[1]'));
    });

    boundary('image: at most 8 MB (image_too_large)', { account: instagram,
      at: async () => ig({ mediaIds: [await image({ size: 8 * MB })] }), past: async () => ig({ mediaIds: [await image({ size: 8 * MB + 1 })] }),
      code: 'image_too_large', field: 'mediaIds[0]', says: `${8 * MB + 1} bytes` });

    describe('reel: 3 seconds to 15 minutes (video_too_short, video_too_long)', () => {
      boundary('3 seconds', { account: instagram, at: async () => ({ mediaIds: [await video(3)] }), past: async () => ({ mediaIds: [await video(2.9)] }),
        code: 'video_too_short', field: 'mediaIds[0]', says: '2.9 seconds' });
      boundary('15 minutes', { account: instagram, at: async () => ({ mediaIds: [await video(900)], perPlatform: as('reel') }),
        past: async () => ({ mediaIds: [await video(900.1)], perPlatform: as('reel') }), code: 'video_too_long', field: 'mediaIds[0]', says: '15 minutes 0.1 seconds' });
    });
    boundary('reel: at most 300 MB (video_too_large)', { account: instagram,
      at: async () => ({ mediaIds: [await video(30, { size: 300 * MB })] }), past: async () => ({ mediaIds: [await video(30, { size: 300 * MB + 1 })] }),
      code: 'video_too_large', field: 'mediaIds[0]' });

    describe('story video: 3 to 60 seconds (story_too_long, video_too_short)', () => {
      const story = async (seconds: number) => ({ text: '', mediaIds: [await video(seconds)], perPlatform: as('story') });
      boundary('60 seconds', { account: instagram, at: () => story(60), past: () => story(61), code: 'story_too_long', field: 'mediaIds[0]', says: '61 seconds' });
      boundary('3 seconds', { account: instagram, at: () => story(3), past: () => story(2.9), code: 'video_too_short', field: 'mediaIds[0]' });
      boundary('a story image: at most 8 MB (image_too_large)', { account: instagram,
        at: async () => ({ text: '', mediaIds: [await image({ size: 8 * MB })], perPlatform: as('story') }),
        past: async () => ({ text: '', mediaIds: [await image({ size: 8 * MB + 1 })], perPlatform: as('story') }), code: 'image_too_large', field: 'mediaIds[0]' });
    });

    boundary('a story carries no text (caption_too_long)', { account: instagram,
      at: () => ig({ text: '', perPlatform: as('story') }), past: () => ig({ text: 'Swipe up', perPlatform: as('story') }), code: 'caption_too_long', field: 'text' });

    describe('media kind and count per content type (media_kind)', () => {
      it('fails a reel given an image', async () => expectFails(await row(acc.instagram, await ig({ perPlatform: as('reel') })), 'media_kind', 'mediaIds[0]'));
      it('fails a feed post given two files', async () => expectFails(await row(acc.instagram, { mediaIds: await many(2), perPlatform: as('feed') }), 'media_kind', 'mediaIds'));
      it('fails without media', async () => expectFails(await row(acc.instagram, {}), 'media_kind', 'mediaIds'));
      it('passes a feed image, a reel and a carousel of an image and a video', async () => {
        expectPasses(await row(acc.instagram, await ig({ perPlatform: as('feed') })));
        expectPasses(await row(acc.instagram, { mediaIds: [await video(45)], perPlatform: as('reel') }));
        expectPasses(await row(acc.instagram, { mediaIds: [await image(), await video(45)], perPlatform: as('carousel') }));
      });
    });

    it('contentType must be feed, reel, story or carousel (setting_invalid)', async () => {
      expectFails(await row(acc.instagram, await ig({ perPlatform: as('igtv') })), 'setting_invalid', 'perPlatform.instagram.contentType');
    });
  });

  // ----------------------------------------------------------------------------------- facebook
  describe('facebook', () => {
    const facebook = () => acc.facebook;
    const as = (contentType: string, extra: Body = {}) => ({ facebook: { contentType, ...extra } });

    it('takes contentType from the media when it is left out, and says so in the row', async () => {
      const typeFor = async (mediaIds: string[]) => {
        const result = await plan([acc.facebook], { mediaIds });
        expectPasses(result.rows[0]!);
        return result.rows[0]!.settings.contentType;
      };
      expect(await typeFor([])).toBe('text');
      expect(await typeFor([await media()])).toBe('photo');
      expect(await typeFor(await many(3))).toBe('photo');
      expect(await typeFor([await video(30, { width: 1080, height: 1920 })])).toBe('reel');
      expect(await typeFor([await video(300, { width: 1080, height: 1920 })])).toBe('video');
      expect(await typeFor([await video(30, { width: 1920, height: 1080 })])).toBe('video');
    });

    describe('reel: 3 to 90 seconds, 9:16 (video_too_short, video_too_long, aspect_unsupported)', () => {
      const reel = async (seconds: number, shape: MediaShape = {}) => ({ mediaIds: [await video(seconds, { width: 1080, height: 1920, ...shape })], perPlatform: as('reel') });
      boundary('3 seconds', { account: facebook, at: () => reel(3), past: () => reel(2.9), code: 'video_too_short', field: 'mediaIds[0]' });
      boundary('90 seconds', { account: facebook, at: () => reel(90), past: () => reel(90.1), code: 'video_too_long', field: 'mediaIds[0]', says: '90.1 seconds' });
      boundary('9:16 (1080×1920); 1:1 is refused', { account: facebook, at: () => reel(30), past: () => reel(30, { width: 1080, height: 1080 }),
        code: 'aspect_unsupported', field: 'mediaIds[0]', says: '1080×1080' });
      it('fails a reel given an image (media_kind)', async () => expectFails(await row(acc.facebook, { mediaIds: [await media()], perPlatform: as('reel') }),
        'media_kind', 'mediaIds[0]'));
    });

    describe('link: an https address (setting_invalid)', () => {
      it('passes a link post with an https link', async () => expectPasses(await row(acc.facebook,
        { perPlatform: as('link', { link: 'https://shop.acme.example/autumn' }) })));
      for (const link of ['http://shop.acme.example/autumn', 'shop.acme.example/autumn', 'https://', 'ftp://shop.acme.example']) {
        it(`fails ${link}`, async () => expectFails(await row(acc.facebook, { perPlatform: as('link', { link }) }), 'setting_invalid', 'perPlatform.facebook.link'));
      }
      it('fails a link post without a link', async () => expectFails(await row(acc.facebook, { perPlatform: as('link') }), 'setting_invalid', 'perPlatform.facebook.link'));
    });

    describe('text and link posts carry no file (media_kind, text_required)', () => {
      it('passes a text post', async () => expectPasses(await row(acc.facebook, { perPlatform: as('text') })));
      it('fails a text post with a file', async () => expectFails(await row(acc.facebook, { mediaIds: [await media()], perPlatform: as('text') }), 'media_kind', 'mediaIds'));
      it('fails a link post with a file', async () => expectFails(await row(acc.facebook,
        { mediaIds: [await media()], perPlatform: as('link', { link: 'https://shop.acme.example/' }) }), 'media_kind', 'mediaIds'));
      it('fails a text post without text', async () => expectFails(await row(acc.facebook, { text: ' ' }), 'text_required', 'text'));
    });

    describe('story: video up to 60 seconds, image up to 10 MB, no text (story_too_long, image_too_large, caption_too_long)', () => {
      const story = async (file: Promise<string>, text = '') => ({ text, mediaIds: [await file], perPlatform: as('story') });
      boundary('60 seconds', { account: facebook, at: () => story(video(60)), past: () => story(video(61)), code: 'story_too_long', field: 'mediaIds[0]', says: '61 seconds' });
      boundary('10 MB image', { account: facebook, at: () => story(media({ size: 10 * MB })), past: () => story(media({ size: 10 * MB + 1 })),
        code: 'image_too_large', field: 'mediaIds[0]', says: `${10 * MB + 1} bytes` });
      boundary('no text', { account: facebook, at: () => story(media()), past: () => story(media(), 'Hello'), code: 'caption_too_long', field: 'text' });
    });

    describe('photo post: 1 to 10 images (carousel_count, media_kind)', () => {
      boundary('10 images', { account: facebook, at: async () => ({ mediaIds: await many(10) }), past: async () => ({ mediaIds: await many(11) }),
        code: 'carousel_count', field: 'mediaIds', says: '11' });
      it('fails a photo post holding a video', async () => expectFails(await row(acc.facebook, { mediaIds: [await media(), await video(10)], perPlatform: as('photo') }),
        'media_kind', 'mediaIds'));
      it('fails a photo or video post without a file (media_kind)', async () => {
        expectFails(await row(acc.facebook, { perPlatform: as('photo') }), 'media_kind', 'mediaIds');
        expectFails(await row(acc.facebook, { perPlatform: as('video') }), 'media_kind', 'mediaIds');
      });
      it('fails a video post given two files', async () => expectFails(await row(acc.facebook, { mediaIds: await many(2, { kind: 'video' }), perPlatform: as('video') }),
        'media_kind', 'mediaIds'));
    });

    it('contentType must be one of text, link, photo, video, reel, story (setting_invalid)', async () => {
      expectFails(await row(acc.facebook, { perPlatform: as('carousel') }), 'setting_invalid', 'perPlatform.facebook.contentType');
    });
  });

  // ------------------------------------------------------------------------------------- tiktok
  describe('tiktok: connector in progress (network_unavailable)', () => {
    it('fails every tiktok row, even a valid post', async () => {
      const r = await row(acc.tiktok, { mediaIds: [await video(30)] });
      expectFails(r, 'network_unavailable', 'tiktok');
      expect(codes(r)).toEqual(['network_unavailable']);
    });
  });

  // --------------------------------------------------------------------- shared: media, account
  describe('a plan reports media_not_ready for a file not ready', () => {
    for (const [what, shape] of [['uploading', { status: 'uploading' }], ['processing', { status: 'processing' }], ['failed', { status: 'failed' }],
      ['ready but with its bytes deleted after going live', { bytesDeletedAt: new Date().toISOString() }]] as [string, MediaShape][]) {
      it(`fails a file ${what}`, async () => {
        const ok = await media();
        const bad = await media(shape);
        const result = await plan([acc.threads, acc.facebook], { mediaIds: [ok, bad] });
        for (const r of result.rows) expectFails(r, 'media_not_ready', `mediaIds[1] (${bad})`);
        for (const r of result.rows) expect(codes(r)).toEqual(['media_not_ready']);
      });
    }
    it('passes ready files', async () => expectPasses(await row(acc.threads, { mediaIds: [await media(), await media()] })));
  });

  describe('publishing is allowed only to an account with status ok (account_not_ok)', () => {
    it('fails expired and revoked accounts, naming the account', async () => {
      const result = await plan([acc.expired, acc.revoked, acc.threads], { mediaIds: [await media()] });
      expectFails(result.rows[0]!, 'account_not_ok', acc.expired, 'expired');
      expectFails(result.rows[1]!, 'account_not_ok', acc.revoked, 'revoked');
      expectPasses(result.rows[2]!);
      expect(result.ok).toBe(false);
    });
  });

  // ---------------------------------------------------------------------------------- when: time
  describe('when: at least 2 minutes and at most one year ahead (time_too_soon, time_too_far)', () => {
    const original = Settings.now;
    afterEach(() => { Settings.now = original; });

    it('fails a time in the past, on every row', async () => {
      const result = await plan([acc.threads, acc.facebook], { when: utcWhen(DateTime.utc().minus({ hours: 1 })) });
      for (const r of result.rows) expectFails(r, 'time_too_soon', 'when.publishAt', 'in the past');
    });
    it('fails a time 1 to 2 minutes ahead', async () => {
      const at = DateTime.utc().plus({ minutes: 1 }).startOf('minute').plus({ minutes: 1 }); // 1 to 2 minutes ahead
      expectFails(await row(acc.threads, { when: utcWhen(at) }), 'time_too_soon', 'when.publishAt', 'less than 2 minutes ahead');
    });
    it('passes a time 3 to 4 minutes ahead', async () => {
      const at = DateTime.utc().plus({ minutes: 3 }).startOf('minute').plus({ minutes: 1 });
      expectPasses(await row(acc.threads, { when: utcWhen(at) }));
    });
    it('fails one year and a day ahead, passes a day under a year', async () => {
      expectFails(await row(acc.threads, { when: utcWhen(DateTime.utc().plus({ years: 1, days: 1 })) }), 'time_too_far', 'when.publishAt', 'more than one year');
      expectPasses(await row(acc.threads, { when: utcWhen(DateTime.utc().plus({ years: 1 }).minus({ days: 1 })) }));
    });

    // With the server's clock held (it runs in this process and reads luxon's now), the limits are exact.
    it('passes exactly 2 minutes ahead and fails 1 ms less', async () => {
      const now = DateTime.utc().startOf('minute');
      const when = utcWhen(now.plus({ minutes: 2 }));
      Settings.now = () => now.toMillis();
      expectPasses(await row(acc.threads, { when }));
      Settings.now = () => now.toMillis() + 1;
      expectFails(await row(acc.threads, { when }), 'time_too_soon', 'when.publishAt', 'less than 2 minutes ahead');
    });
    it('passes exactly one year ahead and fails 1 ms more', async () => {
      const now = DateTime.utc().startOf('minute');
      const when = utcWhen(now.plus({ years: 1 }));
      Settings.now = () => now.toMillis();
      expectPasses(await row(acc.threads, { when }));
      Settings.now = () => now.toMillis() - 1;
      expectFails(await row(acc.threads, { when }), 'time_too_far', 'when.publishAt');
    });
  });

  // ------------------------------------------------------------------------------- overrides, ok
  describe('overrides replace text, title and tags for accounts of that network only', () => {
    it('a threads override that fixes a too-long text makes the threads row ok; instagram keeps the base text', async () => {
      const base = { mediaIds: [await media()], text: 'a'.repeat(2201) };
      const without = await plan([acc.threads, acc.instagram], base);
      expectFails(without.rows[0]!, 'caption_too_long', 'text', '2201');
      expectFails(without.rows[1]!, 'caption_too_long', 'text', '2201');
      const result = await plan([acc.threads, acc.instagram], { ...base, overrides: { threads: { text: 'Autumn sale, short for threads.' } } });
      expectPasses(result.rows[0]!);
      expectFails(result.rows[1]!, 'caption_too_long', 'text', '2201 characters');
      expect(result.ok).toBe(false);
    });

    it('an instagram override applies to instagram rows, not to threads or facebook', async () => {
      const result = await plan([acc.instagram, acc.threads, acc.facebook], { mediaIds: [await media()], text: 'Autumn sale',
        overrides: { instagram: { text: `Sale ${words(31, (i) => `#t${i}`)}` } } });
      expectFails(result.rows[0]!, 'hashtags_too_many', 'text', '31');
      expectPasses(result.rows[1]!);
      expectPasses(result.rows[2]!);
    });

    it('a youtube override of title and tags fixes the youtube row, and its text override replaces the description', async () => {
      const base = { mediaIds: [await video(60)], text: 'Sale <today>', tags: ['x'.repeat(501)], perPlatform: { youtube: { visibility: 'public', category: '22' } } };
      const without = await row(acc.youtube, base);
      expect(codes(without).sort()).toEqual(['forbidden_chars', 'tags_too_long', 'youtube_title_required']);
      expectPasses(await row(acc.youtube, { ...base, overrides: { youtube: { title: 'Autumn', tags: ['autumn'], text: 'Sale today' } } }));
      // Fields left out keep the base value.
      const partial = await row(acc.youtube, { ...base, overrides: { youtube: { title: 'Autumn' } } });
      expect(codes(partial).sort()).toEqual(['forbidden_chars', 'tags_too_long']);
    });
  });

  describe('the plan: ok is false when any row is not ok, and the table shows every failing code', () => {
    it('lists every failing code of a row in its table line', async () => {
      const result = await plan([acc.youtube, acc.threads], { text: '<b>', tags: ['x'.repeat(501)], mediaIds: [await media({ status: 'processing' })],
        when: utcWhen(DateTime.utc().minus({ days: 1 })) });
      expect(result.ok).toBe(false);
      const yt = result.rows[0]!;
      expect(codes(yt).sort()).toEqual(['forbidden_chars', 'media_kind', 'media_not_ready', 'tags_too_long', 'time_too_soon', 'youtube_title_required']);
      const line = result.table.split('\n').find((l) => l.startsWith('Acme Channel'))!;
      for (const code of codes(yt)) expect(line).toContain(`${code}: `);
      expect(codes(result.rows[1]!).sort()).toEqual(['media_not_ready', 'time_too_soon']);
    });

    it('is ok only when every row is ok', async () => {
      const image = await media();
      const good = await plan([acc.threads, acc.facebook, acc.instagram], { mediaIds: [image] });
      expect(good.ok).toBe(true);
      expect(good.rows.map((r) => r.ok)).toEqual([true, true, true]);
      const oneBad = await plan([acc.threads, acc.facebook, acc.instagram], { mediaIds: [image], overrides: { facebook: { text: '' } },
        perPlatform: { facebook: { contentType: 'text' } } });
      expect(oneBad.rows.map((r) => r.ok)).toEqual([true, false, true]);
      expect(oneBad.ok).toBe(false);
      const lines = oneBad.table.split('\n');
      expect(lines.find((l) => l.startsWith('Acme Threads'))).toMatch(/ ok$/);
      expect(lines.find((l) => l.startsWith('Acme Page'))).toContain('media_kind: ');
    });
  });
});
