// A post's heading in lists is its own (a YouTube title, else its first words), and a bulk action's summary says
// what happened in a sentence; the server's refusal of a post being published reads as such.
import { describe, expect, it } from 'vitest';
import { bulkLeftAlone, bulkSummary, postHeading, shownPrivatelyText } from './postWords.ts';
import { failureWords } from './words.ts';

describe('postHeading', () => {
  it('uses the title for YouTube only, and the first words of the text for the other networks', () => {
    const both = { title: 'Autumn lookbook (video)', text: 'Our autumn sale is on: 30% off.' };
    expect(postHeading({ ...both, platform: 'youtube' })).toBe('Autumn lookbook (video)');
    expect(postHeading({ ...both, platform: 'instagram' })).toBe('Our autumn sale is on: 30% off.');
    expect(postHeading({ title: null, text: '  \n ', platform: 'threads' })).toBe('No text');
    expect(postHeading({ title: ' ', text: 'Fallback text', platform: 'youtube' })).toBe('Fallback text');
  });

  it('cuts long text at a word, with an ellipsis, and on one line', () => {
    const text =
      'Autumn sale starts today:\nthirty percent off every coat, scarf and boot in the shop and online until Sunday';
    const heading = postHeading({ title: null, text, platform: 'facebook' });
    expect(heading).toBe('Autumn sale starts today: thirty percent off every coat, scarf and…');
    expect(heading.length).toBeLessThanOrEqual(71);
    expect(postHeading({ title: null, text: 'x'.repeat(100), platform: 'threads' })).toBe(`${'x'.repeat(70)}…`);
  });
});

describe('bulk summaries', () => {
  it('says how many posts it changed and how many it could not', () => {
    expect(bulkSummary('delete', { done: 3, failed: 1 })).toBe('3 posts deleted, 1 could not be:');
    expect(bulkSummary('cancel', { done: 1, failed: 0 })).toBe('1 post cancelled.');
    expect(bulkSummary('reschedule', { done: 0, failed: 2 })).toBe('0 posts rescheduled, 2 could not be:');
  });

  it('names the selected posts an action leaves alone, and why', () => {
    expect(bulkLeftAlone('cancel', 0, 'is')).toBe('');
    expect(bulkLeftAlone('cancel', 1, 'is')).toBe(
      '1 selected post is left as it is: only scheduled posts can be cancelled.',
    );
    expect(bulkLeftAlone('delete', 2, 'was')).toBe('2 selected posts were left as they were: published posts stay.');
  });

  it('says a post is being published, from the state the refusal names (actual), never from its sentence', () => {
    const refusal = (message: string, actual: string) =>
      failureWords({ code: 'invalid_state', message, status: 409, body: { actual } });
    expect(
      refusal('Post pst_1 is being published right now; it cannot be changed until that attempt ends.', 'publishing')
        .title,
    ).toBe('This post is being published right now.');
    expect(refusal('Post pst_1 is live; a live post cannot be deleted.', 'live').title).toBe(
      'This post is already published, and stays as it is.',
    );
    expect(refusal('Post pst_1 is draft; only a queued post can be cancelled.', 'draft').title).toBe(
      'The post is no longer in a state that allows this.',
    );
    expect(refusal('Post pst_1 is live; a live post cannot be deleted.', 'draft').title).toBe(
      'The post is no longer in a state that allows this.',
    );
  });
});

describe('shownPrivatelyText', () => {
  it("says why YouTube made a video private (the project's audit) and what to do meanwhile", () => {
    expect(shownPrivatelyText('youtube')).toMatch(/^YouTube made this video private, whatever visibility was chosen/);
    expect(shownPrivatelyText('youtube')).toContain('have the project audited by YouTube');
    expect(shownPrivatelyText('tiktok')).toMatch(/^TikTok shows this post privately and gives no link to it/);
    expect(shownPrivatelyText('threads')).toBe('Threads shows this post only to the account, not to the public.');
  });
});
