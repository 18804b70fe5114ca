// The dashboard's words: every code the contract and the server can answer has a sentence for people, and the
// sentences carry the numbers the server's own rules find, naming the form's fields instead of API paths.
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type ApiError, errorBody } from '../../../domain/errors.ts';
import { PLANS } from '../../../domain/plans.ts';
import { type PostState, refusal } from '../../../domain/postStates.ts';
import { assertRole } from '../../../domain/roles.ts';
import { refusedByState } from '../../../handlers/posts/transitions.ts';
import { assertCanAddMember, assertFileFits, downgradeBlockers } from '../../../domain/quotas.ts';
import { resolveWhen } from '../../../domain/when.ts';
import { checkedEmail, checkedPassword } from '../../../signin/passwords.ts';
import type { MediaFacts, PostContent } from '../../../networks/rules.ts';
import { instagramRules } from '../../../networks/instagram/rules.ts';
import { threadsRules } from '../../../networks/threads/rules.ts';
import { youtubeRules } from '../../../networks/youtube/rules.ts';
import type { Platform } from '../api.ts';
import { EVENT_WORDS, eventWords } from './eventWords.ts';
import { speaksApi } from './messageFacts.ts';
import { STATUS_WORDS, statusesText } from './statusWords.ts';
import {
  DELIVERY_STATUS_LABELS,
  DELIVERY_STATUS_WORDS,
  type DeliveryAttempt,
  noAnswerWords,
  WEBHOOK_EVENT_GROUPS,
  WEBHOOK_EVENT_LABELS,
} from './webhookWords.ts';
import { TIKTOK_UNAUDITED } from './settingWords.ts';
import { ERROR_WORDS, failureWords, ISSUE_WORDS, issueWords } from './words.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const contract = parse(fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8'));
const schemas = contract.components.schemas;

/** Codes the server's source answers with: `new ApiError(409, 'code', …)`, a subclass's `super(…)`, member refusals. */
function sourceErrorCodes(): Set<string> {
  const codes = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
        const text = fs.readFileSync(full, 'utf8');
        for (const m of text.matchAll(/(?:ApiError|super)\(\s*\d{3},\s*'([a-z_]+)'/g)) codes.add(m[1]!);
      }
    }
  };
  // The folders that answer HTTP requests (the CLI and the worker's own faults never reach the dashboard).
  for (const dir of ['server', 'handlers', 'domain', 'media', 'networks', 'billing']) walk(path.join(ROOT, dir));
  const refusals = fs.readFileSync(path.join(ROOT, 'domain/memberRefusal.ts'), 'utf8');
  const union = /MemberRefusalCode =([^;]+);/.exec(refusals)![1]!;
  for (const m of union.matchAll(/'([a-z_]+)'/g)) codes.add(m[1]!);
  return codes;
}

/** The codes of the contract's Errors table (info.description), without the `<network>_…` families. */
function contractErrorCodes(): string[] {
  const table = contract.info.description as string;
  return [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]!);
}

describe('every code has words', () => {
  it('has a sentence for each plan issue code of the contract', () => {
    expect(Object.keys(ISSUE_WORDS).sort()).toEqual([...schemas.Issue.properties.code.enum].sort());
  });

  it('has words for each post status of the contract, and says mixed statuses with their counts', () => {
    expect(Object.keys(STATUS_WORDS).sort()).toEqual([...schemas.PostStatus.enum].sort());
    expect(statusesText(['queued', 'queued'])).toBe('Scheduled');
    expect(statusesText(['live', 'failed', 'live'])).toBe('2 published, 1 failed');
  });

  it('has a sentence for each timeline event kind of the contract', () => {
    expect(Object.keys(EVENT_WORDS).sort()).toEqual([...schemas.PostEvent.properties.kind.enum].sort());
  });

  it('names each webhook event type and delivery state of the contract, each event in one group', () => {
    const types = [...schemas.EventType.enum].sort();
    expect(Object.keys(WEBHOOK_EVENT_LABELS).sort()).toEqual([...types, 'webhook.test'].sort());
    expect(WEBHOOK_EVENT_GROUPS.flatMap((g) => g.events).sort()).toEqual(types);
    const states = [...schemas.WebhookDelivery.properties.status.enum].sort();
    expect(Object.keys(DELIVERY_STATUS_LABELS).sort()).toEqual(states);
    expect(Object.keys(DELIVERY_STATUS_WORDS).sort()).toEqual(states);
  });

  it('has words for each error code the contract lists and the server answers with', () => {
    const codes = new Set([...contractErrorCodes(), ...sourceErrorCodes()]);
    expect(codes.size).toBeGreaterThan(30);
    expect([...codes].filter((code) => !(code in ERROR_WORDS))).toEqual([]);
  });
});

