// Posts through HTTP on both databases: the confirmation rule, plan without side effects, create,
// the month quota and the hourly creation limit, reading, and the state table's transitions.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAccount,
  call,
  DATABASES,
  seedWorkspace,
  startHerald,
  type Seeded,
  type TestEnv,
} from './support/harness.ts';
import { reservePosts, startAttempts } from '../db/publishing/attempts.ts';
import { fillMonth, seedMedia, setPostState } from './support/posts.ts';
import { asPerson, signedIn } from './support/people.ts';

/** A local time in Berlin `days` ahead, as `when` takes it. */
function berlin(days: number, time = '14:30') {
  return {
    publishAt: `${DateTime.now().setZone('Europe/Berlin').plus({ days }).toFormat('yyyy-MM-dd')}T${time}`,
    timezone: 'Europe/Berlin',
  };
}

function expectedLine(status: string, network: string, account: string, localIso: string) {
  const local = DateTime.fromISO(localIso, { zone: 'Europe/Berlin' });
  return (
    `${status}. ${network} · ${account} · ${local.setLocale('en-GB').toFormat('d LLLL, HH:mm')} ` +
    `(${local.offset === 60 ? 'CET' : 'CEST'}).`
  );
}

describe.each(DATABASES)('posts on %s', (kind) => {
  let env: TestEnv;
  let ws: Seeded;
  let other: Seeded;
  let ig: string;
  let fb: string;
  let th: string;
  let expired: string;
  let image: string;

  beforeAll(async () => {
    env = await startHerald(kind);
    ws = await seedWorkspace(env, { plan: 'creator', tz: 'Europe/Berlin' });
    other = await seedWorkspace(env, { plan: 'creator' });
    ig = await addAccount(env, ws.workspaceId, 'instagram', 'Acme Shop');
    fb = await addAccount(env, ws.workspaceId, 'facebook', 'Acme Page');
    th = await addAccount(env, ws.workspaceId, 'threads', 'Acme Threads');
    expired = await addAccount(env, ws.workspaceId, 'threads', 'Old Threads', 'expired');
    image = await seedMedia(env, ws.workspaceId, { kind: 'image', width: 1080, height: 1080 });
  });
  afterAll(() => env.close());

  const body = (extra: Record<string, unknown> = {}) => ({
    targets: { accountIds: [ig, fb] },
    mediaIds: [image],
    text: 'Autumn sale: 30% off everything until Sunday.',
    when: berlin(3),
    ...extra,
  });
  const listAll = async (query = '') =>
    (await call(env, 'get', `/v1/posts${query}`, { key: ws.readKey })).body.posts as { id: string; status: string }[];

  describe('POST /posts/plan', () => {
    it('answers one row per account, the quota and a table, and changes nothing', async () => {
      const before = await listAll();
      const when = berlin(3);
      for (let i = 0; i < 2; i++) {
        const res = await call(env, 'post', '/v1/posts/plan', { key: ws.readKey, body: body({ when }) });
        expect(res.status).toBe(200);
        const utc = DateTime.fromISO(when.publishAt, { zone: 'Europe/Berlin' }).toUTC().toISO();
        expect(res.body).toMatchObject({
          ok: true,
          status: 'queued',
          quota: { used: expect.any(Number), limit: 200, requested: 2 },
        });
        expect(res.body.rows).toEqual([
          {
            accountId: ig,
            platform: 'instagram',
            publishAt: utc,
            ok: true,
            issues: [],
            settings: { contentType: 'feed' },
          },
          {
            accountId: fb,
            platform: 'facebook',
            publishAt: utc,
            ok: true,
            issues: [],
            settings: { contentType: 'photo' },
          },
        ]);
        expect(res.body.rows[0].publishAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        const lines = res.body.table.split('\n');
        expect(lines[0]).toMatch(/^account\s+network\s+time\s+check$/);
        expect(lines[1]).toMatch(
          /^Acme Shop\s+Instagram\s+\d+ \w+, 14:30 \(CES?T\)\s+ok; by default contentType feed$/,
        );
        expect(lines[2]).toMatch(/^Acme Page\s+Facebook/);
      }
      expect(await listAll()).toEqual(before);
    });

    it('expands a group into its accounts', async () => {
      const group = await call(env, 'post', '/v1/groups', {
        key: ws.writeKey,
        body: { name: 'Meta', accountIds: [fb, th] },
      });
      const res = await call(env, 'post', '/v1/posts/plan', {
        key: ws.readKey,
        body: body({ targets: { groupId: group.body.id }, mediaIds: [] }),
      });
      expect(res.status).toBe(200);
      expect(res.body.rows.map((r: { accountId: string }) => r.accountId)).toEqual([fb, th]);
    });

    it('needs exactly one of accountIds or groupId', async () => {
      for (const targets of [{}, { accountIds: [ig], groupId: 'grp_x' }]) {
        const res = await call(env, 'post', '/v1/posts/plan', { key: ws.readKey, body: body({ targets }) });
        expect(res.status).toBe(400);
        expect(res.body.message).toContain('`targets` must hold exactly one of `accountIds` or `groupId`');
      }
    });

    it('answers 404 for accounts, groups and media of another workspace, as for missing ones', async () => {
      const theirs = await addAccount(env, other.workspaceId, 'instagram', 'Theirs');
      const theirMedia = await seedMedia(env, other.workspaceId);
      const cases = [
        body({ targets: { accountIds: [ig, theirs] } }),
        body({ targets: { accountIds: ['acc_nope'] } }),
        body({ targets: { groupId: 'grp_nope' } }),
        body({ mediaIds: [theirMedia] }),
      ];
      for (const b of cases) {
        const res = await call(env, 'post', '/v1/posts/plan', { key: ws.readKey, body: b });
        expect(res.status, JSON.stringify(b.targets)).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
    });

    it('plans now and drafts', async () => {
      const now = await call(env, 'post', '/v1/posts/plan', { key: ws.readKey, body: body({ when: 'now' }) });
      expect(now.body.status).toBe('queued');
      expect(Math.abs(Date.parse(now.body.rows[0].publishAt) - Date.now())).toBeLessThan(60_000);
      const draft = await call(env, 'post', '/v1/posts/plan', { key: ws.readKey, body: body({ when: 'draft' }) });
      expect(draft.body).toMatchObject({ status: 'draft', quota: { requested: 0 } });
      expect(draft.body.rows[0].publishAt).toBeNull();
    });

    it('refuses an unknown zone, a malformed time and a date that does not exist with 400', async () => {
      const cases: [unknown, RegExp][] = [
        [{ publishAt: '2027-01-10T10:00', timezone: 'Mars/Olympus' }, /`when.timezone`/],
        [{ publishAt: '2027-01-10 10:00', timezone: 'Europe/Berlin' }, /`when.publishAt`/],
        [
          { publishAt: '2027-02-30T10:00', timezone: 'Europe/Berlin' },
          /`when.publishAt` "2027-02-30T10:00" is not a calendar date/,
        ],
        ['tomorrow', /`when`/],
      ];
      for (const [when, message] of cases) {
        const res = await call(env, 'post', '/v1/posts/plan', { key: ws.readKey, body: body({ when }) });
        expect(res.status, JSON.stringify(when)).toBe(400);
        expect(res.body.message).toMatch(message);
      }
    });
  });

  describe('POST /posts', () => {
    it('answers 409 confirm_required without confirm: true, and creates nothing', async () => {
      const before = await listAll();
      for (const extra of [{}, { confirm: false }]) {
        const res = await call(env, 'post', '/v1/posts', { key: ws.writeKey, body: body(extra) });
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('confirm_required');
      }
      expect(await listAll()).toEqual(before);
    });

    it('answers 403 to a read key', async () => {
      expect((await call(env, 'post', '/v1/posts', { key: ws.readKey, body: body({ confirm: true }) })).status).toBe(
        403,
      );
    });

    it('creates nothing when any row fails, answering 422 checks_failed with the rows', async () => {
      const before = await listAll();
      const res = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: body({ targets: { accountIds: [ig, expired] }, confirm: true }),
      });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('checks_failed');
      expect(res.body.rows[0]).toMatchObject({ accountId: ig, ok: true });
      expect(res.body.rows[1]).toMatchObject({
        accountId: expired,
        ok: false,
        issues: [expect.objectContaining({ code: 'account_not_ok' })],
      });
      expect(await listAll()).toEqual(before);
    });

    it('creates one queued post per account with the exact statusLine', async () => {
      const when = berlin(5, '09:05');
      const res = await call(env, 'post', '/v1/posts', { key: ws.writeKey, body: body({ when, confirm: true }) });
      expect(res.status).toBe(201);
      expect(res.body.posts).toEqual([
        {
          id: expect.stringMatching(/^pst_/),
          status: 'queued',
          statusLine: expectedLine('Queued', 'Instagram', 'Acme Shop', when.publishAt),
        },
        {
          id: expect.stringMatching(/^pst_/),
          status: 'queued',
          statusLine: expectedLine('Queued', 'Facebook', 'Acme Page', when.publishAt),
        },
      ]);
      const post = await call(env, 'get', `/v1/posts/${res.body.posts[0].id}`, { key: ws.readKey });
      expect(post.body).toMatchObject({
        accountId: ig,
        platform: 'instagram',
        status: 'queued',
        createdVia: 'api',
        mediaIds: [image],
        text: 'Autumn sale: 30% off everything until Sunday.',
        title: null,
        tags: [],
        perPlatform: {},
      });
      expect(post.body).not.toHaveProperty('externalUrl');
      expect(post.body).not.toHaveProperty('error');
    });

    it('applies overrides and perPlatform per network', async () => {
      const res = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: body({
          targets: { accountIds: [ig, fb] },
          confirm: true,
          overrides: { facebook: { text: 'Longer text for Facebook.' } },
          perPlatform: { instagram: { contentType: 'feed' } },
        }),
      });
      expect(res.status).toBe(201);
      const [a, b] = await Promise.all(
        res.body.posts.map((p: { id: string }) => call(env, 'get', `/v1/posts/${p.id}`, { key: ws.readKey })),
      );
      expect(a!.body).toMatchObject({
        text: 'Autumn sale: 30% off everything until Sunday.',
        perPlatform: { contentType: 'feed' },
      });
      expect(b!.body).toMatchObject({ text: 'Longer text for Facebook.', perPlatform: {} });
    });

    it('saves drafts without a time and without counting them', async () => {
      const used = (await call(env, 'get', '/v1/whoami', { key: ws.readKey })).body.usage.posts.used;
      const res = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: body({ when: 'draft', confirm: true }),
      });
      expect(res.status).toBe(201);
      expect(res.body.posts[0]).toEqual({
        id: expect.any(String),
        status: 'draft',
        statusLine: 'Draft. Instagram · Acme Shop · no time set.',
      });
      expect((await call(env, 'get', '/v1/whoami', { key: ws.readKey })).body.usage.posts.used).toBe(used);
    });
  });

  describe('quota: a post counts toward the month in which it reached queued', () => {
    it('refuses posts over the month with 402 and gives a cancelled post its place back', async () => {
      const quota = await seedWorkspace(env, { plan: 'creator' });
      const acc = await addAccount(env, quota.workspaceId, 'threads', 'Quota Threads');
      await fillMonth(env, quota.workspaceId, acc, 'threads', 199);
      const one = { targets: { accountIds: [acc] }, mediaIds: [], text: 'Hi', when: berlin(2), confirm: true };
      const last = await call(env, 'post', '/v1/posts', { key: quota.writeKey, body: one });
      expect(last.status).toBe(201);
      const over = await call(env, 'post', '/v1/posts', { key: quota.writeKey, body: one });
      expect(over.status).toBe(402);
      expect(over.body).toMatchObject({
        code: 'quota_exceeded',
        limit: 200,
        used: 200,
        upgradeUrl: expect.stringContaining('/app/settings/billing'),
      });
      const plan = await call(env, 'post', '/v1/posts/plan', {
        key: quota.readKey,
        body: { ...one, confirm: undefined },
      });
      expect(plan.body.quota).toEqual({ used: 200, limit: 200, requested: 1 });
      const cancelled = await call(env, 'post', `/v1/posts/${last.body.posts[0].id}/cancel`, {
        key: quota.writeKey,
        body: { confirm: true },
      });
      expect(cancelled.body.status).toBe('draft');
      expect((await call(env, 'get', '/v1/whoami', { key: quota.readKey })).body.usage.posts).toEqual({
        used: 199,
        limit: 200,
      });
      expect((await call(env, 'post', '/v1/posts', { key: quota.writeKey, body: one })).status).toBe(201);
    });

    it('never lets parallel creates pass the month limit', async () => {
      const quota = await seedWorkspace(env, { plan: 'creator' });
      const acc = await addAccount(env, quota.workspaceId, 'facebook', 'Race Page');
      await fillMonth(env, quota.workspaceId, acc, 'facebook', 195);
      const one = { targets: { accountIds: [acc] }, mediaIds: [], text: 'Race', when: berlin(2), confirm: true };
      const results = await Promise.all(
        Array.from({ length: 12 }, () => call(env, 'post', '/v1/posts', { key: quota.writeKey, body: one })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(5);
      expect(statuses.filter((s) => s === 402)).toHaveLength(7);
      expect((await call(env, 'get', '/v1/whoami', { key: quota.readKey })).body.usage.posts.used).toBe(200);
    });
  });

  describe('creation limit: 60 POST /posts per hour per workspace', () => {
    it('answers 429 rate_limited with Retry-After, retryAt and who spent the hour after 60 creations', async () => {
      const busy = await seedWorkspace(env, { plan: 'agency' });
      const acc = await addAccount(env, busy.workspaceId, 'facebook', 'Busy Page');
      const owner = await signedIn(env, busy.userId, busy.workspaceId);
      const oldest = new Date(Date.now() - 20 * 60_000);
      await env.services.db('post_creations').insert(
        Array.from({ length: 58 }, (_, i) => ({
          workspace_id: busy.workspaceId,
          at: new Date(oldest.getTime() + i * 1000).toISOString(),
        })),
      );
      const one = { targets: { accountIds: [acc] }, mediaIds: [], text: 'Hello', when: berlin(2), confirm: true };
      expect((await asPerson(env, owner, 'post', '/v1/posts', one)).status).toBe(201);
      expect((await call(env, 'post', '/v1/posts', { key: busy.writeKey, body: one })).status).toBe(201);
      const limited = await call(env, 'post', '/v1/posts', { key: busy.writeKey, body: one });
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(39 * 60);
      expect(retryAfter).toBeLessThanOrEqual(40 * 60 + 1);
      const returns = new Date(oldest.getTime() + 3600_000);
      expect(limited.body).toMatchObject({
        code: 'rate_limited',
        limit: 60,
        actual: 60,
        spentBy: { keys: 1, people: 1 },
      });
      // retryAt is the instant Retry-After counts down to, whole seconds from now.
      expect(Math.abs(Date.parse(limited.body.retryAt) - returns.getTime())).toBeLessThan(2000);
      // A person is refused the same way, and Settings shows the hour's allowance spent.
      const refused = await asPerson(env, owner, 'post', '/v1/posts', one);
      expect(refused.status).toBe(429);
      expect(refused.body.spentBy).toEqual({ keys: 1, people: 1 });
      const billing = await asPerson(env, owner, 'get', '/auth/billing');
      expect(billing.body.usage.newPostsThisHour).toEqual({
        used: 60,
        limit: 60,
        spentBy: { keys: 1, people: 1 },
        retryAt: returns.toISOString(),
      });
      // Another workspace is not affected.
      const acc2 = await addAccount(env, other.workspaceId, 'facebook', 'Other Page');
      expect(
        (
          await call(env, 'post', '/v1/posts', {
            key: other.writeKey,
            body: { ...one, targets: { accountIds: [acc2] } },
          })
        ).status,
      ).toBe(201);
    });
  });

  describe('reading posts', () => {
    it('lists with filters and stable cursor pages: by time, drafts last', async () => {
      const list = await seedWorkspace(env, { plan: 'creator' });
      const a = await addAccount(env, list.workspaceId, 'threads', 'List A');
      const b = await addAccount(env, list.workspaceId, 'facebook', 'List B');
      const create = (accountIds: string[], when: unknown) =>
        call(env, 'post', '/v1/posts', {
          key: list.writeKey,
          body: { targets: { accountIds }, mediaIds: [], text: 'Listed', when, confirm: true },
        });
      for (const day of [4, 2, 6]) await create([a, b], berlin(day));
      await create([a], 'draft');
      await create([b], 'draft');
      type Listed = { id: string; status: string; publishAt: string | null; accountId: string };
      const walk = async (query: string) => {
        const walked: Listed[] = [];
        let cursor: string | null = null;
        do {
          const res = await call(env, 'get', `/v1/posts?${query}${cursor ? `&cursor=${cursor}` : ''}`, {
            key: list.readKey,
          });
          expect(res.status).toBe(200);
          walked.push(...res.body.posts);
          cursor = res.body.nextCursor;
        } while (cursor);
        return walked;
      };
      const all = await walk('limit=3');
      expect(all).toHaveLength(8);
      // Page by page, cursors among the drafts too (their own form, with and without a status), the same order.
      expect(await walk('limit=1')).toEqual(all);
      expect(await walk('status=draft&limit=1')).toEqual(all.slice(6));
      const times = all.map((p) => p.publishAt);
      expect(times.slice(0, 6)).toEqual([...times.slice(0, 6)].sort());
      expect(times.slice(6)).toEqual([null, null]);
      expect(new Set(all.map((p) => p.id)).size).toBe(8);

      expect((await call(env, 'get', '/v1/posts?status=draft', { key: list.readKey })).body.posts).toHaveLength(2);
      expect((await call(env, 'get', '/v1/posts?status=queued', { key: list.readKey })).body.posts).toHaveLength(6);
      const onlyB = (await call(env, 'get', `/v1/posts?accountId=${b}`, { key: list.readKey })).body.posts;
      expect(onlyB.every((p: { accountId: string }) => p.accountId === b)).toBe(true);
      expect(onlyB).toHaveLength(4);
      const from = DateTime.fromISO(berlin(3).publishAt, { zone: 'Europe/Berlin' }).toUTC().toISO();
      const to = DateTime.fromISO(berlin(6).publishAt, { zone: 'Europe/Berlin' }).toUTC().toISO();
      const ranged = (
        await call(env, 'get', `/v1/posts?from=${encodeURIComponent(from!)}&to=${encodeURIComponent(to!)}`, {
          key: list.readKey,
        })
      ).body.posts;
      expect(ranged).toHaveLength(2);
      // A range pages by cursor like the whole list, and a lower bound alone leaves the drafts out.
      const paged = await walk(`from=${encodeURIComponent(from!)}&to=${encodeURIComponent(to!)}&limit=1`);
      expect(paged.map((p) => p.id)).toEqual(ranged.map((p: { id: string }) => p.id));
      const later = (await call(env, 'get', `/v1/posts?from=${encodeURIComponent(from!)}`, { key: list.readKey })).body
        .posts;
      expect(later.map((p: { publishAt: string }) => p.publishAt)).toEqual(times.filter((t) => t && t >= from!));
      expect((await call(env, 'get', '/v1/posts?accountId=acc_nope', { key: list.readKey })).status).toBe(404);
      expect((await call(env, 'get', '/v1/posts?cursor=garbage', { key: list.readKey })).status).toBe(400);
      expect((await call(env, 'get', '/v1/posts?status=published', { key: list.readKey })).status).toBe(400);
      expect((await call(env, 'get', '/v1/posts?limit=500', { key: list.readKey })).status).toBe(400);
    });

    it('gives the posts of one create call one batchId, which an edit keeps and no other call shares', async () => {
      const made = await seedWorkspace(env, { plan: 'creator' });
      const a = await addAccount(env, made.workspaceId, 'threads', 'Batch A');
      const b = await addAccount(env, made.workspaceId, 'facebook', 'Batch B');
      const create = async (accountIds: string[]) =>
        (
          await call(env, 'post', '/v1/posts', {
            key: made.writeKey,
            body: { targets: { accountIds }, mediaIds: [], text: 'Together', when: 'draft', confirm: true },
          })
        ).body.posts.map((p: { id: string }) => p.id) as string[];
      const [first, second] = await create([a, b]);
      const [third] = await create([a]);
      const batchOf = async (id: string) =>
        (await call(env, 'get', `/v1/posts/${id}`, { key: made.readKey })).body.batchId as string;
      expect(await batchOf(first!)).toMatch(/^bat_/);
      expect(await batchOf(second!)).toBe(await batchOf(first!));
      expect(await batchOf(third!)).not.toBe(await batchOf(first!));
      const edited = await call(env, 'patch', `/v1/posts/${second}`, { key: made.writeKey, body: { text: 'Apart' } });
      expect(edited.body.batchId).toBe(await batchOf(first!));
    });

    it('searches text and title with q, ignoring case, wildcards and quotes matching only themselves', async () => {
      const found = await seedWorkspace(env, { plan: 'creator' });
      const acc = await addAccount(env, found.workspaceId, 'threads', 'Search');
      const create = async (text: string, title?: string) =>
        (
          await call(env, 'post', '/v1/posts', {
            key: found.writeKey,
            body: { targets: { accountIds: [acc] }, mediaIds: [], text, title, when: 'draft', confirm: true },
          })
        ).body.posts[0].id as string;
      const search = async (q: string) => {
        const res = await call(env, 'get', `/v1/posts?q=${encodeURIComponent(q)}&limit=100`, { key: found.readKey });
        expect(res.status, q).toBe(200);
        return (res.body.posts as { id: string }[]).map((p) => p.id).sort();
      };
      const sale = await create('Autumn SALE: 30% off', 'Crème Brûlée week');
      const under = await create('snake_case and back\\slash');
      const quote = await create(`it's "quoted"`);
      expect(await search('autumn sale')).toEqual([sale]);
      expect(await search('CRÈME')).toEqual([sale]);
      expect(await search('30%')).toEqual([sale]);
      expect(await search('%')).toEqual([sale]);
      expect(await search('e_c')).toEqual([under]);
      expect(await search('_')).toEqual([under]);
      expect(await search('k\\s')).toEqual([under]);
      expect(await search('\'s "')).toEqual([quote]);
      expect(await search('nowhere')).toEqual([]);
      expect((await call(env, 'get', '/v1/posts?q=', { key: found.readKey })).status).toBe(400);
      expect((await call(env, 'get', `/v1/posts?q=${'x'.repeat(201)}`, { key: found.readKey })).status).toBe(400);
      // Another workspace's posts never match.
      expect((await call(env, 'get', '/v1/posts?q=autumn', { key: other.readKey })).body.posts).toEqual([]);

      // Fuzz rows (a fixed seed): texts and queries drawn from characters LIKE and case treat specially, each
      // query's answer compared with what JavaScript finds.
      let seed = 25;
      const random = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed % n;
      };
      const ALPHABET = ['a', 'A', 'ä', 'Ä', 'é', 'É', '%', '_', '\\', "'", '"', ' ', 'x', 'ß', '?'];
      const draw = (length: number) => Array.from({ length }, () => ALPHABET[random(ALPHABET.length)]).join('');
      const rows = new Map([
        [sale, ['Autumn SALE: 30% off', 'Crème Brûlée week']],
        [under, ['snake_case and back\\slash']],
        [quote, [`it's "quoted"`]],
      ]);
      for (let i = 0; i < 12; i++) {
        const [text, title] = [draw(1 + random(10)), i % 3 ? undefined : draw(1 + random(10))];
        rows.set(await create(text, title), title ? [text, title] : [text]);
      }
      const texts = [...rows.values()].flat();
      for (let i = 0; i < 40; i++) {
        const from = texts[random(texts.length)]!;
        const start = random(from.length);
        const q = i % 2 ? draw(1 + random(3)) : from.slice(start, start + 1 + random(4));
        const expected = [...rows]
          .filter(([, both]) => both.some((t) => t.toLowerCase().includes(q.toLowerCase())))
          .map(([id]) => id);
        expect(await search(q), JSON.stringify(q)).toEqual(expected.sort());
      }
    });

    it('answers 404 for a post of another workspace, and for its events', async () => {
      const acc = await addAccount(env, other.workspaceId, 'threads', 'Their Threads');
      const theirs = await call(env, 'post', '/v1/posts', {
        key: other.writeKey,
        body: { targets: { accountIds: [acc] }, mediaIds: [], text: 'Theirs', when: 'draft', confirm: true },
      });
      const id = theirs.body.posts[0].id;
      for (const [method, url, opts] of [
        ['get', `/v1/posts/${id}`, {}],
        ['get', `/v1/posts/${id}/events`, {}],
        ['post', `/v1/posts/${id}/cancel`, { body: { confirm: true } }],
        ['patch', `/v1/posts/${id}`, { body: { confirm: true, when: berlin(2) } }],
        ['patch', `/v1/posts/${id}`, { body: { text: 'Mine now' } }],
        ['delete', `/v1/posts/${id}?confirm=true`, {}],
      ] as const) {
        const res = await call(env, method, url, { key: ws.writeKey, ...opts });
        expect(res.status, `${method} ${url}`).toBe(404);
      }
      expect((await call(env, 'get', `/v1/posts/${id}`, { key: other.readKey })).status).toBe(200);
    });
  });

  describe('transitions', () => {
    async function queued(when = berlin(3)) {
      const res = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: { targets: { accountIds: [th] }, mediaIds: [], text: 'Moving', when, confirm: true },
      });
      expect(res.status).toBe(201);
      return res.body.posts[0].id as string;
    }
    const kinds = async (id: string) =>
      (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events.map(
        (e: { kind: string }) => e.kind,
      );

    it('cancel: queued -> draft with confirm; a draft cannot be cancelled', async () => {
      const id = await queued();
      expect((await call(env, 'post', `/v1/posts/${id}/cancel`, { key: ws.writeKey })).status).toBe(409);
      const res = await call(env, 'post', `/v1/posts/${id}/cancel`, { key: ws.writeKey, body: { confirm: true } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'draft',
        publishAt: null,
        statusLine: 'Draft. Threads · Acme Threads · no time set.',
      });
      const again = await call(env, 'post', `/v1/posts/${id}/cancel`, { key: ws.writeKey, body: { confirm: true } });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('invalid_state');
      expect(await kinds(id)).toEqual(['created', 'queued', 'cancelled']);
      const events = (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events;
      expect(events.at(-1)).toMatchObject({ kind: 'cancelled', reason: 'asked' });
    });

    it('reschedule: queued -> queued at a new time; draft -> queued at its first time', async () => {
      const id = await queued();
      const when = berlin(7, '08:15');
      expect((await call(env, 'patch', `/v1/posts/${id}`, { key: ws.writeKey, body: { when } })).status).toBe(409);
      const res = await call(env, 'patch', `/v1/posts/${id}`, { key: ws.writeKey, body: { when, confirm: true } });
      expect(res.status).toBe(200);
      expect(res.body.statusLine).toBe(expectedLine('Queued', 'Threads', 'Acme Threads', when.publishAt));
      await call(env, 'post', `/v1/posts/${id}/cancel`, { key: ws.writeKey, body: { confirm: true } });
      const used = (await call(env, 'get', '/v1/whoami', { key: ws.readKey })).body.usage.posts.used;
      const back = await call(env, 'patch', `/v1/posts/${id}`, {
        key: ws.writeKey,
        body: { when: berlin(8), confirm: true },
      });
      expect(back.body.status).toBe('queued');
      expect((await call(env, 'get', '/v1/whoami', { key: ws.readKey })).body.usage.posts.used).toBe(used + 1);
      expect(await kinds(id)).toEqual(['created', 'queued', 'rescheduled', 'cancelled', 'rescheduled', 'queued']);
    });

    it('reschedule answers 422 with the row when the new time fails, and changes nothing', async () => {
      const id = await queued();
      const before = (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
      const res = await call(env, 'patch', `/v1/posts/${id}`, {
        key: ws.writeKey,
        body: { when: { publishAt: '2020-01-01T10:00', timezone: 'Europe/Berlin' }, confirm: true },
      });
      expect(res.status).toBe(422);
      expect(res.body.rows[0].issues[0]).toMatchObject({
        code: 'time_too_soon',
        message: expect.stringContaining('in the past'),
      });
      expect((await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body).toEqual(before);
    });

    it('retry: failed -> queued with confirm, sent again now; the account must be ok', async () => {
      const id = await queued();
      const error = {
        code: 'threads_unavailable',
        message: 'Threads answered: "An unexpected error has occurred. Please retry your request later." (code 2)',
        hint: 'Herald retries by itself after 1, 5 and 15 minutes.',
      };
      await setPostState(env, ws.workspaceId, id, { status: 'failed', error });
      const failed = (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
      expect(failed).toMatchObject({ status: 'failed', error });
      expect(failed.statusLine).toMatch(
        /^Failed\. Threads · Acme Threads · \d+ \w+, \d\d:\d\d \(CES?T\): Threads answered: "An unexpected error/,
      );
      expect((await call(env, 'post', `/v1/posts/${id}/retry`, { key: ws.writeKey, body: {} })).status).toBe(409);
      const res = await call(env, 'post', `/v1/posts/${id}/retry`, { key: ws.writeKey, body: { confirm: true } });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('queued');
      expect(res.body).not.toHaveProperty('error');
      expect(Math.abs(Date.parse(res.body.publishAt) - Date.now())).toBeLessThan(60_000);
      const again = await call(env, 'post', `/v1/posts/${id}/retry`, { key: ws.writeKey, body: { confirm: true } });
      expect(again.body.code).toBe('invalid_state');
      expect(await kinds(id)).toEqual(['created', 'queued', 'publishing', 'failed', 'retried']);

      const onExpired = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: { targets: { accountIds: [expired] }, mediaIds: [], text: 'x', when: 'draft', confirm: true },
      });
      await setPostState(env, ws.workspaceId, onExpired.body.posts[0].id, { status: 'failed', error });
      const refused = await call(env, 'post', `/v1/posts/${onExpired.body.posts[0].id}/retry`, {
        key: ws.writeKey,
        body: { confirm: true },
      });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('account_not_ok');
    });

    it('live is final: every change answers 409, and the post shows its externalUrl', async () => {
      const id = await queued();
      const liveAt = new Date().toISOString();
      await setPostState(env, ws.workspaceId, id, {
        status: 'live',
        externalUrl: 'https://www.threads.net/@acme/post/C1',
        liveAt,
      });
      const live = (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
      expect(live).toMatchObject({ status: 'live', externalUrl: 'https://www.threads.net/@acme/post/C1' });
      expect(live.statusLine).toMatch(/^Live\. Threads · Acme Threads · /);
      for (const [method, url, b] of [
        ['post', `/v1/posts/${id}/cancel`, { confirm: true }],
        ['post', `/v1/posts/${id}/retry`, { confirm: true }],
        ['patch', `/v1/posts/${id}`, { when: berlin(9), confirm: true }],
      ] as const) {
        const res = await call(env, method, url, { key: ws.writeKey, body: b });
        expect(res.status, url).toBe(409);
        expect(res.body).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('live') });
      }
    });
  });
  describe('edit and delete', () => {
    const threadsPost = async (when: unknown, text = 'Before') => {
      const res = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: { targets: { accountIds: [th] }, mediaIds: [], text, when, confirm: true },
      });
      expect(res.status).toBe(201);
      return res.body.posts[0].id as string;
    };
    const instagramPost = async () => {
      const res = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: { targets: { accountIds: [ig] }, mediaIds: [image], text: 'Photo', when: berlin(4), confirm: true },
      });
      expect(res.status).toBe(201);
      return res.body.posts[0].id as string;
    };
    const read = async (id: string) => (await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).body;
    const timeline = async (id: string) =>
      (await call(env, 'get', `/v1/posts/${id}/events`, { key: ws.readKey })).body.events as {
        kind: string;
        message?: string;
        changed?: string[];
      }[];
    const edit = (id: string, body: Record<string, unknown>, key = ws.writeKey) =>
      call(env, 'patch', `/v1/posts/${id}`, { key, body });
    const remove = (id: string, confirm = true, key = ws.writeKey) =>
      call(env, 'delete', `/v1/posts/${id}${confirm ? '?confirm=true' : ''}`, { key });
    const used = async () => (await call(env, 'get', '/v1/whoami', { key: ws.readKey })).body.usage.posts.used;
    const failedError = {
      code: 'threads_rejected',
      message: 'Threads answered: "The post text is not allowed." (code 100)',
      hint: 'Change the text, then retry.',
    };

    it('creates a draft whatever its plan says: only a queued post needs the checks to pass', async () => {
      const res = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: { targets: { accountIds: [ig, th] }, mediaIds: [], text: 'x'.repeat(600), when: 'draft', confirm: true },
      });
      expect(res.status).toBe(201);
      expect(res.body.posts.map((p: { status: string }) => p.status)).toEqual(['draft', 'draft']);
    });

    it('edits a draft without confirm and saves it as it is, even with plan issues', async () => {
      const id = await threadsPost('draft');
      const long = 'x'.repeat(600);
      const res = await edit(id, { text: long, tags: ['autumn'] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'draft', text: long, tags: ['autumn'], publishAt: null });
      expect((await timeline(id)).map((e) => [e.kind, e.message, e.changed])).toEqual([
        ['created', 'Created through the API.', undefined],
        ['edited', 'Changed the text and the tags.', ['text', 'tags']],
      ]);
      // Scheduling it needs the checks to pass: the time and the fix in one call.
      const refused = await edit(id, { when: berlin(3), confirm: true });
      expect(refused.status).toBe(422);
      expect(refused.body.rows[0].issues.map((i: { code: string }) => i.code)).toContain('caption_too_long');
      const before = await used();
      const scheduled = await edit(id, { when: berlin(3), text: 'Short again', confirm: true });
      expect(scheduled.status).toBe(200);
      expect(scheduled.body).toMatchObject({ status: 'queued', text: 'Short again' });
      expect(await used()).toBe(before + 1);
      expect((await timeline(id)).map((e) => e.kind)).toEqual(['created', 'edited', 'edited', 'rescheduled', 'queued']);
    });

    it('edits a queued post only with confirm, keeps its time, and checks it again (422 with its row)', async () => {
      const id = await instagramPost();
      const before = await read(id);
      const unconfirmed = await edit(id, { text: 'New caption' });
      expect(unconfirmed.status).toBe(409);
      expect(unconfirmed.body).toMatchObject({
        code: 'confirm_required',
        message: 'Changing a queued post needs confirm: true; nothing was changed.',
      });
      const noMedia = await edit(id, { mediaIds: [], confirm: true });
      expect(noMedia.status).toBe(422);
      expect(noMedia.body).toMatchObject({
        code: 'checks_failed',
        message: '1 of 1 posts do not pass the network checks; nothing was changed.',
        hint: "Fix what the row's issues name, then send the change again.",
        rows: [{ accountId: ig, ok: false }],
      });
      expect(await read(id)).toEqual(before);
      const res = await edit(id, {
        text: 'New caption',
        overrides: { instagram: { text: 'Caption for Instagram' } },
        perPlatform: { instagram: { contentType: 'feed' } },
        confirm: true,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'queued',
        text: 'Caption for Instagram',
        publishAt: before.publishAt,
        perPlatform: { contentType: 'feed' },
        statusLine: before.statusLine,
      });
      expect((await timeline(id)).at(-1)).toMatchObject({
        kind: 'edited',
        message: 'Changed the text.',
        changed: ['text'],
      });
    });

    it('refuses settings for another network, an empty change and unknown fields with 400', async () => {
      const id = await threadsPost('draft');
      const cases: [Record<string, unknown>, RegExp][] = [
        [
          { perPlatform: { youtube: { visibility: 'unlisted' } } },
          /`perPlatform.youtube`: .* only `perPlatform.threads`/,
        ],
        [{ overrides: { facebook: { text: 'x' } } }, /`overrides.facebook`/],
        [{}, /Give `when`, or at least one of `text`/],
        [{ confirm: true }, /Give `when`/],
        [{ accountId: fb }, /accountId/],
        [{ text: 5 }, /`text`/],
      ];
      for (const [body, message] of cases) {
        const res = await edit(id, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toMatch(message);
      }
      expect((await timeline(id)).map((e) => e.kind)).toEqual(['created']);
    });

    it('edits a failed post without confirm; it stays failed until retried, and must pass its checks', async () => {
      const id = await threadsPost(berlin(3));
      await setPostState(env, ws.workspaceId, id, { status: 'failed', error: failedError });
      const tooLong = await edit(id, { text: 'y'.repeat(600) });
      expect(tooLong.status).toBe(422);
      const res = await edit(id, { text: 'Allowed text' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'failed', text: 'Allowed text', error: failedError });
      const moved = await edit(id, { when: berlin(3), confirm: true });
      expect(moved.status).toBe(409);
      expect(moved.body.code).toBe('invalid_state');
      const retried = await call(env, 'post', `/v1/posts/${id}/retry`, { key: ws.writeKey, body: { confirm: true } });
      expect(retried.body).toMatchObject({ status: 'queued', text: 'Allowed text' });
    });

    it('refuses edits of a post whose attempt began, or that an attempt partly sent; live stays final', async () => {
      const id = await threadsPost(berlin(3));
      const [attempt] = await reservePosts(env.services.db, [id], 'wkr_edit', '9999-12-31T00:00:00.000Z');
      await startAttempts(env.services.db, [{ attempt: attempt!, message: 'Sending.' }], new Date().toISOString());
      const busy = await edit(id, { text: 'Too late', confirm: true });
      expect(busy.status).toBe(409);
      expect(busy.body).toMatchObject({
        code: 'invalid_state',
        message: expect.stringContaining('being published'),
        actual: 'publishing',
      });
      expect((await read(id)).text).toBe('Before');

      const waiting = await threadsPost(berlin(3));
      // An earlier attempt got part of the way and Herald will resume it: only its time may change.
      await env.services.db('posts').where({ id: waiting }).update({ checkpoint: '{"containerId":"c1"}' });
      const partly = await edit(waiting, { text: 'Other text', confirm: true });
      expect(partly.status).toBe(409);
      expect(partly.body.message).toContain('partly sent');
      expect((await edit(waiting, { when: berlin(5), confirm: true })).status).toBe(200);

      const live = await threadsPost(berlin(3));
      await setPostState(env, ws.workspaceId, live, { status: 'live' });
      const final = await edit(live, { text: 'Rewritten' });
      expect(final.status).toBe(409);
      expect(final.body.message).toContain('is live');
      expect(final.body.actual).toBe('live');
    });

    it('takes back a reservation made with the old content: that attempt can no longer start', async () => {
      const id = await threadsPost(berlin(3));
      const [stale] = await reservePosts(env.services.db, [id], 'wkr_edit', '9999-12-31T00:00:00.000Z');
      expect(stale?.text).toBe('Before');
      expect((await edit(id, { text: 'After', confirm: true })).status).toBe(200);
      const started = await startAttempts(env.services.db, [{ attempt: stale!, message: 'Sending.' }], 'x');
      expect(started).toEqual([false]);
      const [fresh] = await reservePosts(env.services.db, [id], 'wkr_edit', '9999-12-31T00:00:00.000Z');
      expect(fresh?.text).toBe('After');
    });

    it('deletes a draft with confirm, with an audit entry; its file can then be deleted', async () => {
      const file = await seedMedia(env, ws.workspaceId);
      const draft = await call(env, 'post', '/v1/posts', {
        key: ws.writeKey,
        body: { targets: { accountIds: [ig] }, mediaIds: [file], text: 'Draft', when: 'draft', confirm: true },
      });
      const id = draft.body.posts[0].id as string;
      expect((await call(env, 'delete', `/v1/media/${file}?confirm=true`, { key: ws.writeKey })).status).toBe(409);
      const unconfirmed = await remove(id, false);
      expect(unconfirmed.status).toBe(409);
      expect(unconfirmed.body.code).toBe('confirm_required');
      expect((await remove(id, true, ws.readKey)).status).toBe(403);
      const res = await remove(id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id, deleted: true });
      expect((await call(env, 'get', `/v1/posts/${id}`, { key: ws.readKey })).status).toBe(404);
      expect((await remove(id)).status).toBe(404);
      const audit = await env.services
        .db('audit_events')
        .where({ workspace_id: ws.workspaceId, action: 'post.deleted' });
      expect(audit.map((a) => JSON.parse(a.detail))).toContainEqual(
        expect.objectContaining({ postId: id, status: 'draft', platform: 'instagram', account: 'Acme Shop' }),
      );
      expect(audit.find((a) => JSON.parse(a.detail).postId === id)?.user_id).toBe(ws.userId);
      expect((await call(env, 'delete', `/v1/media/${file}?confirm=true`, { key: ws.writeKey })).status).toBe(200);
    });

    it("deletes a failed post and leaves the month's count as it was", async () => {
      const id = await threadsPost(berlin(3));
      await setPostState(env, ws.workspaceId, id, { status: 'failed', error: failedError });
      const before = await used();
      const res = await remove(id);
      expect(res.status).toBe(200);
      expect(await used()).toBe(before);
      const events = await env.services.db('post_events').where({ post_id: id });
      expect(events).toEqual([]);
    });

    it('refuses to delete a queued post (cancel it first) and a live one', async () => {
      const id = await threadsPost(berlin(3));
      const queued = await remove(id);
      expect(queued.status).toBe(409);
      expect(queued.body).toMatchObject({ code: 'invalid_state', hint: expect.stringContaining('Cancel it first') });
      await call(env, 'post', `/v1/posts/${id}/cancel`, { key: ws.writeKey, body: { confirm: true } });
      expect((await remove(id)).status).toBe(200);
      const live = await threadsPost(berlin(3));
      await setPostState(env, ws.workspaceId, live, { status: 'live' });
      const refused = await remove(live);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain('live post cannot be deleted');
      expect((await read(live)).status).toBe('live');
    });

    it('answers 401 without a key, and 404 for a post that does not exist', async () => {
      expect((await call(env, 'delete', '/v1/posts/pst_nope?confirm=true')).status).toBe(401);
      expect((await call(env, 'patch', '/v1/posts/pst_nope', { body: { text: 'x' } })).status).toBe(401);
      expect((await remove('pst_nope')).status).toBe(404);
      expect((await edit('pst_nope', { text: 'x' })).status).toBe(404);
      const draft = await threadsPost('draft');
      const readOnly = await edit(draft, { text: 'x' }, ws.readKey);
      expect(readOnly.status).toBe(403);
      expect(readOnly.body.code).toBe('insufficient_scope');
      expect((await read(draft)).text).toBe('Before');
    });
  });
});
