// Plan checks through HTTP on both databases: every row issue code of the contract is answered end to
// end by a few samples (the row fails, the issue names the failing field, the table line shows it),
// and what only the HTTP path decides: settings of the wrong shape as row issues rather than a 400,
// the defaults shown in the row and its table line, files of another workspace, a create stopped by
// its checks. The exhaustive boundaries of each rule run against the pure planner in test/rules/.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssueCode } from '../domain/issues.ts';
import { loadContract } from '../runtime/contract.ts';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { nextClockChanges, seedMedia, type ClockChange, type MediaShape } from './support/posts.ts';

const MB = 1024 * 1024;

interface Issue {
  code: string;
  message: string;
  hint: string;
  field?: string;
  limit?: number | string | boolean;
  actual?: number | string | boolean;
}
interface Row {
  accountId: string;
  platform: string;
  publishAt: string | null;
  ok: boolean;
  issues: Issue[];
  settings: Record<string, unknown>;
}
interface Plan {
  ok: boolean;
  status: string;
  rows: Row[];
  quota: { used: number; limit: number; requested: number };
  table: string;
}
type Body = Record<string, unknown>;
type AccountKey = 'youtube' | 'instagram' | 'facebook' | 'threads' | 'tiktok' | 'expired' | 'revoked';

/** A local time in Berlin `days` ahead (the workspace zone), as `when` takes it. */
function ahead(days: number, time = '12:00') {
  return {
    publishAt: `${DateTime.now().setZone('Europe/Berlin').plus({ days }).toFormat('yyyy-MM-dd')}T${time}`,
    timezone: 'Europe/Berlin',
  };
}

/** `when` written in UTC for an instant, to the minute. */
const utcWhen = (at: DateTime) => ({ publishAt: at.toUTC().toFormat("yyyy-MM-dd'T'HH:mm"), timezone: 'UTC' });
const words = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i + 1)).join(' ');
const codes = (row: Row) => row.issues.map((i) => i.code);

/** Files of the workspace, made for one sample. */
interface Files {
  media(shape?: MediaShape): Promise<string>;
  video(durationSeconds: number, shape?: MediaShape): Promise<string>;
  many(n: number, shape?: MediaShape): Promise<string[]>;
}

interface Sample {
  name: string;
  account: AccountKey;
  body(files: Files): Body | Promise<Body>;
  /** The failing field the issue's message names, and other words it must say. */
  field: string;
  says?: string;
  /** A note: the row stays ok with the code among its issues. */
  note?: true;
}