const file = (over: Partial<MediaFacts>): MediaFacts => ({
  id: 'med_1',
  status: 'ready',
  kind: 'image',
  mime: 'image/jpeg',
  size: 1000,
  width: 1080,
  height: 1080,
  durationSeconds: null,
  bytesDeletedAt: null,
  ...over,
});
const post = (over: Partial<PostContent>): PostContent => ({
  text: '',
  title: null,
  tags: [],
  media: [],
  settings: {},
  settingFiles: {},
  ...over,
});
/** The issues a network's own check finds, in the dashboard's words. */
function wordsFor(platform: Platform, rules: { check(p: PostContent): { code: string }[] }, content: PostContent) {
  return rules.check(content).map((i) => issueWords(i as Parameters<typeof issueWords>[0], platform, 'Acme Shop'));
}

describe('plan issues read as sentences with their numbers', () => {
  it('says how long a Threads text may be and how long it is', () => {
    const [words] = wordsFor('threads', threadsRules, post({ text: 'a'.repeat(616) }));
    expect(words).toBe(
      'Threads allows 500 characters (emoji count their bytes); this text has 616. Shorten it, or write a ' +
        'different text for Threads.',
    );
  });

  it("says an unaudited TikTok app's rules: a private account, and 5 accounts a day", () => {
    // The facts creatorChecks.ts sends with these issues; the message is not read.
    const said = (facts: object) =>
      issueWords({ code: 'setting_invalid', message: 'not read', hint: '', ...facts }, 'tiktok');
    expect(said({ limit: 'private', actual: 'public' })).toBe(TIKTOK_UNAUDITED.accountPublic);
    expect(said({ limit: 5, actual: 5 })).toBe(TIKTOK_UNAUDITED.noPlaceLeft);
  });

  it('says "more than" where the server stopped counting', () => {
    const [words] = wordsFor('threads', threadsRules, post({ text: 'a'.repeat(6000) }));
    expect(words).toMatch(/; this text has more than 5000\. /);
  });

  it('counts a Threads post’s topics and names the Topic tag field', () => {
    const words = wordsFor('threads', threadsRules, post({ text: 'Sale #autumn #shop' }));
    expect(words).toEqual([
      expect.stringMatching(/^Threads takes one topic per post, and this one has 2: the Topic tag/),
    ]);
  });

  it('names the YouTube title limit and an Instagram carousel’s range', () => {
    const [title] = wordsFor(
      'youtube',
      youtubeRules,
      post({ title: 't'.repeat(101), media: [file({ kind: 'video' })] }),
    );
    expect(title).toBe('YouTube allows 100 characters in a Title; this title has 101. Shorten the Title.');
    const many = Array.from({ length: 11 }, (_, i) => file({ id: `med_${i}` }));
    const [carousel] = wordsFor('instagram', instagramRules, post({ media: many }));
    expect(carousel).toMatch(/^An Instagram carousel takes at most 10 files; this post has 11\./);
  });

  it('names a file by its place and a video’s length against the limit', () => {
    const video = file({ kind: 'video', mime: 'video/mp4', durationSeconds: 75, width: 1080, height: 1920 });
    const [story] = wordsFor('instagram', instagramRules, post({ media: [video], settings: { contentType: 'story' } }));
    expect(story).toBe('The first file is 75 seconds; Instagram allows at most 60 seconds here. Trim the video.');
  });

  it('says a time has passed, from the server’s own time check', () => {
    const now = DateTime.fromISO('2026-11-26T10:00:00Z');
    const resolved = resolveWhen({ publishAt: '2026-11-26T09:00', timezone: 'UTC' }, now, 'UTC');
    const [passed] = resolved.kind === 'at' ? resolved.issues : [];
    expect(issueWords(passed!, 'threads')).toMatch(/^This time has passed/);
  });

  it('never shows a field path, code or id for the rules’ own findings', () => {
    const found = [
      ...wordsFor('threads', threadsRules, post({ text: 'x', settings: { topicTag: 'a.b', link: 'http://x' } })),
      ...wordsFor('instagram', instagramRules, post({ text: '#a '.repeat(31) })),
      ...wordsFor('youtube', youtubeRules, post({ title: '<b>', settings: { category: 'music' } })),
    ];
    expect(found.length).toBeGreaterThan(4);
    for (const words of found) expect(words, words).not.toSatisfy(speaksApi);
  });
});

