// Planning as pure rules: one row per target account with every finding (the time and media findings
// on every row, the account's state, overrides for that network only), ok only when nothing but notes
// was found, and the text table a person reads before confirming.
import { DateTime } from 'luxon';
import { describe, expect, it, vi } from 'vitest';
import { planRows, planTable, type PostBody, type TargetAccount } from '../../domain/planPosts.ts';
import { resolveWhen, type ResolvedWhen } from '../../domain/when.ts';
import { networkOf } from '../../networks/index.ts';
import type { MediaFacts } from '../../networks/rules.ts';

const NOW = DateTime.fromISO('2027-01-15T12:00:00.000Z', { zone: 'utc' });
const ACCOUNTS: TargetAccount[] = [
  { id: 'acc_threads', platform: 'threads', displayName: 'Acme Threads', status: 'ok' },
  { id: 'acc_instagram', platform: 'instagram', displayName: 'Acme Shop', status: 'ok' },
  { id: 'acc_facebook', platform: 'facebook', displayName: 'Acme Page', status: 'ok' },
];
const IMAGE: MediaFacts = {
  id: 'med_image',
  status: 'ready',
  kind: 'image',
  mime: 'image/jpeg',
  size: 500_000,
  width: 1080,
  height: 1080,
  durationSeconds: null,
  bytesDeletedAt: null,
};
const later = (local: string) => resolveWhen({ publishAt: local, timezone: 'Europe/Berlin' }, NOW, 'Europe/Berlin');

function plan(
  body: Partial<PostBody> = {},
  options: { accounts?: TargetAccount[]; media?: MediaFacts[]; when?: ResolvedWhen } = {},
) {
  return planRows({
    accounts: options.accounts ?? ACCOUNTS,
    media: options.media ?? [IMAGE],
    files: [],
    when: options.when ?? later('2027-01-20T14:30'),
    body: { text: 'Autumn sale', ...body },
  });
}
const codes = (rows: ReturnType<typeof plan>) => rows.map((r) => r.issues.map((i) => i.code));

describe('plan rows: one per account, each checked against its network', () => {
  it("gives every row the request's time as a UTC instant, or none for a draft", () => {
    expect(plan().map((r) => [r.accountId, r.platform, r.publishAt, r.ok])).toEqual([
      ['acc_threads', 'threads', '2027-01-20T13:30:00.000Z', true],
      ['acc_instagram', 'instagram', '2027-01-20T13:30:00.000Z', true],
      ['acc_facebook', 'facebook', '2027-01-20T13:30:00.000Z', true],
    ]);
    expect(plan({}, { when: { kind: 'draft' } }).map((r) => r.publishAt)).toEqual([null, null, null]);
  });

  it('checks the body once per network, however many of its accounts are named; each keeps its state', () => {
    const threads = networkOf('threads');
    const check = vi.spyOn(threads, 'check');
    const accounts = Array.from({ length: 50 }, (_, i) => ({
      ...ACCOUNTS[0]!,
      id: `acc_threads${i}`,
      status: i === 7 ? ('expired' as const) : ('ok' as const),
    }));
    const rows = plan({ text: 'a'.repeat(501) }, { accounts, media: [] });
    expect(check).toHaveBeenCalledTimes(1);
    check.mockRestore();
    expect(rows).toHaveLength(50);
    expect(rows[7]!.issues.map((i) => i.code)).toEqual(['account_not_ok', 'caption_too_long']);
    expect(rows[8]!.issues.map((i) => i.code)).toEqual(['caption_too_long']);
  });

  it('puts a time finding and a file not ready on every row', () => {
    const notReady = { ...IMAGE, id: 'med_late', status: 'processing' as const };
    const rows = plan({}, { media: [IMAGE, notReady], when: later('2027-01-15T13:01') });
    expect(codes(rows)).toEqual([
      ['time_too_soon', 'media_not_ready'],
      ['time_too_soon', 'media_not_ready'],
      ['time_too_soon', 'media_not_ready'],
    ]);
    expect(rows[0]!.issues[1]!.message).toBe('mediaIds[1] (med_late) is processing; only ready files can be posted.');
  });

  it.each([
    ['uploading', { status: 'uploading' }, 'mediaIds[0] (med_image) is uploading; only ready files can be posted.'],
    ['processing', { status: 'processing' }, 'mediaIds[0] (med_image) is processing; only ready files can be posted.'],
    ['failed', { status: 'failed' }, 'mediaIds[0] (med_image) failed processing, so it cannot be posted.'],
    [
      'ready, its bytes deleted after going live',
      { bytesDeletedAt: '2027-01-10T10:00:00.000Z' },
      'mediaIds[0] (med_image) no longer has its bytes: they were deleted 72 hours after a post with it went live.',
    ],
  ] as [string, Partial<MediaFacts>, string][])(
    'a plan reports media_not_ready for a file %s',
    (_what, shape, message) => {
      const rows = plan({}, { media: [{ ...IMAGE, ...shape }] });
      for (const r of rows) expect(r.issues.map((i) => [i.code, i.message])).toEqual([['media_not_ready', message]]);
    },
  );

  it('publishing is allowed only to an account with status ok (account_not_ok), naming the account', () => {
    const rows = plan(
      {},
      { accounts: [{ ...ACCOUNTS[0]!, status: 'expired' }, { ...ACCOUNTS[1]!, status: 'revoked' }, ACCOUNTS[2]!] },
    );
    expect(rows.map((r) => [r.ok, r.issues[0]?.message])).toEqual([
      [false, 'Account Acme Threads (acc_threads) is expired; it cannot publish.'],
      [false, 'Account Acme Shop (acc_instagram) is revoked; it cannot publish.'],
      [true, undefined],
    ]);
  });

  it('keeps a row ok when its only finding is a note (time_ambiguous)', () => {
    const rows = plan({}, { when: later('2027-10-31T02:30') });
    expect(codes(rows)).toEqual([['time_ambiguous'], ['time_ambiguous'], ['time_ambiguous']]);
    expect(rows.every((r) => r.ok)).toBe(true);
  });
});