/** A valid youtube post: one video, a title, visibility and category. */
const yt = async (f: Files, extra: Body = {}): Promise<Body> => ({
  title: 'Autumn collection 2026',
  mediaIds: [await f.video(120)],
  perPlatform: { youtube: { visibility: 'unlisted', category: '22' } },
  ...extra,
});
/** A valid tiktok post: one video, seen by everyone. */
const tt = async (f: Files, extra: Body = {}): Promise<Body> => ({
  mediaIds: [await f.video(30)],
  perPlatform: { tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE' } },
  ...extra,
});
const link = (i: number) => `https://shop${i}.example/autumn`;
/** Berlin's next clock changes, found once (it walks the zone's rules hour by hour). */
let berlinChanges: ClockChange[] | undefined;
function berlinChange(kind: 'gap' | 'overlap'): string {
  berlinChanges ??= nextClockChanges('Europe/Berlin');
  return berlinChanges.find((c) => c.kind === kind)!.local;
}

/**
 * Every Issue.code of the contract, each with the HTTP samples that prove it end to end (a code that
 * could not be reached over HTTP would hold the reason instead).
 */
const SAMPLES: Record<IssueCode, Sample[] | { unreachable: string }> = {
  caption_too_long: [
    {
      name: 'a tiktok caption counts UTF-16 units: 1100 × 😀 and a',
      account: 'tiktok',
      body: async (f) => tt(f, { text: `${'😀'.repeat(1100)}a` }),
      field: 'text',
      says: '2201',
    },
    {
      name: 'threads counts 👍 as 4: 126 × 👍',
      account: 'threads',
      body: () => ({ text: '👍'.repeat(126) }),
      field: 'text',
      says: '504',
    },
    {
      name: 'a youtube description counts UTF-8 bytes: 2500 × é and a',
      account: 'youtube',
      body: (f) => yt(f, { text: `${'é'.repeat(2500)}a` }),
      field: 'text',
      says: '5001',
    },
    {
      name: 'an instagram caption of 2201 characters',
      account: 'instagram',
      body: async (f) => ({ text: 'a'.repeat(2201), mediaIds: [await f.media()] }),
      field: 'text',
      says: '2201',
    },
    {
      name: 'an instagram story carries no text',
      account: 'instagram',
      body: async (f) => ({
        text: 'Swipe up',
        mediaIds: [await f.media()],
        perPlatform: { instagram: { contentType: 'story' } },
      }),
      field: 'text',
    },
  ],
  title_too_long: [
    {
      name: 'a tiktok photo title of 91 UTF-16 units',
      account: 'tiktok',
      body: async (f) => tt(f, { title: 'a'.repeat(91), mediaIds: await f.many(2) }),
      field: 'title',
      says: '91',
    },
    {
      name: '101 emoji in a youtube title',
      account: 'youtube',
      body: (f) => yt(f, { title: '😀'.repeat(101) }),
      field: 'title',
      says: '101',
    },
  ],
  tags_too_long: [
    {
      name: 'a tag with a space counts its quotes',
      account: 'youtube',
      body: (f) => yt(f, { tags: ['Foo Baz', 'z'.repeat(492)] }),
      field: 'tags',
      says: '502',
    },
  ],
  story_too_long: [
    {
      name: 'a facebook story video of 61 seconds',
      account: 'facebook',
      body: async (f) => ({
        text: '',
        mediaIds: [await f.video(61)],
        perPlatform: { facebook: { contentType: 'story' } },
      }),
      field: 'mediaIds[0]',
      says: '61 seconds',
    },
    {
      name: 'an instagram story video of 61 seconds',
      account: 'instagram',
      body: async (f) => ({
        text: '',
        mediaIds: [await f.video(61)],
        perPlatform: { instagram: { contentType: 'story' } },
      }),
      field: 'mediaIds[0]',
    },
  ],
  aspect_unsupported: [
    {
      name: 'an instagram feed image narrower than 4:5',
      account: 'instagram',
      body: async (f) => ({ mediaIds: [await f.media({ width: 1080, height: 1351 })] }),
      field: 'mediaIds[0]',
      says: '1080×1351',
    },
    {
      name: 'a square facebook reel',
      account: 'facebook',
      body: async (f) => ({
        mediaIds: [await f.video(30, { width: 1080, height: 1080 })],
        perPlatform: { facebook: { contentType: 'reel' } },
      }),
      field: 'mediaIds[0]',
      says: '1080×1080',
    },
    {
      name: 'a threads image taller than 1:10, second of two',
      account: 'threads',
      body: async (f) => ({ mediaIds: [await f.media(), await f.media({ width: 320, height: 3201 })] }),
      field: 'mediaIds[1]',
    },
  ],
  media_kind: [
    {
      name: 'an image for youtube',
      account: 'youtube',
      body: async (f) => yt(f, { mediaIds: [await f.media()] }),
      field: 'mediaIds',
    },
    {
      name: 'an image for an instagram reel',
      account: 'instagram',
      body: async (f) => ({ mediaIds: [await f.media()], perPlatform: { instagram: { contentType: 'reel' } } }),
      field: 'mediaIds[0]',
    },
    {
      name: 'a file on a facebook text post',
      account: 'facebook',
      body: async (f) => ({ mediaIds: [await f.media()], perPlatform: { facebook: { contentType: 'text' } } }),
      field: 'mediaIds',
    },
  ],
  video_too_long: [
    {
      name: 'an instagram reel of 15 minutes and 0.1 seconds',
      account: 'instagram',
      body: async (f) => ({ mediaIds: [await f.video(900.1)], perPlatform: { instagram: { contentType: 'reel' } } }),
      field: 'mediaIds[0]',
      says: '15 minutes 0.1 seconds',
    },
    {
      name: 'a threads video over 5 minutes',
      account: 'threads',
      body: async (f) => ({ mediaIds: [await f.video(300.1)] }),
      field: 'mediaIds[0]',
    },
  ],
  video_too_short: [
    {
      name: 'an instagram reel of 2.9 seconds',
      account: 'instagram',
      body: async (f) => ({ mediaIds: [await f.video(2.9)] }),
      field: 'mediaIds[0]',
      says: '2.9 seconds',
    },
    {
      name: 'a facebook reel of 2.9 seconds',
      account: 'facebook',
      body: async (f) => ({ mediaIds: [await f.video(2.9)], perPlatform: { facebook: { contentType: 'reel' } } }),
      field: 'mediaIds[0]',
    },
  ],
  image_too_large: [
    {
      name: 'a threads image one byte over 8 MB',
      account: 'threads',
      body: async (f) => ({ mediaIds: [await f.media({ size: 8 * MB + 1 })] }),
      field: 'mediaIds[0]',
      says: `${8 * MB + 1} bytes`,
    },
    {
      name: 'a youtube thumbnail one byte over 2 MB',
      account: 'youtube',
      body: async (f) => yt(f, { perPlatform: { youtube: { thumbnailMediaId: await f.media({ size: 2 * MB + 1 }) } } }),
      field: 'perPlatform.youtube.thumbnailMediaId',
    },
  ],
  media_not_ready: [
    {
      name: 'a file still processing',
      account: 'threads',
      body: async (f) => ({ mediaIds: [await f.media(), await f.media({ status: 'processing' })] }),
      field: 'mediaIds[1]',
      says: 'is processing',
    },
    {
      name: 'a file whose bytes were deleted after going live',
      account: 'facebook',
      body: async (f) => ({ mediaIds: [await f.media({ bytesDeletedAt: new Date().toISOString() })] }),
      field: 'mediaIds[0]',
      says: 'no longer has its bytes',
    },
  ],
  forbidden_chars: [
    { name: '< in a youtube title', account: 'youtube', body: (f) => yt(f, { title: 'Sale <today>' }), field: 'title' },
    { name: '> in a youtube description', account: 'youtube', body: (f) => yt(f, { text: 'a > b' }), field: 'text' },
  ],
  youtube_title_required: [
    { name: 'a blank title', account: 'youtube', body: (f) => yt(f, { title: '   ' }), field: 'title' },
  ],
  setting_invalid: [
    {
      name: 'a tiktok post without a privacy level (TikTok forbids choosing one for the person)',
      account: 'tiktok',
      body: async (f) => ({ mediaIds: [await f.video(30)] }),
      field: 'perPlatform.tiktok.privacyLevel',
      says: 'required',
    },
    {
      name: 'a threads topic with a dot',
      account: 'threads',
      body: () => ({ perPlatform: { threads: { topicTag: 'Food.Drink' } } }),
      field: 'perPlatform.threads.topicTag',
    },
    {
      name: 'a facebook link over http',
      account: 'facebook',
      body: () => ({ perPlatform: { facebook: { contentType: 'link', link: 'http://shop.acme.example' } } }),
      field: 'perPlatform.facebook.link',
    },
    {
      name: 'an unknown youtube visibility',
      account: 'youtube',
      body: (f) => yt(f, { perPlatform: { youtube: { visibility: 'friends' } } }),
      field: 'perPlatform.youtube.visibility',
    },
  ],
  account_not_ok: [
    { name: 'an expired account', account: 'expired', body: () => ({}), field: 'Old Threads', says: 'expired' },
    {
      name: 'a revoked account',
      account: 'revoked',
      body: async (f) => ({ mediaIds: [await f.media()] }),
      field: 'Old Shop',
      says: 'revoked',
    },
  ],
  carousel_count: [
    {
      name: 'one tiktok photo (a photo post takes 2 to 35; mediaIds holds 35 at most anyway)',
      account: 'tiktok',
      body: async (f) => tt(f, { mediaIds: await f.many(1) }),
      field: 'mediaIds',
      says: '2 to 35',
    },
    {
      name: '11 files for instagram',
      account: 'instagram',
      body: async (f) => ({ mediaIds: await f.many(11) }),
      field: 'mediaIds',
      says: '11',
    },
    {
      name: '21 files for threads',
      account: 'threads',
      body: async (f) => ({ mediaIds: await f.many(21) }),
      field: 'mediaIds',
      says: '21',
    },
  ],
  video_too_large: [
    {
      name: 'a threads video one byte over 1 GB',
      account: 'threads',
      body: async (f) => ({ mediaIds: [await f.video(60, { size: 1024 * MB + 1 })] }),
      field: 'mediaIds[0]',
      says: `${1024 * MB + 1} bytes`,
    },
    {
      name: 'an instagram reel one byte over 300 MB',
      account: 'instagram',
      body: async (f) => ({ mediaIds: [await f.video(30, { size: 300 * MB + 1 })] }),
      field: 'mediaIds[0]',
    },
  ],
  text_required: [
    { name: 'a threads post without text or file', account: 'threads', body: () => ({ text: '  ' }), field: 'text' },
    { name: 'a facebook text post without text', account: 'facebook', body: () => ({ text: ' ' }), field: 'text' },
  ],
  hashtags_too_many: [
    {
      name: '31 hashtags on instagram',
      account: 'instagram',
      body: async (f) => ({ text: `Autumn ${words(31, (i) => `#tag${i}`)}`, mediaIds: [await f.media()] }),
      field: 'text',
      says: '31',
    },
  ],
  mentions_too_many: [
    {
      name: '21 mentions on instagram',
      account: 'instagram',
      body: async (f) => ({ text: `Thanks ${words(21, (i) => `@friend${i}`)}`, mediaIds: [await f.media()] }),
      field: 'text',
      says: '21',
    },
  ],
  links_too_many: [
    {
      name: '6 unique links on threads, each repeated',
      account: 'threads',
      body: () => ({ text: `${words(6, link)} again: ${words(5, link)}` }),
      field: 'text',
      says: '6',
    },
    {
      name: '5 links in the text and another attached',
      account: 'threads',
      body: () => ({ text: words(5, link), perPlatform: { threads: { link: link(6) } } }),
      field: 'perPlatform.threads.link',
      says: '6',
    },
  ],
  topic_tags_too_many: [
    {
      name: 'a topic tag and a #tag on threads',
      account: 'threads',
      body: () => ({ text: 'Autumn #sale', perPlatform: { threads: { topicTag: 'Fashion' } } }),
      field: 'perPlatform.threads.topicTag',
      says: '2 topics',
    },
  ],
  network_unavailable: {
    unreachable:
      'Every network of the contract has a connector in this version, TikTok the last; the code stays for a ' +
      'network added to the contract before its connector. Connecting one answers it (connect.test.ts).',
  },
  time_too_soon: [
    {
      name: 'an hour ago',
      account: 'threads',
      body: () => ({ when: utcWhen(DateTime.utc().minus({ hours: 1 })) }),
      field: 'when.publishAt',
      says: 'in the past',
    },
  ],
  time_too_far: [
    {
      name: 'a year and a day ahead',
      account: 'threads',
      body: () => ({ when: utcWhen(DateTime.utc().plus({ years: 1, days: 1 })) }),
      field: 'when.publishAt',
      says: 'more than one year',
    },
  ],
  queue_empty: [
    {
      name: 'an account without posting times',
      account: 'threads',
      body: () => ({ when: 'queue' }),
      field: 'when',
      says: 'no free posting time',
    },
  ],
  time_nonexistent: [
    {
      name: 'the next skipped hour in Berlin',
      account: 'threads',
      body: () => ({ when: { publishAt: berlinChange('gap'), timezone: 'Europe/Berlin' } }),
      field: 'when.publishAt',
      says: 'does not exist',
    },
  ],
  time_ambiguous: [
    {
      name: 'the next repeated hour in Berlin',
      account: 'threads',
      note: true,
      body: () => ({ when: { publishAt: berlinChange('overlap'), timezone: 'Europe/Berlin' } }),
      field: 'when.publishAt',
      says: 'the earlier one was taken',
    },
  ],
};

describe('the HTTP samples', () => {
  it('prove every Issue.code of the contract, or say why one cannot be reached over HTTP', () => {
    const schemas = (
      loadContract().components as { schemas: Record<string, { properties: { code: { enum: string[] } } }> }
    ).schemas;
    const contractCodes = schemas.Issue!.properties.code.enum;
    expect(Object.keys(SAMPLES).sort()).toEqual([...contractCodes].sort());
    for (const [code, samples] of Object.entries(SAMPLES)) {
      if (Array.isArray(samples)) expect(samples.length, code).toBeGreaterThan(0);
      else expect(samples.unreachable.length, code).toBeGreaterThan(20);
    }
  });
});

describe.each(DATABASES)('plan checks on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  const acc = {} as Record<AccountKey, string>;
  const names = new Map<string, string>();

  beforeAll(async () => {
    env = await startHerald(kind);
    ws = await seedWorkspace(env, { plan: 'agency', tz: 'Europe/Berlin' });
    const add = async (
      key: AccountKey,
      platform: 'youtube' | 'instagram' | 'facebook' | 'threads' | 'tiktok',
      name: string,
      status: 'ok' | 'expired' | 'revoked' = 'ok',
    ) => {
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

  const files: Files = {
    media: (shape = {}) => seedMedia(env, ws.workspaceId, shape),
    video: (durationSeconds, shape = {}) =>
      seedMedia(env, ws.workspaceId, { kind: 'video', durationSeconds, ...shape }),
    many: (n, shape = {}) => Promise.all(Array.from({ length: n }, () => seedMedia(env, ws.workspaceId, shape))),
  };

  /**
   * Plans through HTTP with a read key and checks what holds for every plan: `ok` is false when any
   * row fails, every issue has a message and a hint, and the table's line for a failing row shows
   * every failing code.
   */
  async function plan(accountIds: string[], body: Body = {}): Promise<Plan> {
    const res = await call(env, 'post', '/v1/posts/plan', {
      key: ws.readKey,
      body: {
        targets: { accountIds },
        mediaIds: [],
        text: 'Autumn sale: 30% off until Sunday.',
        when: ahead(3),
        ...body,
      },
    });
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
      if (!row.ok)
        for (const issue of row.issues.filter((i) => i.code !== 'time_ambiguous'))
          expect(line).toContain(`${issue.code}: ${issue.message}`);
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

  describe('each issue code, answered over HTTP naming the failing field', () => {
    const cases = Object.entries(SAMPLES).flatMap(([code, samples]) =>
      Array.isArray(samples) ? samples.map((s) => [`${code}: ${s.name}`, code, s] as const) : [],
    );
    it.each(cases)('%s', async (_name, code, sample) => {
      const r = await row(acc[sample.account], await sample.body(files));
      const found = r.issues.find((i) => i.code === code);
      expect(found, `${code} in ${JSON.stringify(r.issues)}`).toBeDefined();
      expect(found!.message).toContain(sample.field);
      if (sample.says) expect(found!.message).toContain(sample.says);
      expect(r.ok).toBe(sample.note === true);
    });
  });

  describe('perPlatform settings through HTTP', () => {
    it("passes a post without perPlatform, with YouTube's own defaults in the row and its table line", async () => {
      const { perPlatform: _, ...without } = await yt(files);
      const result = await plan([acc.youtube], without);
      expectPasses(result.rows[0]!);
      expect(result.rows[0]!.settings).toEqual({ visibility: 'public', category: '22' });
      expect(result.table).toContain(' ok; by default visibility public, category 22 (People & Blogs)');
      const given = await plan(
        [acc.youtube],
        await yt(files, { perPlatform: { youtube: { visibility: 'unlisted' } } }),
      );
      expect(given.rows[0]!.settings).toEqual({ visibility: 'unlisted', category: '22' });
      expect(given.table).toContain(' ok; by default category 22 (People & Blogs)');
    });

    it('answers a wrong type or an unknown setting as a row issue; settings not an object, a 400', async () => {
      const wrong = await row(
        acc.youtube,
        await yt(files, { perPlatform: { youtube: { visibility: 5, madeForKids: 'yes', colour: 'red' } } }),
      );
      expect(wrong.ok).toBe(false);
      expect(wrong.issues.map((i) => [i.code, i.message])).toEqual([
        ['setting_invalid', 'perPlatform.youtube.colour is not a youtube setting.'],
        ['setting_invalid', 'perPlatform.youtube.visibility must be string.'],
        ['setting_invalid', 'perPlatform.youtube.madeForKids must be boolean.'],
      ]);
      // Spread into an object, a string grew 13 bytes per byte.
      const notObject = await call(env, 'post', '/v1/posts/plan', {
        key: ws.readKey,
        body: {
          ...(await yt(files, { perPlatform: { youtube: 'public' } })),
          targets: { accountIds: [acc.youtube] },
          text: 'Autumn sale',
          when: 'draft',
        },
      });
      expect(notObject.status).toBe(400);
      expect(notObject.body.message).toBe('`perPlatform.youtube` must be object.');
    });
  });

  describe('perPlatform.youtube.thumbnailMediaId: a file of this workspace', () => {
    const field = 'perPlatform.youtube.thumbnailMediaId';
    const thumbnail = async (thumbnailMediaId: string) =>
      yt(files, { perPlatform: { youtube: { visibility: 'unlisted', category: '22', thumbnailMediaId } } });

    it('passes a ready JPEG of the workspace', async () =>
      expectPasses(await row(acc.youtube, await thumbnail(await files.media()))));

    it("answers a missing id and another workspace's id alike (setting_invalid), naming nothing else", async () => {
      const other = await seedWorkspace(env, { plan: 'agency' });
      const foreign = await seedMedia(env, other.workspaceId);
      const missing = 'med_doesNotExist0';
      const foreignRow = await row(acc.youtube, await thumbnail(foreign));
      expect(
        foreignRow.issues.map((i) => [
          i.code,
          i.message.includes(`${field} (${foreign}) is not a file of this workspace`),
        ]),
      ).toEqual([['setting_invalid', true]]);
      const missingRow = await row(acc.youtube, await thumbnail(missing));
      expect(JSON.stringify(foreignRow.issues).replaceAll(foreign, 'ID')).toBe(
        JSON.stringify(missingRow.issues).replaceAll(missing, 'ID'),
      );
    });

    // A write refuses it as it refuses a foreign or missing mediaId (404 not_found), a draft too.
    it('stops a create, queued or draft, as a foreign mediaId does: 404 not_found, nothing created', async () => {
      const other = await seedWorkspace(env, { plan: 'agency' });
      const foreign = await seedMedia(env, other.workspaceId);
      const answers = [];
      for (const [id, when] of [
        ['med_doesNotExist0', ahead(3)],
        [foreign, ahead(3)],
        [foreign, 'draft'],
      ] as const) {
        const body = {
          targets: { accountIds: [acc.youtube] },
          text: 'Autumn',
          when,
          confirm: true,
          ...(await thumbnail(id)),
        };
        const res = await call(env, 'post', '/v1/posts', { key: ws.writeKey, body });
        expect(res.status).toBe(404);
        answers.push(JSON.stringify(res.body).replaceAll(id, 'ID'));
      }
      const mediaIdBody = { ...(await thumbnail(await files.media())), mediaIds: [foreign] };
      const mediaIdAnswer = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: { targets: { accountIds: [acc.youtube] }, text: 'Autumn', when: 'draft', confirm: true, ...mediaIdBody },
      });
      expect(new Set([...answers, JSON.stringify(mediaIdAnswer.body).replaceAll(foreign, 'ID')]).size).toBe(1);
      const posts = await call(env, 'get', `/v1/posts?accountId=${acc.youtube}`, { key: ws.readKey });
      expect(posts.body.posts).toEqual([]);
    });

    it("stops an edit of a draft that names another workspace's file, and changes nothing", async () => {
      const foreign = await seedMedia(env, (await seedWorkspace(env, { plan: 'agency' })).workspaceId);
      const body = { targets: { accountIds: [acc.youtube] }, text: 'Autumn', when: 'draft', confirm: true };
      const draft = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: { ...body, ...(await thumbnail(await files.media())) },
      });
      const id = draft.body.posts[0].id;
      const before = (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
      const settings = { youtube: { visibility: 'unlisted', category: '22', thumbnailMediaId: foreign } };
      const res = await call(env, 'patch', `/v1/posts/${id}`, { key: ws.writeKey, body: { perPlatform: settings } });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        code: 'not_found',
        message: `No media with id ${foreign} exists in this workspace.`,
      });
      expect((await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body).toEqual(before);
      await call(env, 'delete', `/v1/posts/${id}?confirm=true`, { key: ws.writeKey });
    });
  });

  describe('overrides replace text, title and tags for accounts of that network only', () => {
    it('a threads override fixing a too-long text makes the threads row ok; instagram keeps the base', async () => {
      const result = await plan([acc.threads, acc.instagram], {
        mediaIds: [await files.media()],
        text: 'a'.repeat(2201),
        overrides: { threads: { text: 'Autumn sale, short for threads.' } },
      });
      expectPasses(result.rows[0]!);
      expect(codes(result.rows[1]!)).toEqual(['caption_too_long']);
      expect(result.ok).toBe(false);
    });
  });

  describe('issues carry their facts beside the message: the field, the bound and what the post has', () => {
    it('names the text, the file, the setting and the state the message states', async () => {
      const result = await plan([acc.threads, acc.youtube, acc.instagram], {
        text: 'a'.repeat(6000),
        mediaIds: [await files.media({ status: 'processing' })],
        perPlatform: { threads: { topicTag: 'a.b' } },
      });
      const [threads, youtube, instagram] = result.rows as [Row, Row, Row];
      const issue = (row: Row, code: string) => row.issues.find((i) => i.code === code);
      // Past ten times the limit, counting may stop: an actual above 5000 reads "more than 5000".
      expect(issue(threads, 'caption_too_long')).toMatchObject({ field: 'text', limit: 500 });
      expect(issue(threads, 'caption_too_long')!.actual).toBeGreaterThan(5000);
      expect(issue(threads, 'setting_invalid')).toMatchObject({
        field: 'perPlatform.threads.topicTag',
        limit: 50,
        actual: 'a.b',
      });
      expect(issue(threads, 'media_not_ready')).toMatchObject({ field: 'mediaIds[0]', actual: 'processing' });
      expect(issue(youtube, 'youtube_title_required')).toMatchObject({ field: 'title' });
      expect(issue(instagram, 'caption_too_long')).toMatchObject({ field: 'text', limit: 2200, actual: 6000 });
    });
  });

  describe('the plan: ok is false when any row is not ok, and the table shows every failing code', () => {
    it('lists every failing code of a row in its table line', async () => {
      const result = await plan([acc.youtube, acc.threads], {
        text: '<b>',
        tags: ['x'.repeat(300), 'y'.repeat(300)],
        mediaIds: [await files.media({ status: 'processing' })],
        when: utcWhen(DateTime.utc().minus({ days: 1 })),
      });
      expect(result.ok).toBe(false);
      const youtube = result.rows[0]!;
      expect(codes(youtube).sort()).toEqual([
        'forbidden_chars',
        'media_kind',
        'media_not_ready',
        'tags_too_long',
        'time_too_soon',
        'youtube_title_required',
      ]);
      const line = result.table.split('\n').find((l) => l.startsWith('Acme Channel'))!;
      for (const code of codes(youtube)) expect(line).toContain(`${code}: `);
      expect(codes(result.rows[1]!).sort()).toEqual(['media_not_ready', 'time_too_soon']);
    });

    it('is ok only when every row is ok', async () => {
      const image = await files.media();
      const good = await plan([acc.threads, acc.facebook, acc.instagram], { mediaIds: [image] });
      expect(good.ok).toBe(true);
      expect(good.rows.map((r) => r.ok)).toEqual([true, true, true]);
      const oneBad = await plan([acc.threads, acc.facebook, acc.instagram], {
        mediaIds: [image],
        overrides: { facebook: { text: '' } },
        perPlatform: { facebook: { contentType: 'text' } },
      });
      expect(oneBad.rows.map((r) => r.ok)).toEqual([true, false, true]);
      expect(oneBad.ok).toBe(false);
      const lines = oneBad.table.split('\n');
      expect(lines.find((l) => l.startsWith('Acme Threads'))).toMatch(/ ok$/);
      expect(lines.find((l) => l.startsWith('Acme Page'))).toContain('media_kind: ');
    });
  });
});