describe('errors read as sentences for people', () => {
  const failure = (code: string, message: string, body: Record<string, unknown> = {}) =>
    failureWords({ code, message, status: 400, body });

  it('names the sign-up form’s field instead of the API’s', () => {
    const refused = (run: () => unknown) => {
      const err = (() => {
        try {
          run();
        } catch (e) {
          return e as ApiError;
        }
      })()!;
      return failure(err.code, err.message, errorBody(err, 'https://herald.test'));
    };
    expect(refused(() => checkedEmail('not an address')).title).toBe('Email must be an email address.');
    expect(refused(() => checkedPassword('short')).title).toBe('Password must be 10 to 200 characters.');
  });

  it('falls back to a general sentence when the message names no field the form has', () => {
    const words = failure('invalid_request', '`targets.accountIds[0]` must be string.', {
      field: 'targets.accountIds[0]',
    });
    expect(words.title).toBe('Herald could not take what was sent.');
    expect(failure('brand_new_code', 'perPlatform.x is odd').title).toBe('Something went wrong.');
  });

  /** The words for the error `run` throws, as the server sends it. */
  const wordsOfThrown = (run: () => void) => {
    try {
      run();
    } catch (e) {
      const err = e as ApiError;
      return failure(err.code, err.message, errorBody(err, 'https://herald.test'));
    }
    throw new Error('nothing was refused');
  };

  it('names the role needed and the person’s own, from the refusal’s facts', () => {
    expect(wordsOfThrown(() => assertRole('member', 'administrator', 'Seeing billing')).title).toBe(
      'This needs the administrator role; you are a member of this workspace.',
    );
    expect(wordsOfThrown(() => assertRole('administrator', 'owner', 'Changing the plan'))).toEqual({
      title: 'This needs the owner; you are an administrator of this workspace.',
      hint: 'Ask the workspace owner to do it.',
    });
    // The sentence alone says nothing the words read.
    const message = 'Seeing billing needs the administrator role; you are a member of this workspace.';
    expect(failure('insufficient_role', message).title).toBe('Your role in this workspace does not allow this.');
  });

  it('tells a post being published or live by the state the refusal names', () => {
    const refusedIn = (state: PostState) => () => {
      throw refusedByState(refusal({ id: 'pst_1', state }, 'edit')!);
    };
    expect(wordsOfThrown(refusedIn('publishing')).title).toBe('This post is being published right now.');
    expect(wordsOfThrown(refusedIn('live')).title).toBe('This post is already published, and stays as it is.');
    expect(failure('invalid_state', 'Post pst_1 is live; a live post cannot be changed.').title).toBe(
      'The post is no longer in a state that allows this.',
    );
  });

  it('keeps a plan limit’s own sentence, with sizes people read', () => {
    const refused = (run: () => void) => wordsOfThrown(run).title;
    const seats = 'The free plan allows 1 member, and 1 seat is taken (members plus pending invitations).';
    expect(refused(() => assertCanAddMember('free', 1))).toBe(seats);
    expect(refused(() => assertFileFits('free', 600 * 1024 ** 2, 0))).toBe(
      'This file is 600 MB; your plan takes files up to 500 MB.',
    );
    expect(refused(() => assertFileFits('free', 1_000_000, PLANS.free.storageBytes - 1000))).toBe(
      'This file needs 977 KB, and 2.0 GB of your plan’s 2.0 GB of storage are used or taken by uploads in progress.',
    );
  });

  it('says why a link is unusable from its facts, whatever the message says', () => {
    const said = (code: string, actual?: string) => failure(code, 'The server’s sentence.', { actual }).title;
    expect(said('invite_unusable', 'expired')).toBe('This invitation has expired.');
    expect(said('invite_unusable', 'used')).toBe('This invitation was already accepted.');
    expect(said('invite_unusable', 'withdrawn')).toBe('This invitation was withdrawn or replaced by a newer one.');
    expect(said('invite_unusable', 'altered')).toBe('This invitation link is incomplete or was altered.');
    expect(said('invite_unusable')).toBe('This invitation can no longer be used.');
    expect(said('reset_unusable', 'used')).toBe('This password reset link was already used.');
    expect(said('reset_unusable', 'expired')).toBe('This password reset link has expired.');
    expect(said('reset_unusable', 'missing')).toBe('This password reset link can no longer be used.');
  });

  it('tells an inviter and an invitee apart by the field of already_member', () => {
    expect(failure('already_member', 'x', { field: 'email' })).toEqual({
      title: 'This person is already a member of the workspace.',
      hint: 'Change their role instead.',
    });
    expect(failure('already_member', 'x').title).toBe('You are already a member of this workspace.');
  });

  it('names the first limit a downgrade is over, from the facts the plan rules find', () => {
    const usage = { accounts: 3, seats: 1, storageBytes: PLANS.free.storageBytes + 1024 ** 3, posts: 21, groups: 1 };
    const words = downgradeBlockers('free', usage).map(({ field, limit, actual }) =>
      failure('downgrade_blocked', 'The server’s sentence.', { field, limit, actual }),
    );
    expect(words.map((w) => w.title)).toEqual([
      'This workspace has 3 connected accounts; that plan allows 2.',
      'This workspace stores 3.0 GB of files; that plan stores 2.0 GB.',
      'This month counts 21 posts; that plan allows 20 a month.',
      'This workspace has 1 account group; that plan has no groups.',
    ]);
    expect(words[0]!.hint).toBe('Disconnect accounts first, then change the plan.');
    expect(failure('downgrade_blocked', 'x').title).toBe('The workspace uses more than the smaller plan allows.');
  });

  it('asks to sign in again when the session ended', () => {
    const words = failure('unauthenticated', 'Send Authorization: Bearer <API_KEY>');
    expect(words).toEqual({ title: 'Your session ended: sign in again.', signIn: true });
  });

  it('says a network refusal in the network’s name, quoting its own words (networkMessage) in order', () => {
    const message = 'Facebook answered: "The video is too short."';
    const words = failure('facebook_rejected', message, { networkMessage: 'The video is too short.' });
    expect(words).toEqual({
      title: 'Facebook refused the post.',
      quoteLead: 'Facebook said:',
      quote: 'The video is too short.',
      hint: 'Change the post as Facebook asks, then retry it.',
    });
    // The sentence alone is not parsed: without the fact, nothing is quoted.
    expect(failure('facebook_rejected', message).quote).toBeUndefined();
    // Without words for people to quote, the hint points at nothing that is not shown.
    const bare = failure('facebook_rejected', message, {
      networkMessage: '(#100) param media_fbid must be a valid id',
    });
    expect(bare).toEqual({
      title: 'Facebook refused the post.',
      hint: 'Change the post to meet Facebook’s rules, then retry it.',
    });
  });

  it('tells a move into the past by the failing row’s issue', () => {
    const rows = [
      {
        ok: false,
        platform: 'instagram',
        issues: [{ code: 'time_too_soon', message: 'when.publishAt 26 November, 09:00 (UTC) is in the past.' }],
      },
    ];
    expect(failure('checks_failed', '1 of 1 posts do not pass', { rows }).title).toMatch(/^This time has passed/);
  });
});