describe('overrides replace text, title and tags for accounts of that network only', () => {
  it("checks each network's row with its own text, and keeps the base for fields left out", () => {
    const rows = plan({
      text: 'a'.repeat(2201),
      title: 'Base',
      tags: ['base'],
      overrides: { threads: { text: 'Short for threads' } },
    });
    expect(rows.map((r) => r.content.text.length)).toEqual(['Short for threads'.length, 2201, 2201]);
    expect(rows[0]!.content).toMatchObject({ title: 'Base', tags: ['base'] });
    expect(codes(rows)).toEqual([[], ['caption_too_long'], []]);
  });
  it('an override can empty a field: an empty facebook text post fails, the others pass', () => {
    expect(
      codes(
        plan(
          { overrides: { facebook: { text: '' } }, perPlatform: { facebook: { contentType: 'text' } } },
          { media: [] },
        ),
      ),
    ).toEqual([[], ['media_kind'], ['text_required']]);
  });
});

describe('the table: account, network, time in the workspace zone, check', () => {
  const quota = { used: 12, limit: 200, requested: 3 };

  it('shows every failing code with its message, notes beside ok, and the defaults the network chose', () => {
    const when = later('2027-01-20T14:30');
    const rows = plan({ text: 'a'.repeat(2201) }, { when });
    expect(planTable(rows, ACCOUNTS, when, 'Europe/Berlin', quota)).toBe(
      [
        'account       network    time                     check',
        'Acme Threads  Threads    20 January, 14:30 (CET)  caption_too_long: text counts 2201 on threads ' +
          '(each emoji counts its UTF-8 bytes); threads allows 500.',
        'Acme Shop     Instagram  20 January, 14:30 (CET)  ' +
          'caption_too_long: text is 2201 characters; an instagram caption allows 2200.',
        'Acme Page     Facebook   20 January, 14:30 (CET)  ok; by default contentType photo',
        'Posts this month: 12 of 200 used; this request adds 3.',
      ].join('\n'),
    );
  });

  it('writes a draft and now in words, and a note in brackets', () => {
    const draft = planTable(plan({}, { when: { kind: 'draft' } }), ACCOUNTS, { kind: 'draft' }, 'Europe/Berlin', {
      ...quota,
      requested: 0,
    });
    expect(draft.split('\n')[1]).toMatch(/^Acme Threads {2}Threads {4}draft \(no time\) {2}ok$/);
    expect(draft.endsWith('Posts this month: 12 of 200 used.')).toBe(true);
    const now = resolveWhen('now', NOW, 'Europe/Berlin');
    expect(planTable(plan({}, { when: now }), ACCOUNTS, now, 'Asia/Kolkata', quota).split('\n')[1]).toContain(
      'now (15 January, 17:30 (IST))',
    );
    const overlap = later('2027-10-31T02:30');
    expect(planTable(plan({}, { when: overlap }), ACCOUNTS, overlap, 'Europe/Berlin', quota).split('\n')[1]).toMatch(
      / ok \(time_ambiguous\)$/,
    );
  });
});
