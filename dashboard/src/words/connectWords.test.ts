// The accounts page's words for a connection's outcome: the network's reason, the plan's limit in the singular and
// the plural, the posts a reconnect sent again, and the address that carries them.
import { describe, expect, it } from 'vitest';
import { readSentAgain, SENT_AGAIN_NAMED, sentAgainParam } from '../../../domain/sentAgain.ts';
import { ACCOUNT_PAGE_WORDS } from './scheduleWords.ts';
import {
  accountLimitWords,
  connectedTitle,
  connectRefusalWords,
  NOTHING_FOUND_WORDS,
  sentAgainMore,
  sentAgainWords,
} from './connectWords.ts';

const refusal = (code: string, body: Record<string, unknown>) => ({ code, message: 'm', status: 0, body });

describe('connect words', () => {
  it('says the plan’s limit in the singular and the plural, with a hint about accounts', () => {
    expect(accountLimitWords('free', 2, 2)).toEqual({
      title: 'The Free plan connects up to 2 accounts, and 2 are connected.',
      hint: 'Disconnect one to connect another, or move to the Creator plan for up to 6 accounts.',
    });
    expect(accountLimitWords('free', 2, 1).title).toBe(
      'The Free plan connects up to 2 accounts. 1 is connected, so there is room for 1 more, and the network ' +
        'granted more than that.',
    );
    expect(accountLimitWords('free', 1, 1).title).toBe('The Free plan connects up to 1 account, and 1 is connected.');
    // The largest plan has nowhere to move to.
    expect(accountLimitWords('owner', 1000, 1000).hint).toBe('Disconnect one to connect another.');
  });

  it('words a refusal by its reason or its limit, and anything else as every page does', () => {
    const personal = refusal('nothing_to_connect', { reason: 'instagram_not_professional' });
    expect(connectRefusalWords(personal, 'free')).toBe(NOTHING_FOUND_WORDS.instagram_not_professional);
    // A reason the dashboard does not know: the code's own words.
    expect(connectRefusalWords(refusal('nothing_to_connect', { reason: 'later' }), 'free').title).toBe(
      'The network offered no account to connect.',
    );
    const full = connectRefusalWords(refusal('quota_exceeded', { limit: '6', used: '6' }), 'creator');
    expect(full.title).toBe('The Creator plan connects up to 6 accounts, and 6 are connected.');
    expect(full.hint).not.toMatch(/post/);
    expect(connectRefusalWords(refusal('access_denied', {}), 'free').title).toBe(
      'The connection was not allowed on the network.',
    );
  });

  it('names a reconnect and the posts it sent again', () => {
    expect(connectedTitle(1, undefined)).toBe('Connected 1 account.');
    expect(connectedTitle(3, undefined)).toBe('Connected 3 accounts.');
    expect(connectedTitle(1, 'Acme Café')).toBe('Reconnected Acme Café.');
    expect(sentAgainWords('Tue 24 Nov at 12:00 CET', 'Acme Café').post).toBe(
      'your post of Tue 24 Nov at 12:00 CET to Acme Café',
    );
    expect(sentAgainWords(undefined, undefined).post).toBe('your post');
    expect(sentAgainMore(1)).toBe('and 1 more post, sent again too.');
    expect(sentAgainMore(4)).toBe('and 4 more posts, sent again too.');
  });

  it('carries the posts sent again through the address, the first ten, and reads back only post ids', () => {
    const posts = Array.from({ length: 12 }, (_, i) => ({ postId: `pst_${i}`, publishAt: '2026-11-24T11:00:00.000Z' }));
    expect(readSentAgain(sentAgainParam(posts))).toEqual(posts.slice(0, SENT_AGAIN_NAMED));
    expect(readSentAgain(sentAgainParam([{ postId: 'pst_a', publishAt: null }]))).toEqual([
      { postId: 'pst_a', publishAt: null },
    ]);
    expect(readSentAgain('pst_a@yesterday,<b>@2026-11-24T11:00:00.000Z')).toEqual([
      { postId: 'pst_a', publishAt: null },
    ]);
    expect(readSentAgain(null)).toEqual([]);
  });

  it('confirms saved posting times in the singular and the plural', () => {
    expect(ACCOUNT_PAGE_WORDS.saved('acme.shop', 1)).toBe('Saved: acme.shop has 1 posting time a week.');
    expect(ACCOUNT_PAGE_WORDS.saved('acme.shop', 3)).toBe('Saved: acme.shop has 3 posting times a week.');
    expect(ACCOUNT_PAGE_WORDS.saved('acme.shop', 0)).toBe('Saved: acme.shop has no posting times now.');
  });
});