describe('the timeline in words', () => {
  it('says when a worker retries, in the workspace zone, without the event kind', () => {
    const now = DateTime.fromISO('2026-11-26T08:10:00Z');
    const event = { id: 'evt_1', kind: 'retriedByWorker', at: '2026-11-26T08:16:00.000Z' } as const;
    const words = eventWords({ ...event, publishAt: '2026-11-26T08:16:47.584Z' }, 'threads', 'Europe/Berlin', now);
    expect(words).toBe('Threads had a passing problem; Herald tries again by itself today at 09:16 CET.');
  });

  it('says why a post was cancelled from its reason, and an old event by its own sentence', () => {
    const event = { id: 'evt_2', kind: 'cancelled', at: '2026-11-26T08:16:00.000Z', message: 'Cancelled: …' } as const;
    const disconnected = eventWords({ ...event, reason: 'accountDisconnected' }, 'instagram', 'UTC');
    expect(disconnected).toMatch(/^Cancelled because its account was disconnected: the post is a draft again/);
    expect(eventWords({ ...event, reason: 'asked' }, 'instagram', 'UTC')).toMatch(/^Cancelled: the post is a draft/);
    expect(eventWords({ ...event, reason: 'needsApproval' }, 'instagram', 'UTC')).toMatch(/^Changed by someone whose/);
    // Recorded before events carried their facts: its sentence as it is, never read for meaning.
    expect(eventWords(event, 'instagram', 'UTC')).toBe('Cancelled: …');
  });

  it('says what an edit changed from the fields it names', () => {
    const event = {
      id: 'evt_3',
      kind: 'edited',
      at: '2026-11-26T08:16:00.000Z',
      message: 'Changed the text.',
    } as const;
    const changed = eventWords({ ...event, changed: ['text', 'tags', 'mediaIds'] }, 'threads', 'UTC');
    expect(changed).toBe('Changed the text, the tags and the files.');
    expect(eventWords({ ...event, changed: ['perPlatform'] }, 'threads', 'UTC')).toBe('Changed the settings.');
    expect(eventWords(event, 'threads', 'UTC')).toBe('Changed the text.');
    expect(eventWords({ ...event, message: undefined }, 'threads', 'UTC')).toBe('Edited.');
  });

  it('names who approved or rejected, with their comment, from the event’s fields', () => {
    const at = '2026-11-26T08:16:00.000Z';
    const approved = { id: 'evt_4', kind: 'approved', at, by: 'Ann Berg' } as const;
    expect(eventWords(approved, 'threads', 'UTC')).toBe('Approved by Ann Berg.');
    expect(eventWords({ ...approved, change: true }, 'threads', 'UTC')).toBe(
      'Approved by Ann Berg: the change that waited is applied.',
    );
    const rejected = { id: 'evt_5', kind: 'rejected', at, by: 'Ann Berg', comment: 'Use the spring photo.' } as const;
    expect(eventWords(rejected, 'threads', 'UTC')).toBe('Rejected by Ann Berg. They said: “Use the spring photo.”');
    expect(eventWords({ ...rejected, change: true, comment: undefined }, 'threads', 'UTC')).toBe(
      'Ann Berg rejected the change that waited for approval; the post stays as it was.',
    );
    const dropped = { id: 'evt_6', kind: 'rejected', at, reason: 'leftQueue', change: true } as const;
    expect(eventWords(dropped, 'threads', 'UTC')).toMatch(/^The change that waited for approval was dropped/);
    expect(eventWords({ id: 'evt_7', kind: 'rejected', at }, 'threads', 'UTC')).toBe('Rejected.');
  });
});

