import { describe, expect, it } from 'vitest';
import { filesDiff, textDiff } from './changeDiff.ts';

describe('what a waiting change does to a post', () => {
  it('marks the words removed and added, keeping the rest, and gives both texts back', () => {
    const before = 'Autumn sale: 30% off everything until Sunday.';
    const after = 'Autumn sale: 40% off everything until Monday night.';
    const pieces = textDiff(before, after);
    expect(pieces).toEqual([
      { kind: 'same', text: 'Autumn sale: ' },
      { kind: 'removed', text: '30% ' },
      { kind: 'added', text: '40% ' },
      { kind: 'same', text: 'off everything until ' },
      { kind: 'removed', text: 'Sunday.' },
      { kind: 'added', text: 'Monday night.' },
    ]);
    const kept = (kind: string) =>
      pieces
        .filter((p) => p.kind !== kind)
        .map((p) => p.text)
        .join('');
    expect(kept('added')).toBe(before);
    expect(kept('removed')).toBe(after);
  });

  it('handles an empty text on either side', () => {
    expect(textDiff('', 'New words')).toEqual([{ kind: 'added', text: 'New words' }]);
    expect(textDiff('Old words', '')).toEqual([{ kind: 'removed', text: 'Old words' }]);
    expect(textDiff('Same', 'Same')).toEqual([{ kind: 'same', text: 'Same' }]);
  });

  it('lists the files added and removed', () => {
    expect(filesDiff(['med_a', 'med_b'], ['med_b', 'med_c'])).toEqual({ added: ['med_c'], removed: ['med_a'] });
  });
});