describe('webhook deliveries read as sentences', () => {
  it('says why no answer came in words, never the address guard’s message', () => {
    const attempt = (noAnswer: DeliveryAttempt['noAnswer'], responseBody: string, durationMs = 40) => ({
      attempt: 1,
      at: '2026-11-24T13:30:00.000Z',
      responseStatus: null,
      responseBody,
      durationMs,
      noAnswer,
    });
    // The words come from the code: the sentence beside it is the sender's, for programs and logs.
    expect(noAnswerWords(attempt('timeout', '', 10_004))).toBe('Your server did not answer within 10 seconds.');
    expect(noAnswerWords(attempt('host_unknown', ''))).toBe('The address’s host name does not exist.');
    const refused = 'url: http://10.0.0.1/hook points at 10.0.0.1, a private address; only public https addresses.';
    expect(noAnswerWords(attempt('address_not_public', refused))).toMatch(/^The address now leads to a private/);
    expect(noAnswerWords(attempt('other', 'socket hang up'))).toBe('No answer came.');
    expect(noAnswerWords(attempt(undefined, 'no answer within 10 seconds'))).toBe('No answer came.');
    expect(noAnswerWords(undefined)).toBe('No answer came.');
  });

  it('says when a failed attempt is tried again, in the workspace zone', () => {
    const d = {
      id: 'whd_1',
      webhookId: 'whk_1',
      eventId: 'wev_1',
      type: 'post.live',
      status: 'pending' as const,
      attempts: 2,
      nextAttemptAt: '2026-11-24T13:31:00.000Z',
      responseStatus: 503,
      responseBody: '',
      durationMs: 40,
      attemptLog: [],
      createdAt: '2026-11-24T13:00:00.000Z',
    };
    expect(DELIVERY_STATUS_WORDS.pending(d, 'Europe/Berlin', true)).toMatch(
      /^Attempt 2 failed; Herald tries again \w+ \d+ Nov at 14:31 CET\.$/,
    );
    expect(DELIVERY_STATUS_WORDS.pending(d, 'Europe/Berlin', false)).toBe(
      'It waits until the webhook is turned on again.',
    );
    expect(DELIVERY_STATUS_WORDS.pending({ ...d, attempts: 0 }, 'Europe/Berlin', true)).toBe('Sending now.');
  });
});
